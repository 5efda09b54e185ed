#include "chaincontroller.h"

#include "details/slicedetailsview.h"
#include "timeline/timelineview.h"

#include "analysis/dependencychain.h"
#include "model/trace.h"
#include "util/workerpool.h"

#include <QAction>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace lanescope {

ChainController::ChainController(TimelineView *timeline, SliceDetailsView *details, QObject *parent)
    : QObject(parent), m_timeline(timeline), m_details(details)
{
    m_previous = new QAction(tr("Previous in Chain"), this);
    m_previous->setShortcut(QKeySequence(Qt::Key_BracketLeft));
    m_previous->setToolTip(tr("Select what the selected slice depends on ([)"));
    connect(m_previous, &QAction::triggered, this, &ChainController::stepBack);
    m_next = new QAction(tr("Next in Chain"), this);
    m_next->setShortcut(QKeySequence(Qt::Key_BracketRight));
    m_next->setToolTip(tr("Select what depends on the selected slice (])"));
    connect(m_next, &QAction::triggered, this, &ChainController::stepForward);
    m_criticalPathAction = new QAction(tr("Show Critical &Path"), this);
    m_criticalPathAction->setCheckable(true);
    m_criticalPathAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_criticalPathAction->setToolTip(tr("Outline the longest dependent path through the selected slice"));
    connect(m_criticalPathAction, &QAction::toggled, this, &ChainController::setShowCriticalPath);
    connect(&m_watcher, &QFutureWatcher<Built>::finished, this, &ChainController::onBuilt);
    connect(m_timeline, &TimelineView::sliceSelected, this, &ChainController::updateChain);
}

ChainController::~ChainController()
{
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished();
}

void ChainController::setTrace(std::shared_ptr<const Trace> trace)
{
    if (m_cancel)
        m_cancel->store(true);
    m_trace = std::move(trace);
    m_graph.reset();
    m_details->setDependencyGraph(nullptr);
    m_timeline->setChain(nullptr);
    if (!m_trace)
        return;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const uint64_t id = ++m_buildId;
    // A replaced build keeps running until its next cancel check; it owns what it reads and its result is dropped.
    m_watcher.setFuture(QtConcurrent::run(workerPool(), [trace = m_trace, cancel = m_cancel, id] {
        auto graph = std::make_shared<const DependencyGraph>(DependencyGraph::build(*trace, [cancel] { return cancel->load(); }));
        return Built{graph->empty() ? nullptr : graph, id};
    }));
}

void ChainController::onBuilt()
{
    const Built built = m_watcher.result();
    if (built.id != m_buildId || !built.graph || built.graph->trace() != m_trace.get())
        return; // replaced or cancelled
    m_graph = built.graph;
    m_details->setDependencyGraph(m_graph);
    updateChain();
    emit graphReady();
}

void ChainController::updateChain()
{
    const SliceId selected = m_timeline->selectedSlice();
    if (!m_graph || !selected.isValid()) {
        m_timeline->setChain(nullptr);
        return;
    }
    auto chain = std::make_shared<const DependencyChain>(DependencyChain::query(*m_graph, selected));
    std::vector<SliceId> path = m_showCriticalPath ? chain->criticalPath() : std::vector<SliceId>();
    m_timeline->setChain(std::move(chain), std::move(path));
}

void ChainController::setShowCriticalPath(bool on)
{
    if (on == m_showCriticalPath)
        return;
    m_showCriticalPath = on;
    if (m_criticalPathAction->isChecked() != on)
        m_criticalPathAction->setChecked(on);
    updateChain();
}

void ChainController::stepBack() { step(false); }
void ChainController::stepForward() { step(true); }

void ChainController::step(bool forward)
{
    const SliceId selected = m_timeline->selectedSlice();
    if (!m_graph || !selected.isValid())
        return;
    SliceId target;
    // Along the critical path when the selection is on it (the path the user is looking at).
    const DependencyChain *chain = m_timeline->chain().get();
    std::vector<SliceId> path = m_timeline->criticalPath();
    if (path.empty() && chain && chain->root() == selected)
        path = chain->criticalPath();
    const auto at = std::find(path.begin(), path.end(), selected);
    if (at != path.end()) {
        if (forward && at + 1 != path.end())
            target = *(at + 1);
        else if (!forward && at != path.begin())
            target = *(at - 1);
    }
    if (!target.isValid()) {
        const auto edges = forward ? m_graph->successors(selected) : m_graph->predecessors(selected);
        if (!edges.empty())
            target = forward ? edges.front().to : edges.front().from;
    }
    if (target.isValid())
        m_timeline->revealSlice(target);
}

} // namespace lanescope
