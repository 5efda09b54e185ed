#pragma once
// The Engines dock (per-engine charts of a Neuron profile for the marked range, the whole trace
// without one) and the utilization strip under the timeline (its visible range), which the window
// places in its central area. Both follow their range at most every 60 ms (Throttle). Shown for
// traces with NeuronCore engines (unless the user closed the dock), hidden for GPU traces and
// comparisons. In a profile folder the execution box above
// the charts picks every execution of every core, or one device execution (DeviceExecutions): the
// charts then show its lane set only and the marked range becomes its span. The Show box switches the
// charts for a table per framework layer or HLO op (OpBreakdown: per engine instructions, instruction
// and active time, neuron-profile's FLOPs / MFU / HFU; `lanescope-cli engines --by layer|hlo`), computed
// on a worker thread; activating a row makes its instructions the timeline's search matches.
#include "panel.h"

#include <memory>

class QComboBox;
class QLabel;
class QStackedWidget;
class QTableView;

namespace lanescope {

class DeviceExecutions;
class DockJob;
struct OpBreakdownResult;
struct OpBreakdownRow;
template <typename Row, typename Result> class RowModel;
class EngineChartsView;
class Throttle;
class TimelineView;
class UtilizationStrip;

class EnginesPanel : public Panel
{
    Q_OBJECT
public:
    EnginesPanel(Session *session, TimelineView *timeline, QMainWindow *window);

    // Where the utilization strip goes under the timeline (empty, no height, until a trace has engines).
    QWidget *stripArea() const { return m_stripArea; }
    // The dock's widgets and the strip, made for the first trace with NeuronCore engines or on first use.
    UtilizationStrip *strip();
    EngineChartsView *charts();
    QComboBox *executionBox();
    enum class Mode { Charts, ByLayer, ByHloOp };
    void setMode(Mode mode);
    Mode mode() const;
    QTableView *opTable();
    // Makes the instructions of a row of the table (its source row) the timeline's matches; how many.
    size_t findOp(int sourceRow);
    void setDark(bool dark);
    bool hasEngines() const { return m_hasEngines; }
    // View > Reset Layout: forget that the user closed the dock; shown iff the trace has engines.
    void resetVisibility();

signals:
    void opsComputed();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void ensureBody();
    void onTraceChanged();
    void fillExecutionBox();
    void onExecutionChosen(int index);
    void computeOps();

    TimelineView *m_timeline;
    EngineChartsView *m_charts = nullptr; // null until ensureBody(), like the other widgets
    QComboBox *m_executionBox = nullptr;
    QWidget *m_executionRow = nullptr;
    QComboBox *m_modeBox = nullptr;
    QStackedWidget *m_stack = nullptr;
    RowModel<OpBreakdownRow, OpBreakdownResult> *m_opModel;
    QTableView *m_opView = nullptr;
    QLabel *m_opStatus = nullptr;
    DockJob *m_opJob;
    std::shared_ptr<const DeviceExecutions> m_executions;
    QWidget *m_stripArea;
    UtilizationStrip *m_strip = nullptr;
    Throttle *m_markedThrottle;
    Throttle *m_visibleThrottle;
    bool m_hasEngines = false;
    bool m_dark = false;
    bool m_userClosed = false; // closed with its button or the View menu: stays closed for the next Neuron trace
};

} // namespace lanescope
