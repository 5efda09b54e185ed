#pragma once
// The Engines dock (per-engine charts of a Neuron profile for the marked range, the whole trace
// without one) and the utilization strip under the timeline (its visible range), which the window
// places in its central area. Both follow their range at most every 60 ms (Throttle). Shown for
// traces with NeuronCore engines, hidden for comparisons.
#include "panel.h"

namespace lanescope {

class EngineChartsView;
class Throttle;
class TimelineView;
class UtilizationStrip;

class EnginesPanel : public Panel
{
    Q_OBJECT
public:
    EnginesPanel(Session *session, TimelineView *timeline, QMainWindow *window);

    UtilizationStrip *strip() const { return m_strip; }
    EngineChartsView *charts() const { return m_charts; }
    void setDark(bool dark);

private:
    void onTraceChanged();

    TimelineView *m_timeline;
    EngineChartsView *m_charts;
    UtilizationStrip *m_strip;
    Throttle *m_markedThrottle;
    Throttle *m_visibleThrottle;
};

} // namespace lanescope
