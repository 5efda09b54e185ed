#include "tracebuilder.h"

#include "saturating.h"

#include "util/runmerge.h"
#include "util/runoncores.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>
#include <queue>
#include <stdexcept>

namespace lanescope {

namespace {
// Below this many slices the finish runs on one thread: starting a second costs more than it saves.
constexpr size_t kParallelSlices = 100000;

// Runs fn(begin, end) over [0, n) a chunk at a time on `threads` cores.
template <class F>
void forChunks(size_t n, size_t threads, const F &fn)
{
    parallelForChunks(n, size_t(1) << 16, threads, fn);
}

size_t threadsFor(size_t n) { return n >= kParallelSlices ? 2 : 1; }

// Appends `record` and returns its typed index.
template <class Id, class Records, class Record>
Id append(Records &records, const Record &record)
{
    records.push_back(record);
    return Id(static_cast<uint32_t>(records.size() - 1));
}

} // namespace

TraceBuilder::TraceBuilder() = default;

GroupId TraceBuilder::addGroup(GroupKind kind, StringId name, GroupId parent, int64_t externalId)
{
    return append<GroupId>(m_trace.m_groups,
                           TrackGroup{.name = name, .parent = parent, .kind = kind, .externalId = externalId, .sortIndex = externalId});
}

TrackId TraceBuilder::addTrack(GroupId group, TrackKind kind, StringId name, int64_t externalId)
{
    return append<TrackId>(m_trace.m_tracks,
                           Track{.name = name, .group = group, .kind = kind, .externalId = externalId, .sortIndex = externalId});
}

uint32_t TraceBuilder::addSlice(TrackId track, int64_t start, int64_t duration, StringId name, StringId category,
                                ArgSetId args, uint16_t flags)
{
    if (m_slices.size() >= std::numeric_limits<uint32_t>::max() - 1)
        throw std::length_error("too many slices for one trace (more than 4 billion)");
    Slice s;
    s.start = start;
    s.duration = duration < 0 ? 0 : duration;
    s.name = name;
    s.category = category;
    s.args = args;
    s.flags = flags;
    m_slices.push_back(s);
    m_sliceTrack.push_back(track.value);
    return static_cast<uint32_t>(m_slices.size() - 1);
}

void TraceBuilder::reserveSlices(size_t n)
{
    m_slices.reserve(n);
    m_sliceTrack.reserve(n);
}

void TraceBuilder::addInstant(TrackId track, int64_t ts, StringId name, StringId category, ArgSetId args,
                              InstantScope scope)
{
    m_instants.push_back(PendingInstant{track.value, Instant{ts, name, category, args, scope}});
}

void TraceBuilder::addCounterSample(TrackId track, int64_t ts, double value)
{
    m_counters.push_back(PendingCounter{track.value, CounterSample{ts, value}});
}

void TraceBuilder::addFlow(FlowEnd from, FlowEnd to, StringId category, StringId name, uint64_t externalId)
{
    m_flows.push_back(PendingFlow{from, to, category, name, externalId});
}

// Times far outside any capture come only from corrupt or hostile files (ts 9223372036854775 us). They
// are clamped here, for every importer, so that start + duration, the trace's span and the views' range
// arithmetic can never overflow int64: times to [-2^60, 2^62 - 2^60] ns (1933..2079 as Unix-epoch ns),
// durations to [0, 2^60] ns (36 years).
namespace {
constexpr int64_t kMinTime = kTraceMinTime; // model/saturating.h: the one definition of the trace range
constexpr int64_t kMaxTime = kTraceMaxTime;
constexpr int64_t kMaxDuration = kTraceMaxDuration;
} // namespace

void TraceBuilder::clampTimes()
{
    uint64_t clamped = 0;
    auto clampTime = [&clamped](int64_t &t) {
        if (t < kMinTime || t > kMaxTime) {
            t = std::clamp(t, kMinTime, kMaxTime);
            ++clamped;
        }
    };
    std::atomic<uint64_t> clampedSlices{0};
    forChunks(m_slices.size(), threadsFor(m_slices.size()), [&](size_t begin, size_t end) {
        uint64_t n = 0;
        for (size_t k = begin; k < end; ++k) {
            Slice &s = m_slices[k];
            if (s.start < kMinTime || s.start > kMaxTime) {
                s.start = std::clamp(s.start, kMinTime, kMaxTime);
                ++n;
            }
            if (s.duration > kMaxDuration) {
                s.duration = kMaxDuration;
                ++n;
            }
            s.duration = std::max<int64_t>(s.duration, 0);
        }
        clampedSlices += n;
    });
    clamped += clampedSlices;
    for (auto &i : m_instants)
        clampTime(i.instant.ts);
    for (auto &c : m_counters)
        clampTime(c.sample.ts);
    if (clamped)
        m_trace.m_diagnostics.warn("times or durations out of range (before 1933, after 2079 or longer than 36 years) clamped",
                                   {}, clamped);
}

void TraceBuilder::computeTimeBounds()
{
    int64_t lo = std::numeric_limits<int64_t>::max();
    int64_t hi = std::numeric_limits<int64_t>::min();
    std::mutex mutex;
    std::atomic<bool> unfinished{false};
    forChunks(m_slices.size(), threadsFor(m_slices.size()), [&](size_t begin, size_t end) {
        int64_t l = std::numeric_limits<int64_t>::max(), h = std::numeric_limits<int64_t>::min();
        bool u = false;
        for (size_t k = begin; k < end; ++k) {
            const Slice &s = m_slices[k];
            l = std::min(l, s.start);
            u |= s.has(SliceFlag::Unfinished);
            h = std::max(h, s.has(SliceFlag::Unfinished) ? s.start : s.end());
        }
        std::lock_guard lock(mutex);
        lo = std::min(lo, l);
        hi = std::max(hi, h);
        if (u)
            unfinished = true;
    });
    for (const auto &i : m_instants) {
        lo = std::min(lo, i.instant.ts);
        hi = std::max(hi, i.instant.ts);
    }
    for (const auto &c : m_counters) {
        lo = std::min(lo, c.sample.ts);
        hi = std::max(hi, c.sample.ts);
    }
    if (lo > hi)
        lo = hi = 0;
    m_trace.m_start = lo;
    m_trace.m_end = hi;
    // Unfinished slices (a begin without an end) run to the end of the trace.
    if (unfinished)
        for (Slice &s : m_slices)
            if (s.has(SliceFlag::Unfinished))
                s.duration = std::clamp<int64_t>(hi - s.start, 0, kMaxDuration);
}

void TraceBuilder::sortSlices(std::vector<uint32_t> &finalIndexOfProvisional)
{
    auto &tracks = m_trace.m_tracks;
    const size_t n = m_slices.size();
    // Counting sort by track, then a sort per track: never an insertion sort.
    std::vector<uint32_t> offsets(tracks.size() + 1, 0);
    for (uint32_t t : m_sliceTrack)
        ++offsets[t + 1];
    for (size_t t = 0; t < tracks.size(); ++t)
        offsets[t + 1] += offsets[t];
    std::vector<uint32_t> order(n);
    {
        std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
        for (uint32_t i = 0; i < n; ++i)
            order[fill[m_sliceTrack[i]]++] = i;
    }
    m_sliceTrack.clear();
    m_sliceTrack.shrink_to_fit();
    for (size_t t = 0; t < tracks.size(); ++t) {
        tracks[t].sliceBegin = offsets[t];
        tracks[t].sliceCount = offsets[t + 1] - offsets[t];
    }
    // Each track's slices by (start, longer first, file order), on the cores.
    std::vector<uint32_t> bySize;
    for (uint32_t t = 0; t < tracks.size(); ++t)
        if (offsets[t + 1] - offsets[t] > 1)
            bySize.push_back(t);
    const auto less = [this](uint32_t a, uint32_t b) {
        const Slice &x = m_slices[a], &y = m_slices[b];
        if (x.start != y.start)
            return x.start < y.start;
        if (x.duration != y.duration)
            return x.duration > y.duration;
        return a < b;
    };
    const size_t threads = threadsFor(n);
    // A track of more than a quarter of the slices (a Kineto trace's busiest thread often holds almost
    // all) is cut by value into two halves, one per core; the others are sorted whole, largest first.
    struct Job
    {
        uint32_t *data;
        size_t size;
        std::vector<size_t> runs; // empty: find the runs and sort (sortRuns)
    };
    std::vector<Job> jobs;
    std::vector<uint32_t> scratch;
    for (const uint32_t t : bySize) {
        uint32_t *data = order.data() + offsets[t];
        const size_t size = offsets[t + 1] - offsets[t];
        if (threads < 2 || size < kParallelSlices || size < n / 4) {
            jobs.push_back(Job{data, size, {}});
            continue;
        }
        const std::vector<size_t> runs = runmerge::findRuns(data, size, less);
        if (runs.size() <= 2)
            continue;
        if (runmerge::manyRuns(runs, size)) {
            jobs.push_back(Job{data, size, {}});
            continue;
        }
        runmerge::Halves h = runmerge::splitRuns(data, runs, less, scratch);
        jobs.push_back(Job{data, h.split, std::move(h.low)});
        jobs.push_back(Job{data + h.split, size - h.split, std::move(h.high)});
    }
    scratch = {};
    std::stable_sort(jobs.begin(), jobs.end(), [](const Job &a, const Job &b) { return a.size > b.size; });
    parallelFor(jobs.size(), threads, [&](size_t k) {
        Job &job = jobs[k];
        std::vector<uint32_t> buffer;
        if (job.runs.empty())
            runmerge::sortRuns(job.data, job.size, less, buffer);
        else
            runmerge::mergeRuns(job.data, std::move(job.runs), less, buffer);
    });
    // The records in their final order, gathered on the cores a chunk at a time.
    // Not zeroed (UninitializedAllocator): every record is written by the gather, whose threads fault
    // the pages in.
    std::vector<Slice, UninitializedAllocator<Slice>> sorted(n);
    finalIndexOfProvisional.resize(n);
    forChunks(n, threads, [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
            sorted[i] = m_slices[order[i]];
            finalIndexOfProvisional[order[i]] = uint32_t(i);
        }
    });
    m_slices.clear();
    m_slices.shrink_to_fit();
    m_trace.m_slices = std::move(sorted);
}

void TraceBuilder::computeDepths(std::vector<uint32_t> &parentOf)
{
    auto &slices = m_trace.m_slices.vec(); // the vector itself: no view check per access
    parentOf.assign(slices.size(), UINT32_MAX);
    std::vector<uint32_t> stack;
    uint64_t overlapping = 0;
    for (Track &t : m_trace.m_tracks) {
        int64_t maxDur = 0;
        uint16_t maxDepth = 0;
        if (t.kind == TrackKind::Async) {
            maxDepth = packRows(t);
            for (uint32_t i = t.sliceBegin; i < t.sliceBegin + t.sliceCount; ++i)
                maxDur = std::max(maxDur, slices[i].duration);
            t.maxDuration = maxDur;
            t.maxDepth = maxDepth;
            continue;
        }
        // Nesting by time containment: a slice's parent is the innermost open slice that contains it
        // whole. The stack stays a chain (each slice inside the one below it), so the parent of the
        // next slice one level deeper is always the last slice seen at this depth.
        stack.clear();
        for (uint32_t i = t.sliceBegin; i < t.sliceBegin + t.sliceCount; ++i) {
            Slice &s = slices[i];
            while (!stack.empty() && slices[stack.back()].end() <= s.start)
                stack.pop_back();
            // Open slices that s starts inside and outlives (Kineto: ProfilerStep#N starts inside the
            // profiler's step() Python frame and runs on after it) are not its parents: it goes beside
            // them, under the innermost slice that holds it whole (TraceLens's rule for an "event
            // bleed"; Perfetto drops such a slice). They close here: whatever starts from now on
            // inside them also lies inside s, whose subtree it joins.
            bool crosses = false;
            while (!stack.empty() && slices[stack.back()].end() < s.end()) {
                stack.pop_back();
                crosses = true;
            }
            if (crosses)
                ++overlapping;
            if (!stack.empty())
                parentOf[i] = stack.back();
            s.depth = static_cast<uint16_t>(std::min<size_t>(stack.size(), std::numeric_limits<uint16_t>::max()));
            maxDepth = std::max(maxDepth, s.depth);
            maxDur = std::max(maxDur, s.duration);
            stack.push_back(i);
        }
        t.maxDuration = maxDur;
        t.maxDepth = maxDepth;
    }
    if (overlapping)
        m_trace.m_diagnostics.note(kOverlapNote, {}, overlapping);
}

// Async tracks (async events, DMA packets, device instructions) overlap without nesting: each slice
// goes to the lowest row that is free at its start (interval partitioning, O(n log n)), so a lane is
// as tall as the most packets in flight at once, and slices of one row never overlap.
uint16_t TraceBuilder::packRows(const Track &t)
{
    auto &slices = m_trace.m_slices.vec();
    using Busy = std::pair<int64_t, uint32_t>; // end, row
    std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> free;
    uint32_t rows = 0;
    uint16_t maxDepth = 0;
    for (uint32_t i = t.sliceBegin; i < t.sliceBegin + t.sliceCount; ++i) {
        Slice &s = slices[i];
        while (!busy.empty() && busy.top().first <= s.start) {
            free.push(busy.top().second);
            busy.pop();
        }
        uint32_t row;
        if (!free.empty()) {
            row = free.top();
            free.pop();
        } else {
            row = rows++;
        }
        busy.emplace(s.end(), row);
        s.depth = static_cast<uint16_t>(std::min<uint32_t>(row, std::numeric_limits<uint16_t>::max()));
        maxDepth = std::max(maxDepth, s.depth);
    }
    return maxDepth;
}

void TraceBuilder::sortInstantsAndCounters()
{
    auto &tracks = m_trace.m_tracks;
    std::stable_sort(m_instants.begin(), m_instants.end(), [](const PendingInstant &a, const PendingInstant &b) {
        return a.track != b.track ? a.track < b.track : a.instant.ts < b.instant.ts;
    });
    std::stable_sort(m_counters.begin(), m_counters.end(), [](const PendingCounter &a, const PendingCounter &b) {
        return a.track != b.track ? a.track < b.track : a.sample.ts < b.sample.ts;
    });
    auto &instants = m_trace.m_instants;
    instants.reserve(m_instants.size());
    for (size_t i = 0; i < m_instants.size(); ++i) {
        Track &t = tracks[m_instants[i].track];
        if (t.instantCount == 0)
            t.instantBegin = static_cast<uint32_t>(i);
        ++t.instantCount;
        instants.push_back(m_instants[i].instant);
    }
    auto &counters = m_trace.m_counters;
    counters.reserve(m_counters.size());
    for (size_t i = 0; i < m_counters.size(); ++i) {
        Track &t = tracks[m_counters[i].track];
        if (t.counterCount == 0)
            t.counterBegin = static_cast<uint32_t>(i);
        ++t.counterCount;
        counters.push_back(m_counters[i].sample);
    }
    m_instants.clear();
    m_instants.shrink_to_fit();
    m_counters.clear();
    m_counters.shrink_to_fit();
}

uint32_t TraceBuilder::resolveEnd(const FlowEnd &end, const std::vector<uint32_t> &finalIndexOfProvisional,
                                  const std::vector<uint32_t> &parentOf) const
{
    const auto &slices = m_trace.m_slices;
    switch (end.bind) {
    case FlowEnd::Bind::Slice:
        return end.provisionalSlice < finalIndexOfProvisional.size() ? finalIndexOfProvisional[end.provisionalSlice]
                                                                     : UINT32_MAX;
    case FlowEnd::Bind::Enclosing: {
        if (!end.track.isValid() || end.track.value >= m_trace.m_tracks.size())
            return UINT32_MAX;
        const Track &t = m_trace.m_tracks[end.track.value];
        auto b = slices.begin() + t.sliceBegin, e = b + t.sliceCount;
        // last slice starting at or before ts, then up the parent chain until one contains ts
        auto it = std::upper_bound(b, e, end.ts, [](int64_t v, const Slice &s) { return v < s.start; });
        if (it == b)
            return UINT32_MAX;
        uint32_t c = static_cast<uint32_t>(it - slices.begin()) - 1;
        // Among slices starting at the same ts, the deepest is the last one: walk the parent chain up.
        while (c != UINT32_MAX && !(slices[c].start <= end.ts && end.ts <= slices[c].end()))
            c = parentOf[c];
        return c;
    }
    case FlowEnd::Bind::Next: {
        if (!end.track.isValid() || end.track.value >= m_trace.m_tracks.size())
            return UINT32_MAX;
        const Track &t = m_trace.m_tracks[end.track.value];
        auto b = slices.begin() + t.sliceBegin, e = b + t.sliceCount;
        auto it = std::lower_bound(b, e, end.ts, [](const Slice &s, int64_t v) { return s.start < v; });
        return it == e ? UINT32_MAX : static_cast<uint32_t>(it - slices.begin());
    }
    }
    return UINT32_MAX;
}

void TraceBuilder::resolveFlows(const std::vector<uint32_t> &finalIndexOfProvisional, const std::vector<uint32_t> &parentOf)
{
    uint64_t unboundFrom = 0, unboundTo = 0;
    auto &flows = m_trace.m_flows;
    flows.reserve(m_flows.size());
    // Both ends of every flow, on the cores (each a search in its track), then kept in order.
    std::vector<std::pair<uint32_t, uint32_t>> ends(m_flows.size());
    forChunks(m_flows.size(), threadsFor(m_flows.size() * 16), [&](size_t begin, size_t end) {
        for (size_t k = begin; k < end; ++k)
            ends[k] = {resolveEnd(m_flows[k].from, finalIndexOfProvisional, parentOf), resolveEnd(m_flows[k].to, finalIndexOfProvisional, parentOf)};
    });
    for (size_t k = 0; k < m_flows.size(); ++k) {
        const PendingFlow &p = m_flows[k];
        const auto [from, to] = ends[k];
        if (from == UINT32_MAX) {
            ++unboundFrom;
            continue;
        }
        if (to == UINT32_MAX) {
            ++unboundTo;
            continue;
        }
        flows.push_back(Flow{SliceId(from), SliceId(to), p.category, p.name, p.externalId});
    }
    m_flows.clear();
    m_flows.shrink_to_fit();
    if (unboundFrom)
        m_trace.m_diagnostics.warn("flow starts not inside any slice on their thread (flow dropped)", {}, unboundFrom);
    if (unboundTo)
        m_trace.m_diagnostics.warn("flow ends not bound to any slice on their thread (flow dropped)", {}, unboundTo);
    for (uint32_t i = 0; i < flows.size(); ++i) {
        m_trace.m_flowsBySource.emplace_back(flows[i].from.value, i);
        m_trace.m_flowsByTarget.emplace_back(flows[i].to.value, i);
    }
    std::sort(m_trace.m_flowsBySource.begin(), m_trace.m_flowsBySource.end());
    std::sort(m_trace.m_flowsByTarget.begin(), m_trace.m_flowsByTarget.end());
}

Trace TraceBuilder::finish()
{
    clampTimes();
    computeTimeBounds();
    std::vector<uint32_t> finalIndex;
    sortSlices(finalIndex);
    std::vector<uint32_t> parentOf;
    computeDepths(parentOf);
    sortInstantsAndCounters();
    resolveFlows(finalIndex, parentOf);

    auto &tr = m_trace;
    for (uint32_t t = 0; t < tr.m_tracks.size(); ++t)
        if (tr.m_tracks[t].sliceCount)
            tr.m_trackBySliceBegin.push_back(t);
    std::sort(tr.m_trackBySliceBegin.begin(), tr.m_trackBySliceBegin.end(),
              [&tr](uint32_t a, uint32_t b) { return tr.m_tracks[a].sliceBegin < tr.m_tracks[b].sliceBegin; });
    tr.m_trackBySliceBegin.shrink_to_fit();
    tr.m_args.shrinkToFit();
    Trace out = std::move(m_trace);
    m_trace = Trace();
    return out;
}

Trace TraceBuilder::finishAround(Trace &&source, GroupId parent, const std::string &prefix)
{
    if (!m_trace.m_tracks.empty() || !m_slices.empty() || !m_instants.empty() || !m_counters.empty() || !m_flows.empty())
        throw std::logic_error("TraceBuilder::finishAround: the builder holds more than groups");
    Trace out = std::move(source);
    out.setDepthTables(nullptr); // its tracks change below: depth tables built before no longer apply
    // The builder's groups first (names into the source's strings), the source's after them.
    const uint32_t shift = uint32_t(m_trace.m_groups.size());
    auto into = [&](StringId id) { return id.isValid() ? out.m_strings.intern(m_trace.m_strings.view(id)) : id; };
    std::vector<TrackGroup> groups = m_trace.m_groups.toVector();
    for (TrackGroup &g : groups) {
        g.name = into(g.name);
        g.labels = into(g.labels);
    }
    groups.reserve(groups.size() + out.m_groups.size());
    for (TrackGroup g : out.m_groups) {
        g.parent = g.parent.isValid() && g.parent.value < out.m_groups.size() ? GroupId(g.parent.value + shift) : parent;
        groups.push_back(g);
    }
    out.m_groups = std::move(groups);
    for (Track &t : out.m_tracks)
        t.group = t.group.isValid() ? GroupId(t.group.value + shift) : parent;

    Diagnostics diagnostics = std::move(m_trace.m_diagnostics);
    uint64_t overlapping = 0; // finish() counts it over the whole trace, unprefixed, last
    for (const Warning &w : out.m_diagnostics.warnings()) {
        if (w.message == kOverlapNote)
            overlapping += w.count;
        else
            diagnostics.report(w.severity, prefix + w.message, w.firstSeen, w.count);
    }
    if (overlapping)
        diagnostics.note(kOverlapNote, {}, overlapping);
    out.m_diagnostics = std::move(diagnostics);

    ImportStats stats = std::move(m_trace.m_stats);
    stats.eventsRead += out.m_stats.eventsRead;
    stats.bytesRead += out.m_stats.bytesRead;
    for (const auto &[k, v] : out.m_stats.phases)
        stats.phases[k] += v;
    for (const auto &[k, v] : out.m_stats.categories)
        stats.categories[k] += v;
    out.m_stats = std::move(stats);

    TraceMetadata md = std::move(m_trace.m_metadata);
    md.synthetic = md.synthetic || out.m_metadata.synthetic;
    for (auto &[k, v] : out.m_metadata.entries)
        md.entries.emplace_back(prefix + k, std::move(v));
    out.m_metadata = std::move(md);
    m_trace = Trace();
    return out;
}

} // namespace lanescope
