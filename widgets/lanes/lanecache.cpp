#include "lanecache.h"

#include "timeline/timelinelayout.h"

#include <algorithm>
#include <cstdint>

namespace lanescope {

void LaneCache::reset(size_t rowCount)
{
    m_lanes.assign(rowCount, LaneGeometry());
    m_lods.assign(rowCount, LaneLod());
}

void LaneCache::invalidate()
{
    for (LaneGeometry &g : m_lanes)
        g.valid = false;
}

const LaneGeometry &LaneCache::lane(const Trace &trace, const DepthIndex &index, const TimelineLayout &layout,
                                    size_t rowIndex, const LaneGeometry::Viewport &vp)
{
    if (vp.t0 != m_viewport.t0 || vp.t1 != m_viewport.t1 || vp.width != m_viewport.width) {
        invalidate();
        m_viewport = vp;
    }
    if (m_lanes.size() < layout.rows().size()) {
        m_lanes.resize(layout.rows().size());
        m_lods.resize(layout.rows().size());
    }
    LaneGeometry &g = m_lanes[rowIndex];
    if (g.valid)
        return g;
    const TrackId track = layout.rows()[rowIndex].track();
    const int level = LaneLod::levelFor(vp);
    if (level < 0) {
        g.build(trace, index, track, vp);
        return g;
    }
    LaneLod &lod = m_lods[rowIndex];
    if (!lod.covers(track, level, vp.t0, vp.t1)) {
        const int64_t span = vp.t1 - vp.t0; // one screen either side: pans reuse it
        lod.build(trace, index, track, level, vp.t0 - std::min(span, vp.t0 - INT64_MIN / 2),
                  vp.t1 + std::min(span, INT64_MAX / 2 - vp.t1));
    }
    if (g.buildAllButSlices(trace, track, vp))
        lod.map(vp, g.slices);
    return g;
}

} // namespace lanescope
