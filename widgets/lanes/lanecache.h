#pragma once
// The TimelineView's per-lane geometry, one LaneGeometry per layout row, valid for one viewport
// (visible range and width). A lane is built the first time a frame asks for it and kept until the
// viewport, the layout or the data change, so hover, selection and scrolling repaint from it. From
// one ns per pixel up, each lane's slices come from its LaneLod, which outlives viewport changes
// within one zoom level (panning, whole-trace repaints) and is dropped with the layout or the data.
#include "lanegeometry.h"
#include "lanelod.h"

#include <cstddef>
#include <vector>

namespace lanescope {

class DepthIndex;
class TimelineLayout;
class Trace;

class LaneCache
{
public:
    // One empty lane per row (after a layout change).
    void reset(size_t rowCount);
    // Every lane is rebuilt on next use (range, width or data changed).
    void invalidate();
    // The lane of a layout row for `vp`; rebuilds it when it is stale or `vp` differs from the
    // viewport the cache was built for.
    const LaneGeometry &lane(const Trace &trace, const DepthIndex &index, const TimelineLayout &layout,
                             size_t rowIndex, const LaneGeometry::Viewport &vp);

private:
    std::vector<LaneGeometry> m_lanes;
    std::vector<LaneLod> m_lods; // parallel to m_lanes
    LaneGeometry::Viewport m_viewport;
};

} // namespace lanescope
