#pragma once
// Turns parsed Chrome Trace Events into the model: thread tracks per (pid, tid), B/E matching per
// thread (after a stable sort by time, as catapult does), async b/e/n and S/T/F packing, flow v1
// (s/t/f with enclosing / next-slice binding) and v2 (bind_id + flow_in/flow_out), counters,
// instants by scope, and M metadata (names, labels, sort indexes). Problems become counted warnings.
#include "chromeevent.h"
#include "model/argstore.h"
#include "model/tracebuilder.h"

#include <span>
#include <unordered_map>
#include <vector>

namespace lanescope {

class ChromeTraceAssembler
{
public:
    explicit ChromeTraceAssembler(TraceBuilder &builder);

    // args: the event's parsed args (not yet stored); the assembler decides what to keep.
    void add(const ChromeEvent &e, std::span<const Arg> args);
    // Matches B/E and async pairs, resolves flows; call once after the last event.
    void finish();

    // The notes for Kineto's unmatched flows (docs/diagnostics.md).
    static constexpr const char *kKinetoEndsWithoutStart =
        "Kineto flow ends without a start (runtime calls that launched no device work, or device work launched before the profiling window)";
    static constexpr const char *kKinetoStartsWithoutEnd =
        "Kineto flow starts without an end (the launched device work is not in the file: outside the profiling window or never run, e.g. recorded into a CUDA graph)";
    // Perfetto reads these as numbers too (rocprof v1 writes them so).
    static constexpr const char *kNumericStrings =
        "events with ts, dur, pid, tid or id written as a string of digits (read as the number)";
    static constexpr const char *kEmptyEvents = "empty event objects {} skipped (rocprof v1 and other writers open the array with one)";
    static constexpr const char *kCounterStrings = "counter (C) values written as strings of digits (read as the number)";
    static constexpr const char *kFlowsEndAtStep =
        "rocprof flows that end at a step (t) without a final f (rocprof v1 writes s / t pairs), drawn to the step";
    static constexpr const char *kKinetoSharedEnds =
        "Kineto flow ends sharing the start of an earlier end (one launch, several device works: a CUDA graph's kernels), linked to that start";

private:
    struct EntityHash
    {
        size_t operator()(const ChromeEntityKey &k) const noexcept
        {
            return std::hash<int64_t>()(k.number) * 31 + k.text.value;
        }
    };
    struct PairHash
    {
        size_t operator()(const std::pair<uint32_t, ChromeEntityKey> &p) const noexcept
        {
            return EntityHash()(p.second) * 1000003u + p.first;
        }
    };
    struct FlowKey
    {
        StringId category, name;
        uint64_t id;
        bool operator==(const FlowKey &) const = default;
    };
    struct FlowKeyHash
    {
        size_t operator()(const FlowKey &k) const noexcept
        {
            return std::hash<uint64_t>()(k.id) ^ (size_t(k.category.value) << 20) ^ (size_t(k.name.value) << 40);
        }
    };
    struct AsyncKey
    {
        uint32_t group; // process group, or UINT32_MAX for global ids
        StringId category;
        uint64_t id;
        bool operator==(const AsyncKey &) const = default;
    };
    struct AsyncKeyHash
    {
        size_t operator()(const AsyncKey &k) const noexcept
        {
            return std::hash<uint64_t>()(k.id) ^ (size_t(k.category.value) << 24) ^ (size_t(k.group) << 44);
        }
    };
    // B/E and async events are matched after a stable sort by time.
    struct Pending
    {
        uint32_t key;   // track (B/E) or async key index
        int64_t ts;
        uint32_t order; // file order, for stability
        char phase;     // 'B','E' or 'b','e','n'
        StringId name, category;
        ArgSetId args;
        uint32_t group;
        bool hasBindId, flowIn, flowOut;
        uint64_t bindId;
    };
    struct PendingFlowV1
    {
        FlowKey key;
        int64_t ts;
        uint32_t order;
        char phase;
        bool bindEnclosing;
        TrackId track;
    };
    struct BoundV2
    {
        uint64_t bindId;
        int64_t ts;
        uint32_t slice; // provisional
        bool flowIn, flowOut;
    };

    GroupId processGroup(const ChromeEntityKey &pid);
    TrackId threadTrack(const ChromeEntityKey &pid, const ChromeEntityKey &tid);
    TrackId namedTrack(GroupId group, TrackKind kind, StringId name);
    GroupId globalGroup();
    std::string entityText(const ChromeEntityKey &k) const;

    void addMetadata(const ChromeEvent &e, std::span<const Arg> args);
    void addCounter(const ChromeEvent &e, std::span<const Arg> args);
    void addInstant(const ChromeEvent &e, ArgSetId args);
    void noteV2(const ChromeEvent &e, uint32_t provisionalSlice, int64_t ts);
    void matchBeginEnd();
    void matchAsync();
    void resolveFlowsV1();
    void resolveFlowsV2();
    static const Arg *findArg(std::span<const Arg> args, StringId key);

    TraceBuilder &m_b;
    std::unordered_map<ChromeEntityKey, GroupId, EntityHash> m_processes;
    std::unordered_map<std::pair<uint32_t, ChromeEntityKey>, TrackId, PairHash> m_threads;
    std::unordered_map<uint64_t, TrackId> m_named; // (group, kind, name) -> track
    GroupId m_global;
    // cache of the last thread looked up: most events repeat the previous pid/tid
    ChromeEntityKey m_lastPid, m_lastTid;
    TrackId m_lastTrack;

    std::vector<Pending> m_beginEnd;
    std::vector<Pending> m_async;
    std::vector<AsyncKey> m_asyncKeys;
    std::unordered_map<AsyncKey, uint32_t, AsyncKeyHash> m_asyncKeyIndex;
    bool isKinetoFlow(const FlowKey &key) const;
    // An integer arg (sort indexes), also written as a string of digits.
    bool argAsInt(const Arg *a, int64_t &v) const;
    std::vector<PendingFlowV1> m_flowsV1;
    std::vector<BoundV2> m_flowsV2;
    uint32_t m_order = 0;

    StringId m_kName, m_kLabels, m_kSortIndex, m_kProcessName, m_kProcessLabels, m_kProcessSortIndex,
        m_kThreadName, m_kThreadSortIndex;
};

} // namespace lanescope
