#include "lanecache.h"

#include "timelinelayout.h"

namespace lanescope {

void LaneCache::reset(size_t rowCount)
{
    m_lanes.assign(rowCount, LaneGeometry());
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
    if (m_lanes.size() < layout.rows().size())
        m_lanes.resize(layout.rows().size());
    LaneGeometry &g = m_lanes[rowIndex];
    if (!g.valid)
        g.build(trace, index, layout.rows()[rowIndex].track(), vp);
    return g;
}

} // namespace lanescope
