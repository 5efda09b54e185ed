#include "ntraceconverter.h"

#include "io/input/importerror.h"
#include "model/saturating.h"
#include "ntracecalls.h"
#include "ntracememory.h"
#include "ntracesync.h"
#include "util/textutil.h"

#include <algorithm>
#include <charconv>
#include <deque>
#include <map>

namespace lanescope {

namespace {

using CoreKey = std::pair<int64_t, int64_t>; // (nc, physical core)

std::string coreName(const CoreKey &k)
{
    return "NC " + std::to_string(k.first) + (k.second >= 0 ? " · core " + std::to_string(k.second) : std::string());
}

class Converter
{
public:
    Converter(const NtraceSession &s, TraceBuilder &b, const LoadOptions &o)
        : m_s(s), m_all(s.records), m_b(b), m_options(o), m_file(s.traceFile)
    {
    }
    SystemProfileData run();

private:
    const std::string_view *attr(uint32_t record, std::string_view key) const
    {
        return record == NtraceCall::kNone ? nullptr : m_all.find(m_all.records[record], key);
    }
    bool intAttr(uint32_t record, std::string_view key, int64_t &out) const
    {
        const std::string_view *v = attr(record, key);
        return v && text::parseInt(*v, out);
    }
    int64_t ncOf(const NtraceCall &c) const
    {
        int64_t nc = -1;
        if (!intAttr(c.begin, "nc_idx", nc))
            intAttr(c.end, "nc_idx", nc);
        return nc;
    }
    void nameCalls();
    void findModels();
    void findSyncPoints();
    Arg typed(std::string_view key, std::string_view value);
    void addArgs(SystemProfileEvent &e, const NtraceCall &c, uint32_t modelRecord);
    uint32_t modelFor(const NtraceCall &device, int64_t nc) const;
    void addEvents();
    void addCounters();
    void describe();

    const NtraceSession &m_s;
    const NtraceRecords &m_all;
    TraceBuilder &m_b;
    const LoadOptions &m_options;
    const std::string &m_file;
    SystemProfileData m_data;
    StringId m_instance, m_process;
    std::vector<NtraceCall> m_calls;
    std::vector<std::string_view> m_names; // per call
    std::deque<std::string> m_unknownNames;
    std::map<std::pair<int64_t, int64_t>, uint32_t> m_modelOf; // (nc, exec_id) -> a record carrying model_id
    std::map<int64_t, std::vector<size_t>> m_executes;          // nc -> nrt_execute calls carrying model_id, by begin
    std::vector<NtraceSyncPoint> m_sync;
    std::map<uint32_t, size_t> m_syncOfRecord; // sync record -> m_sync index
    std::map<CoreKey, std::pair<uint64_t, uint64_t>> m_moved; // device records moved, of them reproducing field 2
    std::map<CoreKey, uint64_t> m_unsynced;
    std::map<std::string, uint64_t> m_typeCounts;
};

void Converter::nameCalls()
{
    const NtraceEnumTable *types = m_s.info.table(NtraceInfo::kTypeTable);
    std::map<uint64_t, std::string_view> unknown;
    m_names.reserve(m_calls.size());
    for (const NtraceCall &c : m_calls) {
        const NtraceRecord &r = m_all.records[c.begin];
        std::string_view name = m_s.info.name(NtraceInfo::kTypeTable, r.type);
        if (name.empty()) {
            auto it = unknown.find(r.type);
            if (it == unknown.end()) {
                m_unknownNames.push_back("type " + std::to_string(r.type));
                it = unknown.emplace(r.type, m_unknownNames.back()).first;
            }
            name = it->second;
            m_b.diagnostics().warn(m_file + ": records of a type no entry of trace_info's ntrace_inspect_type names (named 'type N')",
                                   "byte " + std::to_string(r.offset) + ": type " + std::to_string(r.type) + " (the table has " +
                                       std::to_string(types ? types->names.size() : 0) + " entries)");
        }
        m_names.push_back(name);
        ++m_typeCounts[std::string(name)];
    }
}

void Converter::findModels()
{
    for (size_t i = 0; i < m_calls.size(); ++i)
        if (!m_calls[i].single && m_calls[i].end != NtraceCall::kNone && m_names[i] == "nrt_execute" && attr(m_calls[i].begin, "model_id"))
            m_executes[ncOf(m_calls[i])].push_back(i); // calls are in begin order
    for (uint32_t i = 0; i < m_all.records.size(); ++i) {
        int64_t nc = -1, exec = -1;
        if (intAttr(i, "exec_id", exec) && attr(i, "model_id") && intAttr(i, "nc_idx", nc))
            m_modelOf.emplace(std::make_pair(nc, exec), i);
    }
}

void Converter::findSyncPoints()
{
    std::vector<NtraceDeviceRecord> device;
    for (size_t i = 0; i < m_calls.size(); ++i) {
        const NtraceCall &c = m_calls[i];
        int64_t t = 0;
        if (c.single) {
            int64_t cpu = 0;
            if (intAttr(c.begin, NtraceConverter::kSyncAttribute, cpu) && intAttr(c.begin, NtraceConverter::kDeviceTimeAttribute, t)) {
                NtraceSyncPoint p;
                p.record = c.begin;
                p.nc = ncOf(c);
                intAttr(c.begin, "exec_id", p.execId);
                p.cpu = cpu;
                p.device = t;
                m_syncOfRecord.emplace(c.begin, m_sync.size());
                m_sync.push_back(p);
            }
            continue;
        }
        if (!intAttr(c.begin, NtraceConverter::kDeviceTimeAttribute, t))
            continue;
        NtraceDeviceRecord r;
        r.nc = ncOf(c);
        intAttr(c.begin, "exec_id", r.execId);
        intAttr(c.begin, NtraceConverter::kDeviceCoreAttribute, r.deviceCore);
        r.host = m_all.records[c.begin].ts;
        r.device = t;
        device.push_back(r);
        if (intAttr(c.end, NtraceConverter::kDeviceTimeAttribute, t)) {
            r.host = m_all.records[c.end].ts;
            r.device = t;
            device.push_back(r);
        }
    }
    NtraceSync::assignCores(m_sync, device);
}

// Decimal integers as numbers (uint64 past 2^63), everything else (0x-hex addresses, names) as text.
Arg Converter::typed(std::string_view key, std::string_view value)
{
    const StringId k = m_b.intern(key);
    int64_t i = 0;
    if (text::parseInt(value, i))
        return Arg::makeInt(k, i);
    uint64_t u = 0;
    if (auto r = std::from_chars(value.data(), value.data() + value.size(), u); !value.empty() && r.ec == std::errc() &&
                                                                                r.ptr == value.data() + value.size())
        return Arg::makeUInt(k, u);
    return Arg::makeString(k, m_b.intern(value));
}

void Converter::addArgs(SystemProfileEvent &e, const NtraceCall &c, uint32_t modelRecord)
{
    std::vector<Arg> &args = m_data.args;
    e.argBegin = uint32_t(args.size());
    args.push_back(Arg::makeInt(m_b.intern("thread_id"), m_all.records[c.begin].thread));
    auto model = [&](std::string_view value) {
        uint64_t id = 0;
        auto r = std::from_chars(value.data(), value.data() + value.size(), id);
        if (r.ec != std::errc() || r.ptr != value.data() + value.size())
            return;
        const std::string_view name = m_s.info.name(NtraceInfo::kInternedTable, id);
        if (!name.empty())
            args.push_back(Arg::makeString(m_b.intern("model_name"), m_b.intern(name)));
    };
    const auto begin = m_all.attrs(m_all.records[c.begin]);
    for (const NtraceAttribute &a : begin) {
        args.push_back(typed(a.key, a.value));
        if (a.key == "model_id")
            model(a.value);
    }
    if (c.end != NtraceCall::kNone)
        for (const NtraceAttribute &a : m_all.attrs(m_all.records[c.end])) {
            const NtraceAttribute *same = nullptr;
            for (const NtraceAttribute &b : begin)
                if (b.key == a.key)
                    same = &b;
            if (same && same->value == a.value)
                continue;
            args.push_back(typed(same ? "end_" + std::string(a.key) : std::string(a.key), a.value));
            if (!same && a.key == "model_id")
                model(a.value);
        }
    if (modelRecord != NtraceCall::kNone)
        if (const std::string_view *m = attr(modelRecord, "model_id")) {
            args.push_back(typed("model_id", *m));
            model(*m);
        }
    if (!c.single && c.end == NtraceCall::kNone)
        args.push_back(Arg::makeBool(m_b.intern("end_missing"), true));
    e.argCount = uint32_t(args.size() - e.argBegin);
}

// The record that names the model of a device call without a model_id: one of its NeuronCore and
// exec_id that carries one (nc_model_switch, kbl_exec_*), else the nrt_execute of its NeuronCore running
// when it began (host clock).
uint32_t Converter::modelFor(const NtraceCall &device, int64_t nc) const
{
    if (attr(device.begin, "model_id"))
        return NtraceCall::kNone;
    int64_t exec = -1;
    if (intAttr(device.begin, "exec_id", exec))
        if (auto m = m_modelOf.find({nc, exec}); m != m_modelOf.end())
            return m->second;
    auto it = m_executes.find(nc);
    if (it == m_executes.end())
        return NtraceCall::kNone;
    const int64_t at = m_all.records[device.begin].ts;
    const std::vector<size_t> &list = it->second;
    auto hi = std::upper_bound(list.begin(), list.end(), at, [&](int64_t ts, size_t k) { return ts < m_all.records[m_calls[k].begin].ts; });
    for (auto p = hi; p != list.begin();) {
        --p;
        if (m_all.records[m_calls[*p].end].ts >= at)
            return m_calls[*p].begin;
        if (hi - p > 64) // executions of one core do not overlap much: a few back is far enough
            break;
    }
    return NtraceCall::kNone;
}

void Converter::addEvents()
{
    const NtraceClock clock(m_sync);
    m_data.events.reserve(m_calls.size());
    for (size_t i = 0; i < m_calls.size(); ++i) {
        if ((i & 0xffff) == 0xffff && m_options.cancelled())
            throw LoadCancelled();
        const NtraceCall &c = m_calls[i];
        const NtraceRecord &b = m_all.records[c.begin];
        const NtraceRecord *e = c.end == NtraceCall::kNone ? nullptr : &m_all.records[c.end];
        SystemProfileEvent ev;
        ev.offset = b.offset;
        ev.name = m_b.intern(m_names[i]);
        ev.instance = m_instance;
        ev.process = m_process;
        ev.pid = m_s.info.hasPid ? int64_t(m_s.info.pid & uint64_t(INT64_MAX)) : -1;
        ev.thread = b.thread;
        ev.lnc = ncOf(c);
        ev.hasTs = ev.hasDuration = true;
        ev.ts = b.ts;
        ev.duration = e ? saturatingSub(e->ts, b.ts) : 0;
        ev.lane = SystemProfileLane::Runtime;
        uint32_t modelRecord = NtraceCall::kNone;
        int64_t deviceBegin = 0;
        if (auto sp = m_syncOfRecord.find(c.begin); c.single && sp != m_syncOfRecord.end()) {
            const NtraceSyncPoint &p = m_sync[sp->second];
            ev.lane = SystemProfileLane::Hardware;
            ev.deviceCore = p.deviceCore;
            ev.onHostClock = true;
            ev.ts = p.cpu; // where host and device clocks meet
        } else if (!c.single && intAttr(c.begin, NtraceConverter::kDeviceTimeAttribute, deviceBegin)) {
            ev.lane = SystemProfileLane::Hardware;
            ev.onHostClock = true;
            intAttr(c.begin, NtraceConverter::kDeviceCoreAttribute, ev.deviceCore);
            modelRecord = modelFor(c, ev.lnc);
            const CoreKey key{ev.lnc, ev.deviceCore};
            if (const std::optional<int64_t> host = clock.toHost(ev.lnc, ev.deviceCore, deviceBegin)) {
                int64_t deviceEnd = 0;
                ev.ts = *host;
                if (e && intAttr(c.end, NtraceConverter::kDeviceTimeAttribute, deviceEnd))
                    ev.duration = saturatingSub(deviceEnd, deviceBegin);
                auto &[moved, exact] = m_moved[key];
                ++moved;
                exact += *host == b.ts;
            } else {
                ++m_unsynced[key]; // keeps the host timestamp the runtime wrote
            }
        }
        ev.instant = c.single;
        addArgs(ev, c, modelRecord);
        m_data.events.push_back(ev);
    }
    for (const auto &[key, count] : m_unsynced)
        m_b.diagnostics().warn(m_file + ": device records without a timestamp_sync_point for their physical core (placed at the "
                                        "host timestamp the runtime wrote, field 2)",
                               coreName(key), count);
}

void Converter::addCounters()
{
    for (const NtraceCpuSample &c : m_s.cpu) {
        SystemProfileSample s;
        s.ts = c.ts;
        s.instance = m_instance;
        s.process = m_process;
        s.cpu = c.cpu;
        s.value = c.percent;
        s.hasValue = true;
        m_data.cpuUtil.push_back(s);
    }
    for (const NtraceMemorySample &m : m_s.hostMemory) {
        SystemProfileSample s;
        s.ts = m.ts;
        s.instance = m_instance;
        s.process = m_process;
        s.value = double(m.bytes);
        s.hasValue = true;
        m_data.memUsage.push_back(s);
    }
    const NtraceMemoryCounters memory = NtraceMemory::build(m_all, m_calls, m_names, m_file, m_b.diagnostics());
    for (const NtraceMemorySeries &s : memory.series)
        m_data.counters.push_back({m_instance, m_process, "device memory · NC " + std::to_string(s.nc) + " · " + s.usage, "bytes",
                                   s.samples});
    auto &md = m_b.metadata().entries;
    md.emplace_back("ntrace.device_memory", std::to_string(memory.allocations) + " nrt_dma_mem_alloc, " +
                                                std::to_string(memory.deallocations) + " nrt_dma_mem_dealloc (" +
                                                std::to_string(memory.paired) + " paired with their allocation by (nc_idx, "
                                                "physical_address)), " + std::to_string(memory.series.size()) +
                                                " counters of net traced bytes per NeuronCore and usage type");
}

void Converter::describe()
{
    auto &md = m_b.metadata().entries;
    const NtraceInfo &info = m_s.info;
    md.emplace_back("session.instance_id", info.instanceId);
    md.emplace_back("session.instance_type", info.instanceType);
    md.emplace_back("session.pid", info.hasPid ? std::to_string(info.pid) : std::string());
    md.emplace_back("session.host", info.hostName + (info.hostIp.empty() ? std::string() : " (" + info.hostIp + ")"));
    md.emplace_back("session.cpu", std::to_string(info.cpuCount) + " x " + info.cpuModel);
    md.emplace_back("session.host_memory_bytes", std::to_string(info.hostMemoryBytes));
    if (info.hasSession()) {
        md.emplace_back("session.start_ns", std::to_string(info.sessionStart));
        md.emplace_back("session.end_ns", std::to_string(info.sessionEnd));
    }
    for (const NtraceEnumTable &t : info.tables)
        md.emplace_back("session.table." + t.name, std::to_string(t.names.size()) + " entries");
    if (const NtraceEnumTable *models = info.table(NtraceInfo::kInternedTable))
        for (const auto &[id, name] : models->names)
            if (id != 0)
                md.emplace_back("model." + std::to_string(id), name);
    uint64_t pairs = 0, singles = 0, open = 0;
    for (const NtraceCall &c : m_calls) {
        singles += c.single;
        pairs += !c.single && c.end != NtraceCall::kNone;
        open += !c.single && c.end == NtraceCall::kNone;
    }
    md.emplace_back("ntrace.records", std::to_string(m_all.records.size()) + " records: " + std::to_string(pairs) +
                                          " begin/end pairs, " + std::to_string(singles) + " single, " + std::to_string(open) +
                                          " begins without an end");
    for (const auto &[name, count] : m_typeCounts)
        md.emplace_back("ntrace.type." + name, std::to_string(count));
    for (size_t i = 0; i < m_sync.size(); ++i) {
        const NtraceSyncPoint &p = m_sync[i];
        md.emplace_back("ntrace.sync_point." + std::to_string(i + 1),
                        "NC " + std::to_string(p.nc) + " exec_id " + std::to_string(p.execId) + ": cpu_timestamp_ns " +
                            std::to_string(p.cpu) + ", nc_timestamp_ns " + std::to_string(p.device) +
                            (p.deviceCore >= 0 ? " -> core " + std::to_string(p.deviceCore) : std::string(" -> no core")) + " (" +
                            p.rule + ")");
    }
    for (const auto &[key, counts] : m_moved)
        md.emplace_back("clock.ntrace · " + coreName(key),
                        std::to_string(counts.first) + " device records moved to the host clock by their sync point (host = "
                        "cpu_timestamp_ns + nc_timestamp_ns - sync nc_timestamp_ns); " + std::to_string(counts.second) +
                            " of them land exactly on the host timestamp the runtime wrote");
}

SystemProfileData Converter::run()
{
    const NtraceInfo &info = m_s.info;
    m_instance = m_b.intern(info.instanceId.empty() ? std::string("(no instance id)") : info.instanceId);
    m_process = m_b.intern(info.hasPid ? std::to_string(info.pid) : std::string("(no pid)"));
    m_calls = NtraceCalls::pair(m_all, m_file, m_b.diagnostics());
    nameCalls();
    findModels();
    findSyncPoints();
    addEvents();
    addCounters();
    describe();
    m_data.runtimeLanesPerThread = true;
    m_data.sawEvents = true;
    m_data.bytes = m_all.bytes;
    return std::move(m_data);
}

} // namespace

SystemProfileData NtraceConverter::convert(const NtraceSession &session, TraceBuilder &b, const LoadOptions &options)
{
    return Converter(session, b, options).run();
}

} // namespace lanescope
