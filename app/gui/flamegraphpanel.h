#pragma once
// The Flame Graph dock (object name "flameGraphDock", issue 30): the call tree of the host threads
// (CallTree, the numbers `lanescope-cli tree` prints) drawn as a flame graph (FlameGraphView).
// Weights: CPU time (inclusive), Self time (the bottom-up tree, CallTreeBottomUp: the frames that
// hold the time first, their callers beneath), device time launched. Each thread apart or all
// threads merged. Restricted to the marked range when there is one. A click on a box makes the
// node's slices the timeline's search matches (Enter / Shift+Enter step through them) and goes to
// the first; double-click zooms. In compare mode the graph is differential (CallTreeDiff): the shape
// of B (the other profile), each box coloured by its change from A (the base) at the same path,
// threads merged on both sides; each side is computed on its profile's own trace (with its own
// LaunchIndex: the combined trace mixes the profiles' correlation ids) and B's slices are mapped to
// the combined trace's for the timeline. Shown by itself (tabbed, not raised) for traces with Python call
// stacks (python_function events, `with_stack=True`); Shift+F shows and raises it. Computed on a
// worker thread while the dock is visible; an outdated result is dropped.
#include "panel.h"

#include "analysis/calltree.h"

#include <cstdint>
#include <memory>
#include <vector>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QScrollArea;

namespace lanescope {

class DockJob;
class FlameGraphView;
class TimelineView;
class Trace;

class FlameGraphPanel : public Panel
{
    Q_OBJECT
public:
    enum class Mode { Cpu, Self, Device }; // the weight box's entries, in order

    FlameGraphPanel(Session *session, TimelineView *timeline, QMainWindow *window);
    ~FlameGraphPanel() override;

    QAction *showAction() const { return m_action; }
    // Shows and raises the dock, tall enough for a few dozen frames (Shift+F).
    void present();
    FlameGraphView *view() const { return m_view; }
    QComboBox *modeBox() const { return m_mode; }
    QComboBox *threadsBox() const { return m_threads; }
    QLineEdit *searchEdit() const { return m_search; }
    QLabel *statusLabel() const { return m_status; }
    bool isComputing() const;
    // The top-down tree of the result on screen (B's in compare mode).
    const CallTree::Result *topDown() const { return m_topDown.get(); }
    // The slices of a node of the graph on screen, in track then time order.
    std::vector<SliceId> occurrencesOf(uint32_t node) const;
    // Selects a node of the graph on screen: its slices become the timeline's matches.
    void selectNode(uint32_t node);
    void setDark(bool dark);
    // Computes again with the box settings and the marked range (the boxes' own changes do this).
    void recompute();
    // After Reset Layout: shown again when the trace has call stacks.
    void resetVisibility();

signals:
    void computed();
    // A frame was clicked (its name as in the trace, e.g. "train.py(118): step"): the Source dock shows it.
    void frameSelected(const QString &name);

private:
    struct Computed;
    void onTraceChanged();
    bool hasCallStacks() const;
    void onComputed(const std::shared_ptr<Computed> &result, double ms);
    void showStatus();

    TimelineView *m_timeline;
    FlameGraphView *m_view;
    QScrollArea *m_scroll;
    QComboBox *m_mode;
    QComboBox *m_threads;
    QCheckBox *m_flame;
    QLineEdit *m_search;
    QLabel *m_status;
    QAction *m_action;
    DockJob *m_job;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const CallTree::Result> m_topDown; // the tree the shown one was made from
    QString m_scope, m_selection, m_differential;
    bool m_userClosed = false;
    bool m_dark = false;
};

} // namespace lanescope
