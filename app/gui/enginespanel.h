#pragma once
// The Engines dock (per-engine charts of a Neuron profile for the marked range, the whole trace
// without one) and the utilization strip under the timeline (its visible range), which the window
// places in its central area. Both follow their range at most every 60 ms (Throttle). Shown for
// traces with NeuronCore engines (unless the user closed the dock), hidden for GPU traces and
// comparisons. In a profile folder the execution box above
// the charts picks every execution of every core, or one device execution (DeviceExecutions): the
// charts then show its lane set only and the marked range becomes its span.
#include "panel.h"

#include <memory>

class QComboBox;

namespace lanescope {

class DeviceExecutions;
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
    QComboBox *executionBox() const { return m_executionBox; }
    void setDark(bool dark);
    bool hasEngines() const { return m_hasEngines; }
    // View > Reset Layout: forget that the user closed the dock; shown iff the trace has engines.
    void resetVisibility();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void onTraceChanged();
    void fillExecutionBox();
    void onExecutionChosen(int index);

    TimelineView *m_timeline;
    EngineChartsView *m_charts;
    QComboBox *m_executionBox;
    std::shared_ptr<const DeviceExecutions> m_executions;
    UtilizationStrip *m_strip;
    Throttle *m_markedThrottle;
    Throttle *m_visibleThrottle;
    bool m_hasEngines = false;
    bool m_userClosed = false; // closed with its button or the View menu: stays closed for the next Neuron trace
};

} // namespace lanescope
