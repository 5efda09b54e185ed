#pragma once
// What a TimelineView draws over its lanes, straight from the model and the view's state (never
// from the lane cache, so hover and selection changes cost no rebuild): the selected time range,
// search matches, the selected slice, its dependency chain's arrows and critical path, flow arrows, the box-zoom rectangle and the cursor line; in
// the ruler, the range's duration and the cursor time readout.
#include <QPointF>

class QPainter;

namespace lanescope {

class TimelineView;

class TimelineOverlays
{
public:
    TimelineOverlays(TimelineView &view, QPainter &painter) : m_view(view), m_p(painter) {}

    void paintLanes();
    void paintRuler();

private:
    void paintRange();
    void paintMatches();
    void paintSelectedSlice();
    void paintFlows();
    void paintChain();
    void paintArrow(QPointF from, QPointF to, bool head);
    void paintBox();
    void paintCursor();
    void paintReorder();

    TimelineView &m_view;
    QPainter &m_p;
};

} // namespace lanescope
