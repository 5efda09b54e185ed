#include "lanelod.h"

#include "model/trace.h"
#include "model/depthindex.h"
#include "util/runoncores.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <thread>
#include <utility>

namespace lanescope {

int LaneLod::levelFor(const LaneGeometry::Viewport &vp)
{
    if (vp.t1 <= vp.t0 || vp.width <= 0)
        return -1;
    const double nsPerPx = double(vp.t1 - vp.t0) / vp.width;
    if (!(nsPerPx >= 1.0) || nsPerPx >= 0x1p60)
        return -1;
    int level = int(std::floor(std::log2(nsPerPx) * kStepsPerOctave));
    // log2 rounding: the level's bucket never exceeds a pixel.
    while (level > 0 && bucketOf(level) > nsPerPx)
        --level;
    return level;
}

int64_t LaneLod::bucketOf(int level)
{
    return std::max<int64_t>(1, int64_t(std::exp2(double(level) / kStepsPerOctave)));
}

bool LaneLod::covers(TrackId track, int level, int64_t t0, int64_t t1) const
{
    return m_valid && level >= 0 && m_track == track && m_level == level && m_from <= t0 && t1 <= m_to;
}

void LaneLod::clear()
{
    m_valid = false;
    m_items.clear();
    m_depthBegin.clear();
}

void LaneLod::build(const Trace &trace, const DepthIndex &index, TrackId track, int level, int64_t from, int64_t to,
                    size_t parallelFrom)
{
    clear();
    m_valid = true;
    m_track = track;
    m_level = level;
    m_from = from;
    m_to = to;
    const int64_t bucket = bucketOf(level); // 0.84 to 1 pixel
    const int64_t fold = bucket * 2;        // 1.7 to 2 pixels: narrower slices fold (house rule: ~2 px)
    // Gaps up to the next level's bucket (1 to 1.19 pixels) close, as LaneGeometry closes sub-pixel ones.
    const int64_t gap = std::max(bucket, bucketOf(level + 1) - 1);
    const auto depths = size_t(std::max(0, index.depthCount(track)));
    std::vector<std::pair<size_t, size_t>> ranges(depths); // per depth: the slices in range, by time
    size_t inRange = 0;
    for (size_t d = 0; d < depths; ++d) {
        ranges[d] = index.range(track, int(d), from, to);
        inRange += ranges[d].second - ranges[d].first;
    }
    // A lane of many slices in range (a new trace's first frame, a zoom to another level) has its depths
    // built on all cores, the largest first, then joined; a small one here, one depth after another.
    if (inRange < parallelFrom || depths < 2) {
        for (size_t d = 0; d < depths; ++d) {
            m_depthBegin.push_back(uint32_t(m_items.size()));
            buildDepth(trace, index, int(d), ranges[d], fold, gap, m_items);
        }
        m_depthBegin.push_back(uint32_t(m_items.size()));
        return;
    }
    std::vector<size_t> largestFirst(depths);
    std::iota(largestFirst.begin(), largestFirst.end(), size_t(0));
    const auto size = [&ranges](size_t d) { return ranges[d].second - ranges[d].first; };
    std::sort(largestFirst.begin(), largestFirst.end(), [&size](size_t a, size_t b) { return size(a) > size(b); });
    std::vector<std::vector<Item>> perDepth(depths);
    parallelFor(depths, std::thread::hardware_concurrency(), [&](size_t i) {
        const size_t d = largestFirst[i];
        buildDepth(trace, index, int(d), ranges[d], fold, gap, perDepth[d]);
    });
    size_t total = 0;
    for (const auto &items : perDepth)
        total += items.size();
    m_items.reserve(total);
    for (const auto &items : perDepth) {
        m_depthBegin.push_back(uint32_t(m_items.size()));
        m_items.insert(m_items.end(), items.begin(), items.end());
    }
    m_depthBegin.push_back(uint32_t(m_items.size()));
}

void LaneLod::buildDepth(const Trace &trace, const DepthIndex &index, int d, std::pair<size_t, size_t> range, int64_t fold,
                         int64_t gap, std::vector<Item> &out) const
{
    const auto all = trace.allSlices();
    const auto ids = index.slices(m_track, d);
    const auto [first, last] = range;
    for (size_t i = first; i < last; ++i) {
        const uint32_t id = ids[i];
        const Slice &s = all[id];
        if (s.duration >= fold) {
            out.push_back(Item{s.start, s.end(), id, 1, s.name.value, s.category.value});
            continue;
        }
        // A run of slices shorter than `fold`, at most `gap` apart (DepthIndex's summaries).
        const DepthIndex::Run run = index.consumeRun(m_track, d, i + 1, last, s.end(), gap, fold);
        Item item{s.start, s.end(), id, 1 + run.count, s.name.value, s.category.value};
        if (run.count) {
            item.end = run.end;
            if (run.longestDuration > s.duration) {
                item.slice = run.longest;
                item.name = all[run.longest].name.value;
                item.category = all[run.longest].category.value;
            }
        }
        out.push_back(item);
        i = run.next - 1;
    }
}

void LaneLod::map(const LaneGeometry::Viewport &vp, std::vector<LaneGeometry::SliceItem> &out) const
{
    const auto clampX = [&vp](double x) { return float(std::clamp(x, -2.0, vp.width + 2.0)); };
    for (size_t d = 0; d + 1 < m_depthBegin.size(); ++d) {
        const auto begin = m_items.begin() + m_depthBegin[d], end = m_items.begin() + m_depthBegin[d + 1];
        // Items of one depth follow each other (or the later outlives the earlier): their ends are
        // sorted as their starts.
        auto it = std::lower_bound(begin, end, vp.t0, [](const Item &a, int64_t t) { return a.end < t; });
        for (; it != end && it->start <= vp.t1; ++it) {
            if (it->end == vp.t0 && it->end != it->start)
                continue; // ends exactly where the view starts
            LaneGeometry::SliceItem item{clampX(vp.toX(it->start)), clampX(vp.toX(it->end)), it->slice, it->count,
                                         uint16_t(d), it->name, it->category};
            if (item.count > 1)
                item.x1 = std::max(item.x1, item.x0 + float(LaneGeometry::kMinSliceWidth));
            out.push_back(item);
        }
    }
}

} // namespace lanescope
