#pragma once
// Paints one frame of a TimelineView: background, grid, group headers, lanes (nested slices,
// instants, counters) from the view's cached LaneGeometry, then the overlays and the ruler.
#include "lanegeometry.h"
#include "timelinelayout.h"
#include "timeruler.h"

#include <vector>

class QPainter;

namespace lanescope {

class TimelineView;

class TimelinePainter
{
public:
    static constexpr double kMinTextWidth = 24; // px: narrower slices carry no label
    static constexpr int kMaxHeaderWidth = 240;

    TimelinePainter(TimelineView &view, QPainter &painter) : m_view(view), m_p(painter) {}

    void paint();

private:
    void paintEmpty();
    void paintStickyHeaders(size_t firstRow);
    void paintRuler(const std::vector<TimeRuler::Tick> &ticks);
    void paintGrid(const std::vector<TimeRuler::Tick> &ticks);
    void paintGroupRow(const TimelineLayout::Row &row, int y);
    void paintTrackRow(size_t rowIndex, int y);
    void paintSlices(const TimelineLayout::Row &row, const LaneGeometry &g, int y);
    void paintInstants(const TimelineLayout::Row &row, const LaneGeometry &g, int y);
    void paintCounter(const TimelineLayout::Row &row, const LaneGeometry &g, int y);

    TimelineView &m_view;
    QPainter &m_p;
};

} // namespace lanescope
