#include "launchindex.h"

#include "rankfilter.h"
#include "deviceexecutions.h"

#include "model/argint.h"
#include "model/trace.h"
#include "util/textutil.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <thread>
#include <unordered_map>

namespace lanescope {

namespace {

enum class CatClass : uint8_t { Other, FrameworkOp, Runtime, Kernel, Memcpy, Memset, Driver, Instruction, Dma, Empty };

using text::lower;

CatClass classify(std::string_view category)
{
    if (category.empty())
        return CatClass::Empty;
    const std::string c = lower(category);
    if (c == "cpu_op" || c == "user_annotation" || c == "operator")
        return CatClass::FrameworkOp;
    if (c == "kernel")
        return CatClass::Kernel;
    if (c == "gpu_memcpy" || c == "memcpy")
        return CatClass::Memcpy;
    if (c == "gpu_memset" || c == "memset")
        return CatClass::Memset;
    if (c == "privateuse1_driver")
        return CatClass::Driver;
    if (c == "instruction")
        return CatClass::Instruction;
    if (c == "dma")
        return CatClass::Dma;
    if (c.find("runtime") != std::string::npos || c == "cuda_driver")
        return CatClass::Runtime;
    return CatClass::Other;
}

// rocprof v1 writes no "cat": its process names say what a lane holds (tblextr.py's label_json: "COPY",
// "GPU<n>", "CPU HIP API", "CPU HSA API"; older versions write "<section> <label>"). The class of an
// uncategorised slice on such a process, Empty elsewhere; `gpu` is the <n> of "GPU<n>".
CatClass rocprofClass(std::string_view process, int64_t &gpu)
{
    size_t i = 0;
    while (i < process.size() && process[i] >= '0' && process[i] <= '9')
        ++i;
    if (i > 0 && i < process.size() && process[i] == ' ')
        process.remove_prefix(i + 1);
    if (process == "COPY")
        return CatClass::Memcpy;
    if (process == "CPU HIP API" || process == "CPU HSA API")
        return CatClass::Runtime;
    if (process.size() > 3 && process.starts_with("GPU") && text::parseInt(process.substr(3), gpu) && gpu >= 0 &&
        process[3] >= '0' && process[3] <= '9')
        return CatClass::Kernel;
    return CatClass::Empty;
}

// (rank, id) -> slice, the first slice added for a key winning: Correlation and External ids. A sorted
// vector searched by halves: a trace holds millions of ids, and a hash map of them costs more to fill
// than everything else the index does.
class IdIndex
{
public:
    void add(int64_t rank, int64_t id, uint32_t slice) { m_entries.push_back(Entry{rank, id, slice}); }
    size_t size() const { return m_entries.size(); }
    void finish()
    {
        std::stable_sort(m_entries.begin(), m_entries.end());
        m_entries.erase(std::unique(m_entries.begin(), m_entries.end(), [](const Entry &a, const Entry &b) { return !(a < b) && !(b < a); }),
                        m_entries.end());
    }
    // The slice of (rank, id), or SliceId::kInvalid.
    uint32_t find(int64_t rank, int64_t id) const
    {
        const Entry key{rank, id, 0};
        const auto it = std::lower_bound(m_entries.begin(), m_entries.end(), key);
        return it != m_entries.end() && it->rank == rank && it->id == id ? it->slice : SliceId::kInvalid;
    }

private:
    struct Entry
    {
        int64_t rank, id;
        uint32_t slice;
        bool operator<(const Entry &o) const { return rank != o.rank ? rank < o.rank : id < o.id; }
    };
    std::vector<Entry> m_entries;
};

} // namespace

// "NeuronCore 0 · neff_123 (aligned approx.)" -> "neff_123"; other names unchanged.
std::string LaunchIndex::workName(const Trace &trace, const Work &w)
{
    const std::string_view group = trace.str(w.name);
    if (w.kind != WorkKind::NeffExecution)
        return std::string(group);
    static constexpr std::string_view sep = "\xC2\xB7 "; // "· "
    std::string_view s = group;
    const size_t at = s.find(sep);
    if (at != std::string_view::npos)
        s = s.substr(at + sep.size());
    static constexpr std::string_view aligned = " (aligned approx.)";
    if (s.size() >= aligned.size() && s.substr(s.size() - aligned.size()) == aligned)
        s = s.substr(0, s.size() - aligned.size());
    return std::string(s);
}

const char *LaunchIndex::kindName(WorkKind k)
{
    switch (k) {
    case WorkKind::Kernel: return "kernel";
    case WorkKind::Memcpy: return "memcpy";
    case WorkKind::Memset: return "memset";
    case WorkKind::NeffExecution: return "neff";
    case WorkKind::DriverExecution: return "execution";
    case WorkKind::Instruction: return "opcode";
    case WorkKind::Dma: return "dma";
    }
    return "kernel";
}

const Arg *LaunchIndex::findArg(const Trace &trace, ArgSetId set, StringId key)
{
    if (!set.isValid() || !key.isValid())
        return nullptr;
    for (const Arg &a : trace.args().args(set))
        if (a.key == key)
            return &a;
    return nullptr;
}

bool LaunchIndex::intArg(const Trace &trace, ArgSetId set, StringId key, int64_t &out)
{
    const Arg *a = findArg(trace, set, key);
    if (!a)
        return false;
    const std::optional<int64_t> i = argInt(*a, [&trace](StringId id) { return trace.str(id); });
    if (i)
        out = *i;
    return i.has_value();
}

LaunchIndex LaunchIndex::build(const Trace &trace)
{
    LaunchIndex ix;
    const size_t n = trace.allSlices().size();
    ix.m_role.assign(n, uint8_t(Role::Other));
    ix.m_opParent.assign(n, SliceId::kInvalid);

    const StringPool &pool = trace.strings();
    const StringId kCorrelation = pool.find("correlation");
    const StringId kExternal = pool.find("External id"), kExternalLower = pool.find("external id");
    const StringId kDevice = pool.find("device"), kNc = pool.find("nc"), kNcIdx = pool.find("nc_idx");

    std::unordered_map<uint32_t, CatClass> catClass;
    const auto classOf = [&](StringId cat) {
        auto it = catClass.find(cat.value);
        if (it == catClass.end())
            it = catClass.emplace(cat.value, classify(trace.str(cat))).first;
        return it->second;
    };
    // The topmost NeuronCore group above a track: one NEFF execution (see the header).
    const auto executionGroup = [&](GroupId g) {
        GroupId found;
        for (; g.isValid(); g = trace.group(g).parent)
            if (trace.group(g).kind == GroupKind::NeuronCore)
                found = g;
        return found;
    };

    std::map<std::string, uint32_t> deviceByName;
    const auto deviceIndex = [&](const std::string &name, bool neuron) {
        auto [it, added] = deviceByName.try_emplace(name, uint32_t(ix.m_devices.size()));
        if (added)
            ix.m_devices.push_back(Device{name, neuron});
        return it->second;
    };
    // The device of (kind of name, rank, number), remembered: naming it builds a string.
    std::unordered_map<uint64_t, uint32_t> deviceByNumber;
    const auto deviceOf = [&](int kind, int64_t rank, int64_t number, const auto &name, bool neuron) {
        const uint64_t key = (uint64_t(kind) << 60) ^ (uint64_t(rank + 1) << 40) ^ uint64_t(number);
        auto it = deviceByNumber.find(key);
        if (it == deviceByNumber.end())
            it = deviceByNumber.emplace(key, deviceIndex(name(), neuron)).first;
        return it->second;
    };

    // Correlation and External ids are per process: in a multi-rank trace each rank counts its own, so
    // they are keyed by (rank, id) (rank -1 outside multi-rank traces), and devices are named per rank.
    std::vector<int64_t> rankOfTrack(trace.tracks().size(), -1);
    for (uint32_t t = 0; t < rankOfTrack.size(); ++t)
        rankOfTrack[t] = RankFilter::rankOfTrack(trace, TrackId(t));
    const auto rankOf = [&](SliceId s) { return rankOfTrack[trace.trackOfSlice(s).value]; };
    const auto devicePrefix = [](int64_t rank) { return rank >= 0 ? "Rank " + std::to_string(rank) + " · " : std::string(); };
    IdIndex runtimeByCorrelation, opByExternalId;
    // One NEFF execution: a slice of the executions lane of the lane set (a profile folder, DeviceExecutions),
    // else the whole NeuronCore group (a single NTFF).
    const DeviceExecutions executions = DeviceExecutions::build(trace);
    const auto executionKey = [&](GroupId laneSet, GroupId group, int64_t t) {
        const int e = executions.find(laneSet, t);
        return e >= 0 ? uint64_t(1) << 32 | uint32_t(e) : uint64_t(group.value);
    };
    std::unordered_map<uint64_t, uint32_t> executionOfGroup; // execution key -> index in m_work
    std::vector<uint32_t> open;                              // per depth: slice id of the open slice

    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track &track = trace.track(TrackId(t));
        if (track.sliceCount == 0)
            continue;
        const bool nested = track.kind == TrackKind::Slices;
        const GroupId execGroup = executionGroup(track.group);
        int64_t rocprofGpu = -1;
        const CatClass uncategorised = track.group.isValid() ? rocprofClass(trace.str(trace.group(track.group).name), rocprofGpu)
                                                             : CatClass::Empty;
        const auto slices = trace.slices(TrackId(t));
        open.clear();
        for (uint32_t k = 0; k < slices.size(); ++k) {
            const uint32_t id = track.sliceBegin + k;
            const Slice &s = slices[k];
            CatClass cls = classOf(s.category);
            if (cls == CatClass::Empty && uncategorised != CatClass::Empty)
                cls = uncategorised;
            else if (cls == CatClass::Empty)
                cls = nested && !execGroup.isValid() ? CatClass::FrameworkOp : CatClass::Other;
            int64_t corr = 0;
            const bool hasCorr = kCorrelation.isValid() && intArg(trace, s.args, kCorrelation, corr);
            Role role = Role::Other;
            switch (cls) {
            case CatClass::FrameworkOp: role = Role::FrameworkOp; break;
            case CatClass::Runtime: role = Role::Runtime; break;
            case CatClass::Kernel:
            case CatClass::Memcpy:
            case CatClass::Memset: role = Role::DeviceWork; break;
            case CatClass::Driver: role = hasCorr ? Role::DeviceWork : Role::Other; break;
            case CatClass::Instruction:
            case CatClass::Dma: role = execGroup.isValid() ? Role::DeviceWork : Role::Other; break;
            default: break;
            }
            ix.m_role[id] = uint8_t(role);

            if (nested) {
                if (open.size() <= s.depth)
                    open.resize(size_t(s.depth) + 1, SliceId::kInvalid);
                open[s.depth] = id;
                if (role == Role::FrameworkOp || role == Role::Runtime) {
                    for (size_t d = s.depth; d-- > 0;) {
                        const uint32_t p = open[d];
                        if (p == SliceId::kInvalid || ix.m_role[p] != uint8_t(Role::FrameworkOp))
                            continue;
                        const Slice &ps = trace.slice(SliceId(p));
                        if (ps.start <= s.start && ps.end() >= s.end()) {
                            ix.m_opParent[id] = p;
                            break;
                        }
                    }
                    ix.m_opSlices.push_back(id);
                }
            }
            if (role == Role::Runtime && hasCorr)
                runtimeByCorrelation.add(rankOfTrack[t], corr, id);
            int64_t ext = 0;
            if (role == Role::FrameworkOp && (intArg(trace, s.args, kExternal, ext) || intArg(trace, s.args, kExternalLower, ext)))
                opByExternalId.add(rankOfTrack[t], ext, id);
            if (role != Role::DeviceWork)
                continue;

            Work w;
            w.start = s.start;
            w.end = s.end();
            w.name = s.name;
            w.slice = SliceId(id);
            switch (cls) {
            case CatClass::Kernel: w.kind = WorkKind::Kernel; break;
            case CatClass::Memcpy: w.kind = WorkKind::Memcpy; break;
            case CatClass::Memset: w.kind = WorkKind::Memset; break;
            case CatClass::Driver: w.kind = WorkKind::DriverExecution; break;
            case CatClass::Instruction: w.kind = WorkKind::Instruction; break;
            default: w.kind = WorkKind::Dma; break;
            }
            int64_t dev = 0;
            if (execGroup.isValid()) {
                const TrackGroup &g = trace.group(execGroup);
                w.device = deviceOf(0, -1, g.externalId, [&] { return "NeuronCore " + std::to_string(g.externalId); }, true);
                const uint64_t key = executionKey(track.group, execGroup, s.start);
                auto [it, added] = executionOfGroup.try_emplace(key, uint32_t(ix.m_work.size()));
                if (added) {
                    Work e;
                    e.start = s.start;
                    e.end = s.end();
                    e.name = g.name;
                    if (key >> 32 && executions.all()[uint32_t(key)].program.isValid())
                        e.name = executions.all()[uint32_t(key)].program;
                    e.slice = SliceId(id);
                    e.kind = WorkKind::NeffExecution;
                    e.device = w.device;
                    ix.m_work.push_back(e);
                } else {
                    Work &e = ix.m_work[it->second];
                    if (s.start < e.start) {
                        e.start = s.start;
                        e.slice = SliceId(id);
                    }
                    e.end = std::max(e.end, s.end());
                }
                w.execution = it->second;
            } else if (w.kind == WorkKind::DriverExecution) {
                const bool core = intArg(trace, s.args, kNc, dev) || intArg(trace, s.args, kNcIdx, dev);
                if (!core)
                    dev = intArg(trace, s.args, kDevice, dev) ? dev : trace.group(track.group).externalId;
                w.device = deviceOf(core ? 1 : 2, rankOfTrack[t], dev,
                                    [&] { return devicePrefix(rankOfTrack[t]) + (core ? "NeuronCore " : "privateuse1 ") + std::to_string(dev); }, true);
            } else {
                if (!intArg(trace, s.args, kDevice, dev))
                    dev = rocprofGpu >= 0 ? rocprofGpu : trace.group(track.group).externalId;
                w.device = deviceOf(3, rankOfTrack[t], dev, [&] { return devicePrefix(rankOfTrack[t]) + "GPU " + std::to_string(dev); }, false);
            }
            ix.m_work.push_back(w);
        }
    }

    // The two id indexes sort on a core each (when large enough to pay for a thread).
    if (runtimeByCorrelation.size() + opByExternalId.size() > 100000) {
        std::thread other([&] { runtimeByCorrelation.finish(); });
        opByExternalId.finish();
        other.join();
    } else {
        runtimeByCorrelation.finish();
        opByExternalId.finish();
    }

    // Launchers.
    const auto runtimeFromFlows = [&](SliceId target) {
        for (FlowId f : trace.flowsTo(target)) {
            const SliceId from = trace.flows()[f.value].from;
            if (from.isValid() && ix.m_role[from.value] == uint8_t(Role::Runtime))
                return from;
        }
        return SliceId();
    };
    for (Work &w : ix.m_work) {
        if (!isExecutionLevel(w.kind) || w.kind == WorkKind::NeffExecution)
            continue;
        int64_t corr = 0;
        if (intArg(trace, trace.slice(w.slice).args, kCorrelation, corr)) {
            if (const uint32_t runtime = runtimeByCorrelation.find(rankOf(w.slice), corr); runtime != SliceId::kInvalid)
                w.launcher = SliceId(runtime);
        }
        if (!w.launcher.isValid())
            w.launcher = runtimeFromFlows(w.slice);
    }
    // NEFF executions: the alignment flow ends on some slice of the execution's group.
    for (const Flow &f : trace.flows()) {
        if (!f.from.isValid() || !f.to.isValid() || ix.m_role[f.from.value] != uint8_t(Role::Runtime))
            continue;
        const GroupId laneSet = trace.track(trace.trackOfSlice(f.to)).group;
        const GroupId g = executionGroup(laneSet);
        if (!g.isValid())
            continue;
        auto it = executionOfGroup.find(executionKey(laneSet, g, trace.slice(f.to).start));
        if (it != executionOfGroup.end() && !ix.m_work[it->second].launcher.isValid())
            ix.m_work[it->second].launcher = f.from;
    }
    // Ops.
    const auto byExternalId = [&](SliceId s) {
        int64_t ext = 0;
        if (s.isValid() && (intArg(trace, trace.slice(s).args, kExternal, ext) || intArg(trace, trace.slice(s).args, kExternalLower, ext))) {
            if (const uint32_t op = opByExternalId.find(rankOf(s), ext); op != SliceId::kInvalid)
                return SliceId(op);
        }
        return SliceId();
    };
    for (Work &w : ix.m_work) {
        if (!isExecutionLevel(w.kind))
            continue;
        if (w.launcher.isValid()) {
            // PyTorch's own link first: the op of the runtime call's External id, in its process
            const SliceId byId = byExternalId(w.launcher);
            if (byId.isValid() && trace.track(trace.trackOfSlice(byId)).group == trace.track(trace.trackOfSlice(w.launcher)).group)
                w.op = byId;
            else
                w.op = ix.opParent(w.launcher);
        }
        if (!w.op.isValid() && w.kind != WorkKind::NeffExecution)
            w.op = byExternalId(w.slice);
    }
    for (Work &w : ix.m_work)
        if (w.execution != UINT32_MAX) {
            w.launcher = ix.m_work[w.execution].launcher;
            w.op = ix.m_work[w.execution].op;
        }

    // A driver execution superseded by the NEFF execution of the same runtime call.
    std::vector<uint32_t> neffLaunchers;
    for (const Work &w : ix.m_work)
        if (w.kind == WorkKind::NeffExecution && w.launcher.isValid())
            neffLaunchers.push_back(w.launcher.value);
    std::sort(neffLaunchers.begin(), neffLaunchers.end());
    std::vector<uint8_t> keep(ix.m_work.size(), 1);
    for (size_t i = 0; i < ix.m_work.size(); ++i) {
        const Work &w = ix.m_work[i];
        if (w.kind == WorkKind::DriverExecution && w.launcher.isValid()
            && std::binary_search(neffLaunchers.begin(), neffLaunchers.end(), w.launcher.value)) {
            keep[i] = 0;
            ix.m_role[w.slice.value] = uint8_t(Role::Other);
        }
    }

    // Order by start; remap execution indices and devices (sorted by name).
    std::vector<uint32_t> order;
    order.reserve(ix.m_work.size());
    for (uint32_t i = 0; i < ix.m_work.size(); ++i)
        if (keep[i])
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return ix.m_work[a].start < ix.m_work[b].start; });
    std::vector<uint32_t> newIndex(ix.m_work.size(), UINT32_MAX);
    for (uint32_t i = 0; i < order.size(); ++i)
        newIndex[order[i]] = i;
    std::vector<uint32_t> deviceRemap(ix.m_devices.size());
    std::vector<Device> devices;
    for (const auto &[name, idx] : deviceByName) {
        deviceRemap[idx] = uint32_t(devices.size());
        devices.push_back(ix.m_devices[idx]);
    }
    std::vector<Work> sorted;
    sorted.reserve(order.size());
    for (uint32_t i : order) {
        Work w = ix.m_work[i];
        if (w.execution != UINT32_MAX)
            w.execution = newIndex[w.execution];
        w.device = deviceRemap[w.device];
        sorted.push_back(w);
    }
    ix.m_work = std::move(sorted);
    ix.m_devices = std::move(devices);
    return ix;
}

} // namespace lanescope
