#include "systemprofileimporter.h"

#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"
#include "model/saturating.h"
#include "model/tracebuilder.h"
#include "systemprofilereader.h"
#include "util/textutil.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <tuple>
#include <unordered_map>

namespace lanescope {

namespace {

enum class Lane : uint8_t { Framework, Runtime, Hardware, Other };

using text::lower;

int64_t trailingNumber(std::string_view s)
{
    size_t i = s.size();
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
        --i;
    if (i == s.size() || s.size() - i > 18)
        return -1;
    int64_t v = -1;
    std::from_chars(s.data() + i, s.data() + s.size(), v);
    return v;
}

struct SyncPoint
{
    int64_t device = 0, host = 0;
};

struct LaneKey
{
    uint32_t instance = UINT32_MAX, process = UINT32_MAX; // StringId values
    Lane lane = Lane::Other;
    int64_t index = -1; // core, thread, or type
    int64_t core = -1;  // Other: the core as well
    int64_t sub = -1;   // Runtime: the thread (lanes per thread); Hardware: the physical core
    uint32_t group = UINT32_MAX; // Other without a type: the group it is named after
    auto operator<=>(const LaneKey &) const = default;
};

// Sync points of a NeuronCore and physical core (-1: none given).
using SyncKey = std::pair<int64_t, int64_t>;

class Builder
{
public:
    explicit Builder(const LoadOptions &options, TraceBuilder b = {}) : m_options(options), m_b(std::move(b)) {}
    Trace read(InputStream &input);
    Trace build(SystemProfileData data);

private:
    Lane laneOf(const SystemProfileEvent &e, int64_t &core, int64_t &thread);
    TrackId trackFor(const SystemProfileEvent &e, Lane lane, int64_t core, int64_t thread);
    GroupId processGroup(StringId instance, StringId process, int64_t pid);
    void alignHardware();
    void addSlices();
    void linkParents();
    void linkGiven();
    void linkByTime();
    void addCounters();
    const std::vector<SyncPoint> *syncFor(int64_t core, int64_t deviceCore) const;

    const LoadOptions &m_options;
    TraceBuilder m_b;
    SystemProfileData m_data;
    std::vector<Lane> m_lane;           // by event
    std::vector<int64_t> m_core;        // by event
    std::vector<int64_t> m_thread;      // by event: thread_id, or the tid of a framework-<tid> group
    std::vector<uint32_t> m_slice;      // by event: provisional slice, UINT32_MAX when none
    std::vector<uint8_t> m_parentLinked; // by event
    std::map<std::pair<uint32_t, uint32_t>, GroupId> m_instances; // (instance, UINT32_MAX) or (instance, process)
    std::map<LaneKey, TrackId> m_tracks;
    std::map<SyncKey, std::vector<SyncPoint>> m_sync; // by (core, physical core); -1 = none
};

int64_t coreFrom(const TraceBuilder &b, const SystemProfileEvent &e)
{
    if (e.group.isValid())
        if (const int64_t c = SystemProfileImporter::coreOfGroup(b.str(e.group)); c >= 0)
            return c;
    return e.lnc;
}

Lane Builder::laneOf(const SystemProfileEvent &e, int64_t &core, int64_t &thread)
{
    core = coreFrom(m_b, e);
    thread = e.thread;
    if (e.lane == SystemProfileLane::Runtime)
        return Lane::Runtime;
    if (e.lane == SystemProfileLane::Hardware)
        return Lane::Hardware;
    if (e.lane == SystemProfileLane::Framework)
        return Lane::Framework;
    if (e.lane == SystemProfileLane::Other)
        return Lane::Other;
    const std::string_view group = e.group.isValid() ? m_b.str(e.group) : std::string_view();
    const bool frameworkGroup = group.starts_with("framework");
    if (frameworkGroup && group.size() > 10)
        if (const int64_t t = trailingNumber(group); t >= 0)
            thread = t;
    if (e.name.isValid() && SystemProfileImporter::isHardwareName(m_b.str(e.name)) &&
        !(e.hasType && (e.type == SystemProfileImporter::kRuntimeType || e.type == SystemProfileImporter::kFrameworkType)))
        return Lane::Hardware;
    if (e.hasType) {
        if (e.type == SystemProfileImporter::kRuntimeType)
            return Lane::Runtime;
        if (e.type == SystemProfileImporter::kFrameworkType)
            return Lane::Framework;
        return Lane::Other;
    }
    if (frameworkGroup)
        return Lane::Framework;
    if (group.starts_with("nrt"))
        return Lane::Runtime;
    return Lane::Other;
}

GroupId Builder::processGroup(StringId instance, StringId process, int64_t pid)
{
    const uint32_t inst = instance.value;
    auto it = m_instances.find({inst, UINT32_MAX});
    if (it == m_instances.end()) {
        const std::string name = instance.isValid() ? "instance " + std::string(m_b.str(instance)) : std::string("instance (no instance_id)");
        const GroupId g = m_b.addGroup(GroupKind::Instance, m_b.intern(name));
        m_b.group(g).sortIndex = int64_t(m_instances.size());
        it = m_instances.emplace(std::make_pair(inst, UINT32_MAX), g).first;
    }
    const GroupId parent = it->second;
    auto pt = m_instances.find({inst, process.value});
    if (pt != m_instances.end())
        return pt->second;
    const std::string name = process.isValid() ? "process " + std::string(m_b.str(process)) : std::string("process (no process_id)");
    const GroupId g = m_b.addGroup(GroupKind::Process, m_b.intern(name), parent, std::max<int64_t>(0, pid));
    m_b.group(g).sortIndex = int64_t(m_instances.size());
    m_instances.emplace(std::make_pair(inst, process.value), g);
    return g;
}

TrackId Builder::trackFor(const SystemProfileEvent &e, Lane lane, int64_t core, int64_t thread)
{
    LaneKey key{e.instance.value, e.process.value, lane, -1, -1};
    switch (lane) {
    case Lane::Framework: key.index = thread; break;
    case Lane::Runtime:
        key.index = core;
        if (m_data.runtimeLanesPerThread)
            key.sub = thread;
        break;
    case Lane::Hardware:
        key.index = core;
        key.sub = e.deviceCore;
        break;
    case Lane::Other:
        key.index = e.hasType ? e.type : INT64_MIN;
        key.core = core;
        if (!e.hasType)
            key.group = e.group.value;
        break;
    }
    if (auto it = m_tracks.find(key); it != m_tracks.end())
        return it->second;
    const std::string nc = core >= 0 ? "NC " + std::to_string(core) : std::string("no NC");
    std::string name;
    int64_t sort = 0, external = 0;
    switch (lane) {
    case Lane::Framework:
        name = thread >= 0 ? "framework " + std::to_string(thread) : std::string("framework");
        external = thread;
        break;
    case Lane::Runtime:
        name = "neuron_rt · " + nc;
        if (key.sub >= 0)
            name += " · thread " + std::to_string(key.sub);
        sort = saturatingAdd(1000, core); // core is any int64 of the file
        external = core;
        break;
    case Lane::Hardware:
        name = "hardware · " + nc;
        if (key.sub >= 0)
            name += " · core " + std::to_string(key.sub);
        sort = saturatingAdd(2000, core);
        external = core;
        break;
    case Lane::Other:
        name = (e.hasType ? "type " + std::to_string(e.type)
                          : e.group.isValid() ? std::string(m_b.str(e.group)) : std::string("untyped")) +
               " · " + nc;
        sort = saturatingAdd(3000, core);
        external = core;
        break;
    }
    const TrackId t = m_b.addTrack(processGroup(e.instance, e.process, e.pid), TrackKind::Slices, m_b.intern(name), external);
    m_b.track(t).sortIndex = sort;
    m_tracks.emplace(key, t);
    return t;
}

void Builder::alignHardware()
{
    const size_t n = m_data.events.size();
    const StringId syncName = m_b.intern(SystemProfileImporter::kSyncPointName);
    for (size_t i = 0; i < n; ++i) {
        const SystemProfileEvent &e = m_data.events[i];
        if (e.name != syncName || e.onHostClock) // a reader that placed its events itself (ntrace)
            continue;
        if (!e.hasSyncHost || !e.hasSyncDevice) {
            m_b.diagnostics().warnAtByte("timestamp_sync_point without sync_host_ts and sync_device_ts (not used for the clock)", e.offset);
            continue;
        }
        m_sync[{m_core[i], e.deviceCore}].push_back({e.syncDevice, e.syncHost});
    }
    for (auto &[core, points] : m_sync)
        std::stable_sort(points.begin(), points.end(), [](const SyncPoint &a, const SyncPoint &b) { return a.device < b.device; });
    std::map<SyncKey, uint64_t> kept, moved;
    for (size_t i = 0; i < n; ++i) {
        SystemProfileEvent &e = m_data.events[i];
        if (m_lane[i] != Lane::Hardware || !e.hasTs)
            continue;
        const SyncKey key{m_core[i], e.deviceCore};
        if (e.onHostClock)
            continue;
        if (e.name == syncName && e.hasSyncHost && e.hasSyncDevice) {
            e.ts = e.syncHost; // the sync point itself sits at its host time
            ++moved[key];
            continue;
        }
        const std::vector<SyncPoint> *points = syncFor(m_core[i], e.deviceCore);
        if (!points) {
            ++kept[key];
            continue;
        }
        const std::vector<SyncPoint> &p = *points;
        auto at = std::upper_bound(p.begin(), p.end(), e.ts, [](int64_t ts, const SyncPoint &s) { return ts < s.device; });
        const SyncPoint &s = at == p.begin() ? p.front() : *(at - 1);
        e.ts = saturatingAdd(s.host, saturatingSub(e.ts, s.device)); // hostile clocks saturate
        ++moved[key];
    }
    auto nc = [](const SyncKey &k) {
        std::string s = k.first >= 0 ? "NC " + std::to_string(k.first) : std::string("no NC");
        return k.second >= 0 ? s + " · core " + std::to_string(k.second) : s;
    };
    for (const auto &[key, count] : moved)
        m_b.metadata().entries.emplace_back("clock.hardware · " + nc(key),
                                            "host clock: " + std::to_string(count) + " events moved with " +
                                                std::to_string(syncFor(key.first, key.second)->size()) +
                                                " timestamp_sync_point events (host = sync_host_ts + device_ts - sync_device_ts)");
    for (const auto &[key, count] : kept) {
        m_b.metadata().entries.emplace_back("clock.hardware · " + nc(key),
                                            "device clock: no timestamp_sync_point for this NeuronCore, " + std::to_string(count) +
                                                " hardware events keep their device timestamps");
        m_b.diagnostics().warn("hardware events without a timestamp_sync_point for their NeuronCore (kept on the device clock)",
                               nc(key), count);
    }
}

// The sync points of a physical core, else of its NeuronCore, else those without a core.
const std::vector<SyncPoint> *Builder::syncFor(int64_t core, int64_t deviceCore) const
{
    for (const SyncKey &k : {SyncKey{core, deviceCore}, SyncKey{core, -1}, SyncKey{-1, -1}})
        if (auto it = m_sync.find(k); it != m_sync.end())
            return &it->second;
    return nullptr;
}

void Builder::addSlices()
{
    const StringId cats[] = {m_b.intern(SystemProfileImporter::kFrameworkCategory), m_b.intern(SystemProfileImporter::kRuntimeCategory),
                             m_b.intern(SystemProfileImporter::kHardwareCategory), m_b.intern(SystemProfileImporter::kOtherCategory)};
    const StringId unnamed = m_b.intern("(unnamed)");
    std::map<int64_t, uint64_t> otherTypes;
    for (size_t i = 0; i < m_data.events.size(); ++i) {
        const SystemProfileEvent &e = m_data.events[i];
        if (!e.hasTs)
            continue;
        const Lane lane = m_lane[i];
        const int64_t core = m_core[i], thread = m_thread[i];
        if (lane == Lane::Other)
            ++otherTypes[e.hasType ? e.type : INT64_MIN];
        const TrackId t = trackFor(e, lane, core, thread);
        const ArgSetId args = e.argCount ? m_b.addArgs(std::span<const Arg>(m_data.args).subspan(e.argBegin, e.argCount)) : ArgSetId();
        int64_t dur = e.hasDuration ? e.duration : 0;
        if (dur < 0) {
            m_b.diagnostics().warnAtByte("negative duration (taken as 0)", e.offset);
            dur = 0;
        }
        if (e.instant) {
            m_b.addInstant(t, e.ts, e.name.isValid() ? e.name : unnamed, cats[int(lane)], args);
            continue;
        }
        m_slice[i] = m_b.addSlice(t, e.ts, dur, e.name.isValid() ? e.name : unnamed, cats[int(lane)], args);
    }
    for (const auto &[type, count] : otherTypes)
        m_b.diagnostics().warn(type == INT64_MIN ? "events without a type outside the documented groups (kept on their own lane)"
                                                 : "events of an undocumented type (kept on their own lane 'type " + std::to_string(type) + "')",
                               {}, count);
}

void Builder::linkParents()
{
    std::unordered_map<uint64_t, uint32_t> byId; // id -> event
    byId.reserve(m_data.events.size());
    for (uint32_t i = 0; i < m_data.events.size(); ++i) {
        const SystemProfileEvent &e = m_data.events[i];
        if (!e.id.present || m_slice[i] == UINT32_MAX)
            continue;
        if (!byId.emplace(e.id.value, i).second)
            m_b.diagnostics().warnAtByte("ids that repeat (parent_id names the first event with the id)", e.offset);
    }
    const StringId cat = m_b.intern("nrt"), name = m_b.intern("parent_id");
    for (uint32_t i = 0; i < m_data.events.size(); ++i) {
        const SystemProfileEvent &e = m_data.events[i];
        if (!e.parent.present || m_slice[i] == UINT32_MAX)
            continue;
        auto it = byId.find(e.parent.value);
        if (it == byId.end()) {
            m_b.diagnostics().warnAtByte("parent_id that names no event (kept at the top of its lane)", e.offset);
            continue;
        }
        if (it->second == i)
            continue;
        const uint32_t ps = m_slice[it->second], cs = m_slice[i];
        if (m_b.provisionalSliceTrack(ps) == m_b.provisionalSliceTrack(cs)) {
            const Slice &p = m_b.provisionalSlice(ps), &c = m_b.provisionalSlice(cs);
            if (c.start < p.start || saturatingEnd(c.start, c.duration) > saturatingEnd(p.start, p.duration)) // not clamped yet
                m_b.diagnostics().warnAtByte("parent_id names an event on the same lane that does not contain it in time (nested by time)",
                                             e.offset);
            m_parentLinked[i] = 1;
            continue;
        }
        m_b.addFlow(FlowEnd::slice(ps), FlowEnd::slice(cs), cat, name, e.parent.value);
        m_parentLinked[i] = 1;
    }
}

// Links the reader found (Explorer's flow_id): flows; their targets take no link by time.
void Builder::linkGiven()
{
    for (const SystemProfileLink &l : m_data.links) {
        if (l.from >= m_slice.size() || l.to >= m_slice.size() || m_slice[l.from] == UINT32_MAX || m_slice[l.to] == UINT32_MAX)
            continue;
        m_b.addFlow(FlowEnd::slice(m_slice[l.from]), FlowEnd::slice(m_slice[l.to]), l.category, l.name, l.id);
        m_parentLinked[l.to] = 1;
    }
}

void Builder::linkByTime()
{
    // Framework slices and executions per (instance, process), for the time rules.
    using Proc = std::pair<uint32_t, uint32_t>;
    std::map<std::pair<Proc, int64_t>, std::vector<uint32_t>> framework; // (process, thread) -> events by start
    std::map<std::pair<Proc, int64_t>, std::vector<uint32_t>> execs; // (process, core) -> events by start
    const StringId execName = m_b.intern(SystemProfileImporter::kExecutionName);
    for (uint32_t i = 0; i < m_data.events.size(); ++i) {
        const SystemProfileEvent &e = m_data.events[i];
        if (m_slice[i] == UINT32_MAX)
            continue;
        const Proc p{e.instance.value, e.process.value};
        if (m_lane[i] == Lane::Framework)
            framework[{p, m_thread[i]}].push_back(i);
        else if (m_lane[i] == Lane::Hardware && e.name == execName && !m_parentLinked[i])
            execs[{p, m_core[i]}].push_back(i);
    }
    auto byStart = [this](uint32_t a, uint32_t b) { return m_data.events[a].ts < m_data.events[b].ts; };
    for (auto &[k, list] : execs)
        std::stable_sort(list.begin(), list.end(), byStart);
    std::map<std::pair<Proc, int64_t>, int64_t> longest;
    for (auto &[k, list] : framework) {
        std::stable_sort(list.begin(), list.end(), byStart);
        for (uint32_t i : list)
            longest[k] = std::max(longest[k], m_data.events[i].duration);
    }
    // The deepest framework event containing [ts, end]: the latest-starting one (nesting by time).
    auto enclosing = [&](const std::pair<Proc, int64_t> &key, int64_t ts, int64_t end) -> uint32_t {
        auto it = framework.find(key);
        if (it == framework.end())
            return UINT32_MAX;
        const std::vector<uint32_t> &list = it->second;
        auto hi = std::upper_bound(list.begin(), list.end(), ts, [this](int64_t t, uint32_t k) { return t < m_data.events[k].ts; });
        const int64_t reach = longest[key];
        for (auto p = hi; p != list.begin();) {
            --p;
            const SystemProfileEvent &f = m_data.events[*p];
            if (f.ts < saturatingSub(ts, reach))
                break;
            if (saturatingEnd(f.ts, f.duration) >= end)
                return *p;
        }
        return UINT32_MAX;
    };
    const StringId nrt = m_b.intern("nrt"), callName = m_b.intern("runtime call");
    const StringId exec = m_b.intern("exec"), execFlow = m_b.intern("hardware execution");
    for (uint32_t i = 0; i < m_data.events.size(); ++i) {
        const SystemProfileEvent &e = m_data.events[i];
        if (m_lane[i] != Lane::Runtime || m_slice[i] == UINT32_MAX)
            continue;
        const Proc p{e.instance.value, e.process.value};
        const int64_t end = saturatingEnd(e.ts, e.hasDuration ? e.duration : 0);
        if (!m_parentLinked[i] && e.thread >= 0)
            if (const uint32_t f = enclosing({p, e.thread}, e.ts, end); f != UINT32_MAX)
                m_b.addFlow(FlowEnd::slice(m_slice[f]), FlowEnd::slice(m_slice[i]), nrt, callName, 0);
        const std::string name = lower(m_b.str(e.name));
        if (!name.starts_with("nrt") || name.find("exec") == std::string::npos)
            continue;
        auto ex = execs.find({p, m_core[i]});
        if (ex == execs.end())
            continue;
        auto first = std::lower_bound(ex->second.begin(), ex->second.end(), e.ts,
                                      [this](uint32_t k, int64_t ts) { return m_data.events[k].ts < ts; });
        for (; first != ex->second.end() && m_data.events[*first].ts <= end; ++first)
            m_b.addFlow(FlowEnd::slice(m_slice[i]), FlowEnd::slice(m_slice[*first]), exec, execFlow, 0);
    }
}

void Builder::addCounters()
{
    std::map<std::tuple<uint32_t, uint32_t, int>, TrackId> tracks;
    auto counter = [&](const SystemProfileSample &s, int which, const std::string &name, const char *unit) {
        auto it = tracks.find({s.instance.value, s.process.value, which});
        if (it == tracks.end()) {
            const TrackId t = m_b.addTrack(processGroup(s.instance, s.process, -1), TrackKind::Counter, m_b.intern(name), which);
            m_b.track(t).unit = m_b.intern(unit);
            m_b.track(t).sortIndex = 4000 + which;
            it = tracks.emplace(std::make_tuple(s.instance.value, s.process.value, which), t).first;
        }
        return it->second;
    };
    for (const SystemProfileSample &s : m_data.memUsage) {
        if (s.hasValue)
            m_b.addCounterSample(counter(s, 0, "mem_usage (bytes)", "bytes"), s.ts, s.value);
        if (s.hasPercent)
            m_b.addCounterSample(counter(s, 1, "mem_usage (%)", "%"), s.ts, s.percent);
    }
    for (const SystemProfileSample &s : m_data.cpuUtil)
        if (s.hasValue)
            m_b.addCounterSample(counter(s, 2 + int(std::clamp<int64_t>(s.cpu, -1, 100000)) + 1,
                                         s.cpu >= 0 ? "cpu_util · CPU " + std::to_string(s.cpu) : std::string("cpu_util"), "%"),
                                 s.ts, s.value);
    for (const SystemProfileCounter &c : m_data.counters) {
        const TrackId t = m_b.addTrack(processGroup(c.instance, c.process, -1), TrackKind::Counter, m_b.intern(c.name));
        m_b.track(t).unit = m_b.intern(c.unit);
        m_b.track(t).sortIndex = 5000;
        for (const auto &[ts, v] : c.samples)
            m_b.addCounterSample(t, ts, v);
    }
}

Trace Builder::read(InputStream &input)
{
    m_b.metadata().format = "system-profile-json";
    m_b.metadata().sourcePath = input.name();
    return build(SystemProfileReader::read(input, m_b, m_options));
}

Trace Builder::build(SystemProfileData data)
{
    m_data = std::move(data);
    const size_t n = m_data.events.size();
    m_lane.resize(n);
    m_core.resize(n);
    m_thread.resize(n);
    m_slice.assign(n, UINT32_MAX);
    m_parentLinked.assign(n, 0);
    uint64_t noTime = 0;
    ImportStats &st = m_b.stats();
    static const char *kLaneNames[] = {"framework", "neuron_rt", "neuron_hw", "system"};
    for (size_t i = 0; i < n; ++i) {
        int64_t core = -1, thread = -1;
        m_lane[i] = laneOf(m_data.events[i], core, thread);
        m_core[i] = core;
        m_thread[i] = thread;
        ++st.categories[kLaneNames[int(m_lane[i])]];
        if (!m_data.events[i].hasTs)
            ++noTime;
    }
    if (noTime)
        m_b.diagnostics().warn("trace_events without an integer timestamp skipped", {}, noTime);
    if (n == 0 && m_data.memUsage.empty() && m_data.cpuUtil.empty() && m_data.counters.empty())
        m_b.diagnostics().warn("trace_events is empty: the system profile holds no events");
    alignHardware();
    m_b.reserveSlices(n);
    addSlices();
    linkParents();
    linkGiven();
    linkByTime();
    addCounters();
    st.eventsRead = n + m_data.memUsage.size() + m_data.cpuUtil.size();
    st.bytesRead = m_data.bytes;
    m_options.report(950);
    m_data = {};
    Trace t = m_b.finish();
    m_options.report(1000);
    return t;
}

std::vector<SystemProfileImporter::Event> collect(const Trace &t, std::string_view category, std::string_view name)
{
    std::vector<SystemProfileImporter::Event> out;
    const StringId cat = t.strings().find(category);
    if (!cat.isValid())
        return out;
    const StringId nameId = name.empty() ? StringId() : t.strings().find(name);
    if (!name.empty() && !nameId.isValid())
        return out;
    const StringId threadKey = t.strings().find("thread_id");
    const StringId deviceCoreKey = t.strings().find("device_core_idx");
    std::vector<uint8_t> linked(t.allSlices().size(), 0);
    for (const Flow &f : t.flows())
        if (f.to.isValid() && f.to.value < linked.size())
            linked[f.to.value] = 1;
    for (uint32_t ti = 0; ti < t.tracks().size(); ++ti) {
        const Track &tr = t.tracks()[ti];
        int64_t pid = -1;
        for (GroupId g = tr.group; g.isValid(); g = t.group(g).parent)
            if (t.group(g).kind == GroupKind::Process) {
                pid = t.group(g).externalId;
                break;
            }
        const auto slices = t.slices(TrackId(ti));
        for (uint32_t i = 0; i < slices.size(); ++i) {
            const Slice &s = slices[i];
            if (s.category != cat || (nameId.isValid() && s.name != nameId))
                continue;
            SystemProfileImporter::Event e;
            e.slice = tr.sliceBegin + i;
            e.track = TrackId(ti);
            e.start = s.start;
            e.end = s.end();
            e.core = tr.externalId;
            e.pid = pid;
            e.name = std::string(t.str(s.name));
            e.text = lower(e.name);
            e.hasParentLink = linked[e.slice];
            for (const Arg &a : t.args().args(s.args)) {
                if (a.key == threadKey && a.type == ArgType::Int)
                    e.thread = a.value.i;
                if (a.key == deviceCoreKey && a.type == ArgType::Int)
                    e.deviceCore = a.value.i;
                e.text += ' ';
                if (a.type == ArgType::String)
                    e.text += lower(t.str(a.stringValue()));
                else if (a.type == ArgType::Int)
                    e.text += std::to_string(a.value.i);
                else if (a.type == ArgType::UInt)
                    e.text += std::to_string(a.value.u);
            }
            out.push_back(std::move(e));
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.start < b.start; });
    return out;
}

} // namespace

Trace SystemProfileImporter::import(InputBuffer &input, const std::string &name, const LoadOptions &options)
{
    InputStream stream(input.view(), name, options);
    return importStream(stream, options);
}

Trace SystemProfileImporter::importStream(InputStream &input, const LoadOptions &options)
{
    return Builder(options).read(input);
}

Trace SystemProfileImporter::build(SystemProfileData data, TraceBuilder b, const LoadOptions &options)
{
    return Builder(options, std::move(b)).build(std::move(data));
}

bool SystemProfileImporter::isHardwareName(std::string_view name)
{
    static constexpr std::string_view kNames[] = {"nc_exec_running", "cc_running",       "cc_exec_barrier",     "numerical_err",
                                                  "nrt_model_switch", "timestamp_sync_point", "hw_notify"};
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

int64_t SystemProfileImporter::coreOfGroup(std::string_view group)
{
    const size_t at = group.rfind("nc-");
    if (at == std::string_view::npos)
        return -1;
    const std::string_view digits = group.substr(at + 3);
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos)
        return -1;
    return trailingNumber(digits);
}

std::vector<SystemProfileImporter::Event> SystemProfileImporter::executions(const Trace &t)
{
    return collect(t, kHardwareCategory, kExecutionName);
}

std::vector<SystemProfileImporter::Event> SystemProfileImporter::runtimeCalls(const Trace &t)
{
    return collect(t, kRuntimeCategory, {});
}

} // namespace lanescope
