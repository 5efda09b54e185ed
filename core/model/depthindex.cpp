#include "depthindex.h"

#include "model/trace.h"

#include <algorithm>
#include <string>

namespace lanescope {

DepthTables DepthTables::build(const Trace &trace)
{
    DepthTables t;
    const auto tracks = trace.tracks();
    const auto all = trace.allSlices();
    std::vector<uint32_t> entries(all.size());
    std::vector<uint32_t> depthOffsets;
    std::vector<uint32_t> trackFirstDepth;
    trackFirstDepth.reserve(tracks.size() + 1);
    std::vector<uint32_t> fill;
    for (const Track &tr : tracks) {
        trackFirstDepth.push_back(uint32_t(depthOffsets.size()));
        const size_t depths = tr.sliceCount ? size_t(tr.maxDepth) + 1 : 0;
        // Counting sort of the track's slices by depth (stable: time order is kept).
        const size_t base = depthOffsets.size();
        depthOffsets.resize(base + depths + 1, 0);
        for (uint32_t i = tr.sliceBegin; i < tr.sliceBegin + tr.sliceCount; ++i)
            ++depthOffsets[base + 1 + std::min<size_t>(all[i].depth, depths - 1)];
        depthOffsets[base] = tr.sliceBegin;
        for (size_t d = 0; d < depths; ++d)
            depthOffsets[base + d + 1] += depthOffsets[base + d];
        fill.assign(depthOffsets.begin() + ptrdiff_t(base), depthOffsets.begin() + ptrdiff_t(base + depths));
        for (uint32_t i = tr.sliceBegin; i < tr.sliceBegin + tr.sliceCount; ++i)
            entries[fill[std::min<size_t>(all[i].depth, depths - 1)]++] = i;
    }
    trackFirstDepth.push_back(uint32_t(depthOffsets.size()));

    // The summary levels. Groups straddling two depths (or tracks) are built but never used:
    // consumeRun only takes groups that lie inside [from, last) of one depth.
    constexpr size_t fanout = size_t(1) << kFanoutBits;
    const std::vector<size_t> sizes = levelSizes(entries.size());
    size_t total = 0;
    for (size_t n : sizes)
        total += n;
    std::vector<DepthNode> nodes(total);
    size_t below = 0, at = 0; // where the level below and this level begin in nodes
    for (size_t level = 0; level < sizes.size(); ++level) {
        for (size_t i = 0; i < sizes[level]; ++i) {
            DepthNode node;
            for (size_t k = i * fanout; k < (i + 1) * fanout; ++k) {
                DepthNode child;
                if (level > 0) {
                    child = nodes[below + k];
                } else {
                    const Slice &s = all[entries[k]];
                    child = DepthNode{s.start, s.end(), 0, s.duration, entries[k], 0};
                }
                if (k == i * fanout)
                    node.firstStart = child.firstStart;
                else
                    node.maxGap = std::max(node.maxGap, child.firstStart - node.lastEnd);
                node.maxGap = std::max(node.maxGap, child.maxGap);
                node.lastEnd = child.lastEnd;
                if (child.longestDuration > node.longestDuration) {
                    node.longestDuration = child.longestDuration;
                    node.longest = child.longest;
                }
            }
            nodes[at + i] = node;
        }
        below = at;
        at += sizes[level];
    }
    t.entries = std::move(entries);
    t.depthOffsets = std::move(depthOffsets);
    t.trackFirstDepth = std::move(trackFirstDepth);
    t.nodes = std::move(nodes);
    return t;
}

std::vector<size_t> DepthTables::levelSizes(size_t entryCount)
{
    std::vector<size_t> sizes;
    for (size_t n = entryCount >> kFanoutBits; n > 0; n >>= kFanoutBits)
        sizes.push_back(n);
    return sizes;
}

size_t DepthTables::bytes() const
{
    return (entries.size() + depthOffsets.size() + trackFirstDepth.size()) * sizeof(uint32_t) + nodes.size() * sizeof(DepthNode);
}

std::string DepthTables::check(const Trace &trace) const
{
    const size_t sliceCount = trace.allSlices().size();
    const auto tracks = trace.tracks();
    if (entries.size() != sliceCount)
        return "depth index: " + std::to_string(entries.size()) + " entries for " + std::to_string(sliceCount) + " slices";
    if (trackFirstDepth.size() != tracks.size() + 1)
        return "depth index: " + std::to_string(trackFirstDepth.size()) + " track offsets for " + std::to_string(tracks.size())
               + " tracks";
    size_t total = 0;
    for (size_t n : levelSizes(entries.size()))
        total += n;
    if (nodes.size() != total)
        return "depth index: " + std::to_string(nodes.size()) + " summary nodes, expected " + std::to_string(total);
    uint32_t previous = 0;
    for (size_t i = 0; i < trackFirstDepth.size(); ++i) {
        const uint32_t v = trackFirstDepth[i];
        if (v < previous || v > depthOffsets.size())
            return "depth index: track offset " + std::to_string(i) + " out of order or past the depth offsets";
        if (i < tracks.size()) {
            const Track &tr = tracks[i];
            const size_t want = tr.sliceCount ? size_t(tr.maxDepth) + 2 : 1;
            if (i + 1 < trackFirstDepth.size() && trackFirstDepth[i + 1] >= v && trackFirstDepth[i + 1] - v != want)
                return "depth index: track " + std::to_string(i) + " has " + std::to_string(trackFirstDepth[i + 1] - v)
                       + " depth offsets, expected " + std::to_string(want);
        }
        previous = v;
    }
    if (trackFirstDepth.back() != depthOffsets.size())
        return "depth index: the track offsets do not end at the depth offsets' end";
    for (size_t i = 0; i < tracks.size(); ++i) {
        const Track &tr = tracks[i];
        const uint32_t first = trackFirstDepth[i], last = trackFirstDepth[i + 1];
        if (depthOffsets[first] != (tr.sliceCount ? tr.sliceBegin : depthOffsets[first]))
            return "depth index: track " + std::to_string(i) + " does not start at its first slice";
        for (uint32_t k = first; k + 1 < last; ++k)
            if (depthOffsets[k + 1] < depthOffsets[k] || depthOffsets[k + 1] > entries.size())
                return "depth index: depth offset " + std::to_string(k + 1) + " out of order or past the entries";
        if (tr.sliceCount && depthOffsets[last - 1] != uint64_t(tr.sliceBegin) + tr.sliceCount)
            return "depth index: track " + std::to_string(i) + " does not end at its last slice";
    }
    // Every id in range: one pass the compiler vectorises (a max), then the summaries' members.
    uint32_t largest = 0;
    for (uint32_t e : entries)
        largest = std::max(largest, e);
    if (!entries.empty() && largest >= sliceCount)
        return "depth index: slice id " + std::to_string(largest) + " past the " + std::to_string(sliceCount) + " slices";
    for (const DepthNode &n : nodes)
        if (n.longest >= sliceCount)
            return "depth index: summary member " + std::to_string(n.longest) + " past the slices";
    return {};
}

void DepthIndex::clear()
{
    m_trace = nullptr;
    m_tables.reset();
    m_levels.clear();
}

void DepthIndex::build(const Trace *trace)
{
    clear();
    m_trace = trace;
    if (!trace)
        return;
    m_tables = trace->depthTables();
    size_t at = 0;
    for (size_t n : DepthTables::levelSizes(m_tables->entries.size())) {
        m_levels.emplace_back(m_tables->nodes.data() + at, n);
        at += n;
    }
}

DepthIndex::Run DepthIndex::consumeRun(TrackId track, int depth, size_t from, size_t last, int64_t runEnd,
                                       int64_t maxGap, int64_t maxDuration) const
{
    Run run;
    run.next = from;
    run.end = runEnd;
    const auto ids = slices(track, depth);
    last = std::min(last, ids.size());
    if (from >= last)
        return run;
    const auto all = m_trace->allSlices();
    const size_t base = size_t(ids.data() - m_tables->entries.data()); // global position of position 0
    size_t j = base + from;
    const size_t end = base + last;
    const auto take = [&](uint32_t longest, int64_t duration, int64_t lastEnd, size_t count) {
        if (duration > run.longestDuration) {
            run.longestDuration = duration;
            run.longest = longest;
        }
        run.count += uint32_t(count);
        run.end = std::max(run.end, lastEnd);
        j += count;
    };
    const auto fits = [&](const DepthNode &node) {
        return node.firstStart - run.end <= maxGap && node.maxGap <= maxGap && node.longestDuration < maxDuration;
    };
    while (j < end) {
        // The largest aligned group at j inside [j, end), then smaller ones while they do not fit.
        int k = 0;
        while (k < int(m_levels.size())) {
            const size_t size = size_t(1) << (kFanoutBits * (k + 1));
            if (j % size != 0 || j + size > end)
                break;
            ++k;
        }
        bool took = false;
        for (; k >= 1 && !took; --k) {
            const size_t size = size_t(1) << (kFanoutBits * k);
            const DepthNode &node = m_levels[size_t(k - 1)][j / size];
            if (fits(node)) {
                take(node.longest, node.longestDuration, node.lastEnd, size);
                took = true;
            }
        }
        if (took)
            continue;
        const Slice &s = all[m_tables->entries[j]];
        if (s.start - run.end > maxGap || s.duration >= maxDuration)
            break;
        take(m_tables->entries[j], s.duration, s.end(), 1);
    }
    run.next = j - base;
    return run;
}

int DepthIndex::depthCount(TrackId track) const
{
    if (!m_tables || track.value + 1 >= m_tables->trackFirstDepth.size())
        return 0;
    const uint32_t n = m_tables->trackFirstDepth[track.value + 1] - m_tables->trackFirstDepth[track.value];
    return n ? int(n - 1) : 0;
}

std::span<const uint32_t> DepthIndex::slices(TrackId track, int depth) const
{
    if (depth < 0 || depth >= depthCount(track))
        return {};
    const DepthTables &t = *m_tables;
    const size_t k = t.trackFirstDepth[track.value] + size_t(depth);
    return std::span<const uint32_t>(t.entries.data() + t.depthOffsets[k], t.depthOffsets[k + 1] - t.depthOffsets[k]);
}

std::pair<size_t, size_t> DepthIndex::range(TrackId track, int depth, int64_t t0, int64_t t1) const
{
    const auto s = slices(track, depth);
    if (s.empty())
        return {0, 0};
    const auto all = m_trace->allSlices();
    // Ends are sorted within a depth: the first slice that ends at or after t0.
    auto first = std::lower_bound(s.begin(), s.end(), t0, [&](uint32_t id, int64_t v) { return all[id].end() < v; });
    auto last = std::upper_bound(first, s.end(), t1, [&](int64_t v, uint32_t id) { return v < all[id].start; });
    return {size_t(first - s.begin()), size_t(last - s.begin())};
}

SliceId DepthIndex::sliceAt(TrackId track, int depth, int64_t t, int64_t tolerance) const
{
    const auto s = slices(track, depth);
    const auto [first, last] = range(track, depth, t - tolerance, t + tolerance);
    const auto all = m_trace->allSlices();
    SliceId best;
    int64_t bestDistance = tolerance + 1;
    for (size_t i = first; i < last; ++i) {
        const Slice &sl = all[s[i]];
        const int64_t distance = t < sl.start ? sl.start - t : (t > sl.end() ? t - sl.end() : 0);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = SliceId(s[i]);
            if (distance == 0)
                break;
        }
        if (sl.start > t) // later slices are only further away
            break;
    }
    return best;
}

} // namespace lanescope
