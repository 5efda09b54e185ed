#include "optable.h"

#include "executioncost.h"
#include "rankfilter.h"

#include "model/trace.h"

#include <algorithm>
#include <unordered_map>

namespace lanescope {

namespace {

struct ColumnInfo
{
    OpTable::Column column;
    const char *name;
    const char *title;
};

constexpr ColumnInfo kColumns[] = {
    {OpTable::Column::Name, "name", "Name"},
    {OpTable::Column::Shapes, "input_shapes", "Input shapes"},
    {OpTable::Column::Calls, "calls", "Calls"},
    {OpTable::Column::CpuTotal, "cpu_total_ns", "CPU total"},
    {OpTable::Column::CpuSelf, "cpu_self_ns", "CPU self"},
    {OpTable::Column::CpuAvg, "cpu_avg_ns", "CPU avg"},
    {OpTable::Column::CpuMin, "cpu_min_ns", "CPU min"},
    {OpTable::Column::CpuMax, "cpu_max_ns", "CPU max"},
    {OpTable::Column::DeviceTotal, "device_total_ns", "Device total"},
    {OpTable::Column::DeviceSelf, "device_self_ns", "Device self"},
    {OpTable::Column::DeviceAvg, "device_avg_ns", "Device avg"},
    {OpTable::Column::CpuSelfPercent, "cpu_self_percent", "CPU self %"},
    {OpTable::Column::CpuTotalPercent, "cpu_total_percent", "CPU total %"},
    {OpTable::Column::DeviceSelfPercent, "device_self_percent", "Device self %"},
    {OpTable::Column::DeviceTotalPercent, "device_total_percent", "Device total %"},
    {OpTable::Column::DeviceFlopsTotal, "device_flops_total", "FLOPs total"},
    {OpTable::Column::DeviceFlopsSelf, "device_flops_self", "FLOPs self"},
    {OpTable::Column::Mfu, "mfu_percent", "MFU"},
    {OpTable::Column::DmaBytesTotal, "dma_bytes_total", "DMA bytes total"},
    {OpTable::Column::DmaBytesSelf, "dma_bytes_self", "DMA bytes self"},
};
static_assert(std::size(kColumns) == size_t(OpTable::Column::Count));

// PyTorch's key_averages sort keys (torch.autograd.profiler_util) and their device variants.
struct Alias
{
    const char *name;
    OpTable::Column column;
};
constexpr Alias kAliases[] = {
    {"count", OpTable::Column::Calls},
    {"cpu_time_total", OpTable::Column::CpuTotal},
    {"self_cpu_time_total", OpTable::Column::CpuSelf},
    {"cpu_time", OpTable::Column::CpuAvg},
    {"cuda_time_total", OpTable::Column::DeviceTotal},
    {"device_time_total", OpTable::Column::DeviceTotal},
    {"privateuse1_time_total", OpTable::Column::DeviceTotal},
    {"xpu_time_total", OpTable::Column::DeviceTotal},
    {"self_cuda_time_total", OpTable::Column::DeviceSelf},
    {"self_device_time_total", OpTable::Column::DeviceSelf},
    {"self_privateuse1_time_total", OpTable::Column::DeviceSelf},
    {"self_xpu_time_total", OpTable::Column::DeviceSelf},
    {"cuda_time", OpTable::Column::DeviceAvg},
    {"device_time", OpTable::Column::DeviceAvg},
    {"privateuse1_time", OpTable::Column::DeviceAvg},
};

std::string percentKey(std::string_view name, std::string_view shapes)
{
    std::string key(name);
    key += '\0';
    key += shapes;
    return key;
}

} // namespace

const char *OpTable::columnName(Column c) { return kColumns[size_t(c)].name; }
const char *OpTable::columnTitle(Column c) { return kColumns[size_t(c)].title; }

std::optional<OpTable::Column> OpTable::columnFromName(std::string_view name)
{
    for (const ColumnInfo &c : kColumns)
        if (name == c.name)
            return c.column;
    for (const Alias &a : kAliases)
        if (name == a.name)
            return a.column;
    return std::nullopt;
}

std::string_view OpTable::foldName(std::string_view name)
{
    static constexpr std::string_view step = "ProfilerStep#";
    if (name.size() > step.size() && name.substr(0, step.size()) == step
        && std::all_of(name.begin() + step.size(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return "ProfilerStep*";
    return name;
}

double OpTable::Row::number(Column c) const
{
    switch (c) {
    case Column::Name:
    case Column::Shapes:
    case Column::Count: return 0;
    case Column::Calls: return double(calls);
    case Column::CpuTotal: return double(cpuTotal);
    case Column::CpuSelf: return double(cpuSelf);
    case Column::CpuAvg: return cpuAvg();
    case Column::CpuMin: return double(cpuMin);
    case Column::CpuMax: return double(cpuMax);
    case Column::DeviceTotal: return double(deviceTotal);
    case Column::DeviceSelf: return double(deviceSelf);
    case Column::DeviceAvg: return deviceAvg();
    case Column::CpuSelfPercent: return cpuSelfPercent;
    case Column::CpuTotalPercent: return cpuTotalPercent;
    case Column::DeviceSelfPercent: return deviceSelfPercent;
    case Column::DeviceTotalPercent: return deviceTotalPercent;
    case Column::DeviceFlopsTotal: return deviceFlopsTotal.value_or(-1);
    case Column::DeviceFlopsSelf: return deviceFlopsSelf.value_or(-1);
    case Column::Mfu: return mfuPercent.value_or(-1);
    case Column::DmaBytesTotal: return dmaBytesTotal ? double(*dmaBytesTotal) : -1.0;
    case Column::DmaBytesSelf: return dmaBytesSelf ? double(*dmaBytesSelf) : -1.0;
    }
    return 0;
}

void OpTable::sort(std::vector<Row> &rows, Column column)
{
    const auto byName = [](const Row &a, const Row &b) { return a.name != b.name ? a.name < b.name : a.shapes < b.shapes; };
    if (column == Column::Name || column == Column::Shapes) {
        std::stable_sort(rows.begin(), rows.end(), [&](const Row &a, const Row &b) {
            if (column == Column::Shapes && a.shapes != b.shapes)
                return a.shapes < b.shapes;
            return byName(a, b);
        });
        return;
    }
    std::stable_sort(rows.begin(), rows.end(), [&](const Row &a, const Row &b) {
        const double x = a.number(column), y = b.number(column);
        return x != y ? x > y : byName(a, b);
    });
}

namespace {

// Whether an op occurrence counts for `options`: it starts in the range and its rank is shown.
class OccurrenceFilter
{
public:
    OccurrenceFilter(const Trace &trace, const OpTable::Options &options) : m_trace(trace), m_options(options), m_rank(trace, options.rank) {}
    bool inRange(int64_t t) const { return !m_options.hasRange || (t >= m_options.t0 && t <= m_options.t1); }
    bool accepts(SliceId s) const { return inRange(m_trace.slice(s).start) && m_rank.accepts(s); }
    bool acceptsRank(SliceId s) const { return m_rank.accepts(s); }

private:
    const Trace &m_trace;
    const OpTable::Options &m_options;
    RankFilter m_rank;
};

// The Neuron device side of one op occurrence (only occurrences that launched NEFF executions, self or
// through descendants, have one).
struct DeviceSide
{
    bool neffSelf = false, neffTotal = false;   // launched a NEFF execution (DMA bytes are known)
    bool flopsSelf = false, flopsTotal = false; // one of those carries FLOPs
    uint64_t dmaSelf = 0, dmaTotal = 0;
    double flopSelf = 0, flopTotal = 0;
    double mfuFlops = 0, mfuCapacity = 0; // total: FLOPs of executions with a known peak, and duration x peak
};

template <typename T> void addTo(std::optional<T> &sum, bool known, T value)
{
    if (known)
        sum = sum.value_or(T(0)) + value;
}

// A row's occurrences in time order (start, then slice id).
void sortByStart(const Trace &trace, std::vector<uint32_t> &ids)
{
    std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
        const int64_t x = trace.slice(SliceId(a)).start, y = trace.slice(SliceId(b)).start;
        return x != y ? x < y : a < b;
    });
}

} // namespace

std::vector<uint32_t> OpTable::occurrences(const Trace &trace, const LaunchIndex &index, const Options &options,
                                           std::string_view name)
{
    std::vector<uint32_t> out;
    const OccurrenceFilter filter(trace, options);
    std::unordered_map<uint32_t, bool> matches; // name id -> folds to `name`
    for (uint32_t id : index.opSlices()) {
        const Slice &s = trace.slice(SliceId(id));
        auto it = matches.find(s.name.value);
        if (it == matches.end())
            it = matches.emplace(s.name.value, foldName(trace.str(s.name)) == name).first;
        if (it->second && filter.accepts(SliceId(id)))
            out.push_back(id);
    }
    sortByStart(trace, out);
    return out;
}

OpTable::Result OpTable::compute(const Trace &trace, const LaunchIndex &index, const Options &options, const ExecutionCost *cost)
{
    Result result;
    const auto ops = index.opSlices();
    const size_t n = index.sliceCount();
    const StringId kInputDims = trace.strings().find("Input Dims");

    // Direct-children time and device time per occurrence, over all ops (children may start after
    // the range ends; their parent's self time still excludes them).
    std::vector<int64_t> childTime(n, 0), deviceSelf(n, 0), deviceTotal(n, 0);
    for (uint32_t id : ops) {
        const SliceId p = index.opParent(SliceId(id));
        if (p.isValid())
            childTime[p.value] += trace.slice(SliceId(id)).duration;
    }
    const OccurrenceFilter filter(trace, options);
    for (const LaunchIndex::Work &w : index.work()) {
        if (!LaunchIndex::isExecutionLevel(w.kind))
            continue;
        if (!w.op.isValid()) {
            if (filter.inRange(w.start) && filter.acceptsRank(w.slice)) {
                result.unattributedDevice += w.duration();
                ++result.unattributedCount;
            }
            continue;
        }
        deviceSelf[w.op.value] += w.duration();
        for (SliceId a = w.op; a.isValid(); a = index.opParent(a))
            deviceTotal[a.value] += w.duration();
    }

    // Device FLOPs and DMA bytes of NEFF executions, charged like the device time.
    std::unordered_map<uint32_t, DeviceSide> side; // op slice id -> its device side
    {
        std::optional<ExecutionCost> built;
        if (!cost)
            built = ExecutionCost::build(trace, index);
        const ExecutionCost &costs = cost ? *cost : *built;
        const auto work = index.work();
        for (size_t i = 0; i < work.size(); ++i) {
            const LaunchIndex::Work &w = work[i];
            if (w.kind != LaunchIndex::WorkKind::NeffExecution || !w.op.isValid())
                continue;
            const ExecutionCost::Entry &f = costs.of(i);
            const uint64_t dma = f.dmaBytes;
            const double flop = f.flops.value_or(0);
            const double capacity = f.flops && f.peakFlopsPerSec > 0 ? double(w.duration()) * 1e-9 * f.peakFlopsPerSec : 0.0;
            DeviceSide &own = side[w.op.value];
            own.neffSelf = true;
            own.dmaSelf += dma;
            own.flopsSelf = own.flopsSelf || f.flops.has_value();
            own.flopSelf += flop;
            for (SliceId a = w.op; a.isValid(); a = index.opParent(a)) {
                DeviceSide &d = side[a.value];
                d.neffTotal = true;
                d.dmaTotal += dma;
                d.flopsTotal = d.flopsTotal || f.flops.has_value();
                d.flopTotal += flop;
                if (capacity > 0) {
                    d.mfuFlops += flop;
                    d.mfuCapacity += capacity;
                }
            }
        }
    }
    std::vector<double> mfuFlops, mfuCapacity; // per row

    std::unordered_map<uint64_t, uint32_t> rowOfKey;      // (name id, shapes id) -> row
    std::unordered_map<std::string, uint32_t> rowOfText;  // folded name + shapes -> row
    for (uint32_t id : ops) {
        const Slice &s = trace.slice(SliceId(id));
        if (!filter.accepts(SliceId(id)))
            continue;
        StringId shapes;
        if (options.groupByShapes) {
            const Arg *a = LaunchIndex::findArg(trace, s.args, kInputDims);
            if (a && (a->type == ArgType::Json || a->type == ArgType::String))
                shapes = a->stringValue();
        }
        const uint64_t key = (uint64_t(s.name.value) << 32) | shapes.value;
        auto it = rowOfKey.find(key);
        if (it == rowOfKey.end()) {
            const std::string_view name = foldName(trace.str(s.name));
            const std::string_view shapeText = options.groupByShapes ? (shapes.isValid() ? trace.str(shapes) : "[]") : "";
            auto [t, added] = rowOfText.try_emplace(percentKey(name, shapeText), uint32_t(result.rows.size()));
            if (added) {
                Row r;
                r.name = std::string(name);
                r.shapes = std::string(shapeText);
                r.runtime = index.role(SliceId(id)) == LaunchIndex::Role::Runtime;
                r.cpuMin = s.duration;
                r.cpuMax = s.duration;
                result.rows.push_back(std::move(r));
            }
            it = rowOfKey.emplace(key, t->second).first;
        }
        Row &r = result.rows[it->second];
        ++r.calls;
        r.cpuTotal += s.duration;
        r.cpuSelf += s.duration - childTime[id];
        r.cpuMin = std::min(r.cpuMin, s.duration);
        r.cpuMax = std::max(r.cpuMax, s.duration);
        r.deviceSelf += deviceSelf[id];
        r.deviceTotal += deviceTotal[id];
        r.occurrences.push_back(id);
        if (const auto d = side.find(id); d != side.end()) {
            const DeviceSide &x = d->second;
            addTo(r.dmaBytesSelf, x.neffSelf, x.dmaSelf);
            addTo(r.dmaBytesTotal, x.neffTotal, x.dmaTotal);
            addTo(r.deviceFlopsSelf, x.flopsSelf, x.flopSelf);
            addTo(r.deviceFlopsTotal, x.flopsTotal, x.flopTotal);
            mfuFlops.resize(result.rows.size(), 0.0);
            mfuCapacity.resize(result.rows.size(), 0.0);
            mfuFlops[it->second] += x.mfuFlops;
            mfuCapacity[it->second] += x.mfuCapacity;
        }
    }
    for (size_t i = 0; i < mfuCapacity.size(); ++i)
        if (mfuCapacity[i] > 0)
            result.rows[i].mfuPercent = 100.0 * mfuFlops[i] / mfuCapacity[i];

    int64_t deviceSelfSum = 0;
    for (Row &r : result.rows) {
        result.deviceFlops = result.deviceFlops || r.deviceFlopsTotal.has_value();
        result.dmaBytes = result.dmaBytes || r.dmaBytesTotal.has_value();
        result.cpuSelfTotal += r.cpuSelf;
        deviceSelfSum += r.deviceSelf;
        sortByStart(trace, r.occurrences);
    }
    result.deviceTime = deviceSelfSum + result.unattributedDevice;
    for (Row &r : result.rows) {
        if (result.cpuSelfTotal > 0) {
            r.cpuSelfPercent = 100.0 * double(r.cpuSelf) / double(result.cpuSelfTotal);
            r.cpuTotalPercent = 100.0 * double(r.cpuTotal) / double(result.cpuSelfTotal);
        }
        if (result.deviceTime > 0) {
            r.deviceSelfPercent = 100.0 * double(r.deviceSelf) / double(result.deviceTime);
            r.deviceTotalPercent = 100.0 * double(r.deviceTotal) / double(result.deviceTime);
        }
    }
    sort(result.rows, options.sortBy);
    return result;
}

} // namespace lanescope
