#include "lanelod.h"

#include "model/trace.h"
#include "model/depthindex.h"

#include <algorithm>
#include <cmath>

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

void LaneLod::build(const Trace &trace, const DepthIndex &index, TrackId track, int level, int64_t from, int64_t to)
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
    const auto all = trace.allSlices();
    const int depths = index.depthCount(track);
    for (int d = 0; d < depths; ++d) {
        m_depthBegin.push_back(uint32_t(m_items.size()));
        const auto ids = index.slices(track, d);
        const auto [first, last] = index.range(track, d, from, to);
        for (size_t i = first; i < last; ++i) {
            const uint32_t id = ids[i];
            const Slice &s = all[id];
            if (s.duration >= fold) {
                m_items.push_back(Item{s.start, s.end(), id, 1, s.name.value, s.category.value});
                continue;
            }
            // A run of slices shorter than `fold`, at most `gap` apart (DepthIndex's summaries).
            const DepthIndex::Run run = index.consumeRun(track, d, i + 1, last, s.end(), gap, fold);
            Item item{s.start, s.end(), id, 1 + run.count, s.name.value, s.category.value};
            if (run.count) {
                item.end = run.end;
                if (run.longestDuration > s.duration) {
                    item.slice = run.longest;
                    item.name = all[run.longest].name.value;
                    item.category = all[run.longest].category.value;
                }
            }
            m_items.push_back(item);
            i = run.next - 1;
        }
    }
    m_depthBegin.push_back(uint32_t(m_items.size()));
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
