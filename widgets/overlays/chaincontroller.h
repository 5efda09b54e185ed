#pragma once
// Dependency chains in the viewer: builds the trace's DependencyGraph in the background when a trace
// is set (the GUI never waits for it; until it is ready a selection simply shows no chain), then on
// every selection in the timeline queries the chain (DependencyChain) and hands it to the timeline
// (highlight, arrows, critical path) and the graph to the details panel (predecessor / successor
// links). Its actions: walk back / forward along the chain ([ and ]) and show the critical path.
#include "analysis/dependencygraph.h"

#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <memory>

class QAction;

namespace lanescope {

class SliceDetailsView;
class TimelineView;
class Trace;

class ChainController : public QObject
{
    Q_OBJECT
public:
    ChainController(TimelineView *timeline, SliceDetailsView *details, QObject *parent = nullptr);
    // Stops a build in flight and waits for its thread.
    ~ChainController() override;

    // Drops the old graph and starts building the new one (null: nothing).
    void setTrace(std::shared_ptr<const Trace> trace);
    const std::shared_ptr<const DependencyGraph> &graph() const { return m_graph; }
    bool isBuilding() const { return m_watcher.isRunning(); }
    // Milliseconds the last completed build took.

    // [ : to the selection's predecessor, ] : to its successor. On the critical path when the
    // selection is on it, else the first predecessor / successor (explicit edges before nesting).
    void stepBack();
    void stepForward();
    void setShowCriticalPath(bool on);
    bool showCriticalPath() const { return m_showCriticalPath; }

    QAction *previousAction() const { return m_previous; }
    QAction *nextAction() const { return m_next; }
    QAction *criticalPathAction() const { return m_criticalPathAction; }

signals:
    void graphReady();

private:
    struct Built
    {
        std::shared_ptr<const DependencyGraph> graph;
        uint64_t id = 0;
    };
    void onBuilt();
    void updateChain();
    void step(bool forward);

    TimelineView *m_timeline;
    SliceDetailsView *m_details;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const DependencyGraph> m_graph;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<Built> m_watcher;
    uint64_t m_buildId = 0;
    bool m_showCriticalPath = false;
    QAction *m_previous = nullptr;
    QAction *m_next = nullptr;
    QAction *m_criticalPathAction = nullptr;
};

} // namespace lanescope
