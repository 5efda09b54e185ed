#include "depthindex.h"

#include "model/trace.h"

#include <algorithm>

namespace lanescope {

void DepthIndex::clear()
{
    m_trace = nullptr;
    m_entries.clear();
    m_entries.shrink_to_fit();
    m_depthOffsets.clear();
    m_trackFirstDepth.clear();
    m_levels.clear();
}

void DepthIndex::build(const Trace *trace)
{
    clear();
    m_trace = trace;
    if (!trace)
        return;
    const auto tracks = trace->tracks();
    m_trackFirstDepth.reserve(tracks.size() + 1);
    m_entries.resize(trace->allSlices().size());
    const auto all = trace->allSlices();
    std::vector<uint32_t> fill;
    for (const Track &t : tracks) {
        m_trackFirstDepth.push_back(uint32_t(m_depthOffsets.size()));
        const size_t depths = t.sliceCount ? size_t(t.maxDepth) + 1 : 0;
        // Counting sort of the track's slices by depth (stable: time order is kept).
        const size_t base = m_depthOffsets.size();
        m_depthOffsets.resize(base + depths + 1, 0);
        for (uint32_t i = t.sliceBegin; i < t.sliceBegin + t.sliceCount; ++i)
            ++m_depthOffsets[base + 1 + std::min<size_t>(all[i].depth, depths - 1)];
        m_depthOffsets[base] = t.sliceBegin;
        for (size_t d = 0; d < depths; ++d)
            m_depthOffsets[base + d + 1] += m_depthOffsets[base + d];
        fill.assign(m_depthOffsets.begin() + ptrdiff_t(base), m_depthOffsets.begin() + ptrdiff_t(base + depths));
        for (uint32_t i = t.sliceBegin; i < t.sliceBegin + t.sliceCount; ++i)
            m_entries[fill[std::min<size_t>(all[i].depth, depths - 1)]++] = i;
    }
    m_trackFirstDepth.push_back(uint32_t(m_depthOffsets.size()));
    buildLevels();
}

void DepthIndex::buildLevels()
{
    // Groups straddling two depths (or tracks) are built but never used: consumeRun only takes
    // groups that lie inside [from, last) of one depth.
    const auto all = m_trace->allSlices();
    constexpr size_t fanout = size_t(1) << kFanoutBits;
    size_t n = m_entries.size() / fanout;
    while (n > 0) {
        std::vector<Node> level(n);
        const std::vector<Node> *below = m_levels.empty() ? nullptr : &m_levels.back();
        for (size_t i = 0; i < n; ++i) {
            Node node;
            for (size_t k = i * fanout; k < (i + 1) * fanout; ++k) {
                Node child;
                if (below) {
                    child = (*below)[k];
                } else {
                    const Slice &s = all[m_entries[k]];
                    child = Node{s.start, s.end(), 0, s.duration, m_entries[k]};
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
            level[i] = node;
        }
        m_levels.push_back(std::move(level));
        n /= fanout;
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
    const size_t base = size_t(ids.data() - m_entries.data()); // global position of position 0
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
    const auto fits = [&](const Node &node) {
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
            const Node &node = m_levels[size_t(k - 1)][j / size];
            if (fits(node)) {
                take(node.longest, node.longestDuration, node.lastEnd, size);
                took = true;
            }
        }
        if (took)
            continue;
        const Slice &s = all[m_entries[j]];
        if (s.start - run.end > maxGap || s.duration >= maxDuration)
            break;
        take(m_entries[j], s.duration, s.end(), 1);
    }
    run.next = j - base;
    return run;
}

int DepthIndex::depthCount(TrackId track) const
{
    if (!m_trace || track.value + 1 >= m_trackFirstDepth.size())
        return 0;
    const uint32_t n = m_trackFirstDepth[track.value + 1] - m_trackFirstDepth[track.value];
    return n ? int(n - 1) : 0;
}

std::span<const uint32_t> DepthIndex::slices(TrackId track, int depth) const
{
    if (depth < 0 || depth >= depthCount(track))
        return {};
    const size_t k = m_trackFirstDepth[track.value] + size_t(depth);
    return std::span<const uint32_t>(m_entries.data() + m_depthOffsets[k], m_depthOffsets[k + 1] - m_depthOffsets[k]);
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
