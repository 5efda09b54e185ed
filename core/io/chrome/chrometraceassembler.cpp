#include "chrometraceassembler.h"

#include "model/argint.h"
#include "util/textutil.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace lanescope {

ChromeTraceAssembler::ChromeTraceAssembler(TraceBuilder &builder) : m_b(builder)
{
    m_kName = m_b.intern("name");
    m_kLabels = m_b.intern("labels");
    m_kSortIndex = m_b.intern("sort_index");
    m_kProcessName = m_b.intern("process_name");
    m_kProcessLabels = m_b.intern("process_labels");
    m_kProcessSortIndex = m_b.intern("process_sort_index");
    m_kThreadName = m_b.intern("thread_name");
    m_kThreadSortIndex = m_b.intern("thread_sort_index");
}

std::string ChromeTraceAssembler::entityText(const ChromeEntityKey &k) const
{
    return k.text.isValid() ? std::string(m_b.str(k.text)) : std::to_string(k.number);
}

GroupId ChromeTraceAssembler::processGroup(const ChromeEntityKey &pid)
{
    auto it = m_processes.find(pid);
    if (it != m_processes.end())
        return it->second;
    const std::string label = pid.text.isValid() ? entityText(pid) : "Process " + entityText(pid);
    GroupId g = m_b.addGroup(GroupKind::Process, m_b.intern(label), {}, pid.number);
    m_processes.emplace(pid, g);
    return g;
}

TrackId ChromeTraceAssembler::threadTrack(const ChromeEntityKey &pid, const ChromeEntityKey &tid)
{
    if (m_lastTrack.isValid() && pid == m_lastPid && tid == m_lastTid)
        return m_lastTrack;
    const GroupId g = processGroup(pid);
    const auto key = std::make_pair(g.value, tid);
    auto it = m_threads.find(key);
    TrackId t;
    if (it != m_threads.end()) {
        t = it->second;
    } else {
        const std::string label = tid.text.isValid() ? entityText(tid) : "Thread " + entityText(tid);
        t = m_b.addTrack(g, TrackKind::Slices, m_b.intern(label), tid.number);
        m_threads.emplace(key, t);
    }
    m_lastPid = pid;
    m_lastTid = tid;
    m_lastTrack = t;
    return t;
}

TrackId ChromeTraceAssembler::namedTrack(GroupId group, TrackKind kind, StringId name)
{
    const uint64_t key = (uint64_t(group.value) << 34) ^ (uint64_t(kind) << 32) ^ name.value;
    auto it = m_named.find(key);
    if (it != m_named.end())
        return it->second;
    TrackId t = m_b.addTrack(group, kind, name, 0);
    // async and counter tracks sort after the threads of their process
    m_b.track(t).sortIndex = kind == TrackKind::Counter ? (int64_t(1) << 40) : (int64_t(1) << 39);
    m_named.emplace(key, t);
    return t;
}

GroupId ChromeTraceAssembler::globalGroup()
{
    if (!m_global.isValid()) {
        m_global = m_b.addGroup(GroupKind::Global, m_b.intern("Global"), {}, 0);
        m_b.group(m_global).sortIndex = std::numeric_limits<int64_t>::min();
    }
    return m_global;
}

const Arg *ChromeTraceAssembler::findArg(std::span<const Arg> args, StringId key)
{
    for (const Arg &a : args)
        if (a.key == key)
            return &a;
    return nullptr;
}

// A counter value written as a string ("12.5"): the whole text a finite number, as Perfetto reads it.
static bool numberFromText(std::string_view s, double &v)
{
    s = text::trim(s);
    const char *end = s.data() + s.size();
    const auto r = std::from_chars(s.data(), end, v);
    return !s.empty() && r.ec == std::errc() && r.ptr == end && std::isfinite(v);
}

bool ChromeTraceAssembler::argAsInt(const Arg *a, int64_t &v) const
{
    const std::optional<int64_t> i = a ? argInt(*a, [this](StringId id) { return m_b.str(id); }) : std::nullopt;
    if (i)
        v = *i;
    return i.has_value();
}

void ChromeTraceAssembler::addMetadata(const ChromeEvent &e, std::span<const Arg> args)
{
    const Arg *nameArg = findArg(args, m_kName);
    const StringId value = nameArg && nameArg->type == ArgType::String ? nameArg->stringValue() : StringId();
    int64_t sortIndex = 0;
    if (e.name == m_kProcessName) {
        if (value.isValid())
            m_b.group(processGroup(e.pid)).name = value;
    } else if (e.name == m_kProcessLabels) {
        const Arg *labels = findArg(args, m_kLabels);
        if (labels && labels->type == ArgType::String)
            m_b.group(processGroup(e.pid)).labels = labels->stringValue();
    } else if (e.name == m_kProcessSortIndex) {
        if (argAsInt(findArg(args, m_kSortIndex), sortIndex))
            m_b.group(processGroup(e.pid)).sortIndex = sortIndex;
    } else if (e.name == m_kThreadName) {
        if (value.isValid())
            m_b.track(threadTrack(e.pid, e.tid)).name = value;
    } else if (e.name == m_kThreadSortIndex) {
        if (argAsInt(findArg(args, m_kSortIndex), sortIndex))
            m_b.track(threadTrack(e.pid, e.tid)).sortIndex = sortIndex;
    } else {
        m_b.diagnostics().warnAtByte("metadata (M) events of other kinds kept only in the phase counts", e.offset);
    }
}

void ChromeTraceAssembler::addCounter(const ChromeEvent &e, std::span<const Arg> args)
{
    const GroupId g = processGroup(e.pid);
    std::string base(m_b.str(e.name));
    if (e.hasId)
        base += " " + std::to_string(e.id);
    for (const Arg &a : args) {
        double v = 0;
        switch (a.type) {
        case ArgType::Int: v = double(a.value.i); break;
        case ArgType::UInt: v = double(a.value.u); break;
        case ArgType::Double: v = a.value.d; break;
        case ArgType::Bool: v = double(a.value.i); break;
        case ArgType::String:
            if (numberFromText(m_b.str(a.stringValue()), v)) {
                m_b.diagnostics().noteAtByte(kCounterStrings, e.offset);
                break;
            }
            m_b.diagnostics().warnAtByte("counter (C) values that are not numbers skipped", e.offset);
            continue;
        default:
            m_b.diagnostics().warnAtByte("counter (C) values that are not numbers skipped", e.offset);
            continue;
        }
        const std::string_view series = m_b.str(a.key);
        const std::string trackName = args.size() == 1 && (series == "value" || series == base) ? base : base + " " + std::string(series);
        m_b.addCounterSample(namedTrack(g, TrackKind::Counter, m_b.intern(trackName)), e.ts, v);
    }
    if (args.empty())
        m_b.diagnostics().warnAtByte("counter (C) events without values skipped", e.offset);
}

void ChromeTraceAssembler::addInstant(const ChromeEvent &e, ArgSetId args)
{
    TrackId t;
    InstantScope scope = InstantScope::Thread;
    if (e.scope == 'g') {
        scope = InstantScope::Global;
        t = namedTrack(globalGroup(), TrackKind::Slices, m_b.intern("Global instants"));
    } else if (e.scope == 'p') {
        scope = InstantScope::Process;
        t = namedTrack(processGroup(e.pid), TrackKind::Slices, m_b.intern("Process instants"));
    } else {
        t = threadTrack(e.pid, e.tid);
    }
    m_b.addInstant(t, e.ts, e.name, e.category, args, scope);
}

void ChromeTraceAssembler::noteV2(const ChromeEvent &e, uint32_t provisionalSlice, int64_t ts)
{
    if (e.hasBindId && (e.flowIn || e.flowOut))
        m_flowsV2.push_back(BoundV2{e.bindId, ts, provisionalSlice, e.flowIn, e.flowOut});
}

void ChromeTraceAssembler::add(const ChromeEvent &e, std::span<const Arg> args)
{
    const uint32_t order = m_order++;
    switch (e.phase) {
    case 'M':
        addMetadata(e, args);
        return;
    case 'N': case 'O': case 'D':
        m_b.diagnostics().warn("object snapshot events (N/O/D) skipped");
        return;
    case 'P':
        m_b.diagnostics().warn("sample events (P) skipped");
        return;
    default:
        break;
    }
    if (e.empty) {
        m_b.diagnostics().noteAtByte(kEmptyEvents, e.offset);
        return;
    }
    if (!e.hasTs) {
        m_b.diagnostics().warnAtByte("events without ts skipped", e.offset);
        return;
    }
    switch (e.phase) {
    case 'X': {
        const TrackId t = threadTrack(e.pid, e.tid);
        uint16_t flags = 0;
        if (!e.hasDur) {
            flags |= uint16_t(SliceFlag::NoDuration);
            m_b.diagnostics().warnAtByte("X events without dur (drawn with zero length)", e.offset);
        } else if (e.dur < 0) {
            m_b.diagnostics().warnAtByte("X events with negative dur (drawn with zero length)", e.offset);
        }
        const uint32_t s = m_b.addSlice(t, e.ts, e.hasDur ? e.dur : 0, e.name, e.category, m_b.addArgs(args), flags);
        noteV2(e, s, e.ts);
        return;
    }
    case 'B':
    case 'E': {
        const TrackId t = threadTrack(e.pid, e.tid);
        m_beginEnd.push_back(Pending{t.value, e.ts, order, e.phase, e.name, e.category, m_b.addArgs(args), 0,
                                     e.hasBindId, e.flowIn, e.flowOut, e.bindId});
        return;
    }
    case 'i':
    case 'I':
        addInstant(e, m_b.addArgs(args));
        return;
    case 'C':
        addCounter(e, args);
        return;
    case 'b': case 'e': case 'n':
    case 'S': case 'F': case 'T': case 'p': {
        if (!e.hasId) {
            m_b.diagnostics().warnAtByte("async events without id skipped", e.offset);
            return;
        }
        const GroupId g = processGroup(e.pid);
        const AsyncKey key{e.idIsProcessLocal ? g.value : UINT32_MAX, e.category, e.id};
        auto [it, inserted] = m_asyncKeyIndex.emplace(key, uint32_t(m_asyncKeys.size()));
        if (inserted)
            m_asyncKeys.push_back(key);
        const char ph = e.phase == 'S' ? 'b' : e.phase == 'F' ? 'e' : (e.phase == 'T' || e.phase == 'p') ? 'n' : e.phase;
        m_async.push_back(Pending{it->second, e.ts, order, ph, e.name, e.category, m_b.addArgs(args), g.value,
                                  false, false, false, 0});
        return;
    }
    case 's': case 't': case 'f': {
        if (!e.hasId) {
            m_b.diagnostics().warnAtByte("flow events without id skipped", e.offset);
            return;
        }
        m_flowsV1.push_back(PendingFlowV1{FlowKey{e.category, e.name, e.id}, e.ts, order, e.phase, e.bindEnclosing,
                                          threadTrack(e.pid, e.tid)});
        return;
    }
    default:
        m_b.diagnostics().warn(std::string("events with unsupported phase '") + (e.phase ? std::string(1, e.phase) : std::string()) + "' skipped",
                               "byte " + std::to_string(e.offset));
        return;
    }
}

void ChromeTraceAssembler::matchBeginEnd()
{
    std::stable_sort(m_beginEnd.begin(), m_beginEnd.end(), [](const Pending &a, const Pending &b) {
        return a.key != b.key ? a.key < b.key : a.ts < b.ts;
    });
    struct Open { uint32_t slice; StringId name; };
    std::vector<Open> stack;
    uint32_t currentTrack = UINT32_MAX;
    uint64_t unmatchedEnds = 0, mismatched = 0, unclosed = 0;
    for (const Pending &p : m_beginEnd) {
        if (p.key != currentTrack) {
            unclosed += stack.size();
            stack.clear();
            currentTrack = p.key;
        }
        if (p.phase == 'B') {
            const uint32_t s = m_b.addSlice(TrackId(p.key), p.ts, 0, p.name, p.category, p.args,
                                            uint16_t(SliceFlag::FromBeginEnd) | uint16_t(SliceFlag::Unfinished));
            if (p.hasBindId && (p.flowIn || p.flowOut))
                m_flowsV2.push_back(BoundV2{p.bindId, p.ts, s, p.flowIn, p.flowOut});
            stack.push_back(Open{s, p.name});
            continue;
        }
        if (stack.empty()) {
            ++unmatchedEnds;
            continue;
        }
        const Open open = stack.back();
        stack.pop_back();
        if (p.name.isValid() && p.name.value != 0 && p.name != open.name)
            ++mismatched;
        Slice &s = m_b.provisionalSlice(open.slice);
        if (__builtin_sub_overflow(p.ts, s.start, &s.duration)) // hostile times; TraceBuilder clamps
            s.duration = INT64_MAX;
        s.flags &= uint16_t(~uint16_t(SliceFlag::Unfinished));
        if (p.args.isValid()) {
            // E args are merged into the slice (catapult does the same)
            std::vector<Arg> merged;
            const auto a = m_b.args(s.args);
            merged.assign(a.begin(), a.end());
            const auto extra = m_b.args(p.args);
            merged.insert(merged.end(), extra.begin(), extra.end());
            s.args = m_b.addArgs(merged);
        }
    }
    unclosed += stack.size();
    if (unmatchedEnds)
        m_b.diagnostics().warn("E events without a matching B (ignored)", {}, unmatchedEnds);
    if (mismatched)
        m_b.diagnostics().warn("E events whose name differs from the open B (closed the innermost B anyway)", {}, mismatched);
    if (unclosed)
        m_b.diagnostics().warn("B events without an E (shown running to the end of the trace)", {}, unclosed);
    m_beginEnd.clear();
    m_beginEnd.shrink_to_fit();
}

void ChromeTraceAssembler::matchAsync()
{
    std::stable_sort(m_async.begin(), m_async.end(), [](const Pending &a, const Pending &b) {
        return a.key != b.key ? a.key < b.key : a.ts < b.ts;
    });
    struct Open { uint32_t slice; StringId name; TrackId track; };
    std::vector<Open> stack;
    uint32_t currentKey = UINT32_MAX;
    uint64_t unmatchedEnds = 0, unclosed = 0;
    for (const Pending &p : m_async) {
        if (p.key != currentKey) {
            unclosed += stack.size();
            stack.clear();
            currentKey = p.key;
        }
        const GroupId g(p.group);
        if (p.phase == 'b') {
            const TrackId t = stack.empty() ? namedTrack(g, TrackKind::Async, p.name) : stack.front().track;
            const uint32_t s = m_b.addSlice(t, p.ts, 0, p.name, p.category, p.args,
                                            uint16_t(SliceFlag::Async) | uint16_t(SliceFlag::Unfinished));
            stack.push_back(Open{s, p.name, t});
        } else if (p.phase == 'e') {
            if (stack.empty()) {
                ++unmatchedEnds;
                continue;
            }
            // close the innermost open event of the same name, else the innermost one
            size_t idx = stack.size() - 1;
            for (size_t i = stack.size(); i-- > 0;)
                if (stack[i].name == p.name) {
                    idx = i;
                    break;
                }
            Slice &s = m_b.provisionalSlice(stack[idx].slice);
            if (__builtin_sub_overflow(p.ts, s.start, &s.duration)) // hostile times; TraceBuilder clamps
                s.duration = INT64_MAX;
            s.flags &= uint16_t(~uint16_t(SliceFlag::Unfinished));
            stack.erase(stack.begin() + long(idx));
        } else {
            const TrackId t = stack.empty() ? namedTrack(g, TrackKind::Async, p.name) : stack.front().track;
            m_b.addInstant(t, p.ts, p.name, p.category, p.args, InstantScope::Thread);
        }
    }
    unclosed += stack.size();
    if (unmatchedEnds)
        m_b.diagnostics().warn("async end events without a matching begin (ignored)", {}, unmatchedEnds);
    if (unclosed)
        m_b.diagnostics().warn("async begin events without an end (shown running to the end of the trace)", {}, unclosed);
    m_async.clear();
    m_async.shrink_to_fit();
}

// Kineto's flows: "ac2g" (runtime call -> device work; "async" / "launch" before 2021-06,
// "async_cpu_to_gpu" / "async_gpu" in 2022) and "fwdbwd" (forward op -> its backward). Kineto writes their unmatched ends as a habit (docs/diagnostics.md):
// the end of every runtime call on the CPU thread, also for calls that launched no device work
// (cudaStreamGetCaptureInfo, cudaGetDeviceProperties, ...), and starts whose device work is not in
// the file (outside the profiling window, or never run: kernels recorded into a CUDA graph during
// capture). Nothing in the file is lost, so those are notes; unmatched flows of other producers stay
// warnings.
bool ChromeTraceAssembler::isKinetoFlow(const FlowKey &key) const
{
    const std::string_view cat = m_b.str(key.category);
    return cat == "ac2g" || cat == "fwdbwd" || (cat == "async" && m_b.str(key.name) == "launch") || cat == "async_cpu_to_gpu";
}

void ChromeTraceAssembler::resolveFlowsV1()
{
    std::stable_sort(m_flowsV1.begin(), m_flowsV1.end(),
                     [](const PendingFlowV1 &a, const PendingFlowV1 &b) { return a.ts < b.ts; });
    // A Kineto flow's id is the launch's correlation id: a start stays open after its first end, so
    // the other ends of one launch (the kernels of a CUDA graph, `cudaGraphLaunch`: 339 and 502 ends
    // on one id in the 2022 HTA trace) bind to it too instead of counting as ends without a start.
    struct Open
    {
        FlowEnd from;
        bool ended = false;   // a Kineto flow linked to an end already
        bool stepped = false; // linked to a step ('t') already
    };
    std::unordered_map<FlowKey, Open, FlowKeyHash> open;
    uint64_t endsWithoutStart = 0, kinetoEndsWithoutStart = 0, kinetoSharedEnds = 0;
    for (const PendingFlowV1 &f : m_flowsV1) {
        if (f.phase == 's') {
            open[f.key] = Open{FlowEnd::enclosing(f.track, f.ts)};
            continue;
        }
        auto it = open.find(f.key);
        const FlowEnd here = f.phase == 't' || f.bindEnclosing ? FlowEnd::enclosing(f.track, f.ts) : FlowEnd::next(f.track, f.ts);
        if (it == open.end()) {
            ++(isKinetoFlow(f.key) ? kinetoEndsWithoutStart : endsWithoutStart);
            continue;
        }
        m_b.addFlow(it->second.from, here, f.key.category, f.key.name, f.key.id);
        if (f.phase == 't') {
            it->second.from = FlowEnd::enclosing(f.track, f.ts);
            it->second.stepped = true;
        } else if (isKinetoFlow(f.key)) {
            kinetoSharedEnds += it->second.ended;
            it->second.ended = true;
        } else {
            open.erase(it);
        }
    }
    uint64_t kinetoStartsWithoutEnd = 0;
    for (const auto &[key, o] : open)
        kinetoStartsWithoutEnd += isKinetoFlow(key) && !o.ended;
    // rocprof v1 writes its flows (cat "DataFlow", name "dep": runtime call -> device work) as s / t
    // pairs without an 'f': such a flow is drawn up to its step and nothing is lost, so a note. Another
    // producer's flow that stops at a step lost its 'f' (a cut file): a warning.
    uint64_t kinetoEnded = 0, endsAtStep = 0;
    for (const auto &[key, o] : open) {
        kinetoEnded += o.ended;
        endsAtStep += !o.ended && o.stepped && m_b.str(key.category) == "DataFlow" && m_b.str(key.name) == "dep";
    }
    const uint64_t startsWithoutEnd = open.size() - kinetoStartsWithoutEnd - kinetoEnded - endsAtStep;
    if (endsWithoutStart)
        m_b.diagnostics().warn("flow ends without a start", {}, endsWithoutStart);
    if (startsWithoutEnd)
        m_b.diagnostics().warn("flow starts without an end", {}, startsWithoutEnd);
    if (kinetoEndsWithoutStart)
        m_b.diagnostics().note(kKinetoEndsWithoutStart, {}, kinetoEndsWithoutStart);
    if (kinetoStartsWithoutEnd)
        m_b.diagnostics().note(kKinetoStartsWithoutEnd, {}, kinetoStartsWithoutEnd);
    if (endsAtStep)
        m_b.diagnostics().note(kFlowsEndAtStep, {}, endsAtStep);
    if (kinetoSharedEnds)
        m_b.diagnostics().note(kKinetoSharedEnds, {}, kinetoSharedEnds);
    m_flowsV1.clear();
    m_flowsV1.shrink_to_fit();
}

void ChromeTraceAssembler::resolveFlowsV2()
{
    std::stable_sort(m_flowsV2.begin(), m_flowsV2.end(), [](const BoundV2 &a, const BoundV2 &b) {
        return a.bindId != b.bindId ? a.bindId < b.bindId : a.ts < b.ts;
    });
    const StringId none;
    uint64_t dangling = 0;
    for (size_t i = 0; i < m_flowsV2.size();) {
        size_t j = i;
        uint32_t lastOut = UINT32_MAX;
        bool anyIn = false, anyOut = false;
        for (; j < m_flowsV2.size() && m_flowsV2[j].bindId == m_flowsV2[i].bindId; ++j) {
            const BoundV2 &v = m_flowsV2[j];
            if (v.flowIn && lastOut != UINT32_MAX)
                m_b.addFlow(FlowEnd::slice(lastOut), FlowEnd::slice(v.slice), none, none, v.bindId);
            anyIn |= v.flowIn;
            anyOut |= v.flowOut;
            if (v.flowOut)
                lastOut = v.slice;
        }
        if (anyIn != anyOut)
            ++dangling;
        i = j;
    }
    if (dangling)
        m_b.diagnostics().warn("bind_id flows with only one end", {}, dangling);
    m_flowsV2.clear();
}

void ChromeTraceAssembler::finish()
{
    matchBeginEnd();
    matchAsync();
    resolveFlowsV1();
    resolveFlowsV2();
}

} // namespace lanescope
