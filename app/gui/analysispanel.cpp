#include "analysispanel.h"

#include "session.h"

#include "timeline/timelineview.h"

#include "model/trace.h"

#include <QMainWindow>

namespace lanescope {

AnalysisPanel::AnalysisPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : Panel(tr("Analysis"), QStringLiteral("analysisDock"), session, window), m_timeline(timeline)
{
    connect(session, &Session::traceChanged, this, &AnalysisPanel::onTraceChanged);
    // The recompute runs in the background, so every change of the range may ask for one.
    connect(session, &Session::markedRangeChanged, this, [this] {
        if (m_tables)
            m_tables->setRange(this->session()->markedStart(), this->session()->markedEnd());
    });
    buildWhenSeen([this] { tables(); });
}

AnalysisTablesView *AnalysisPanel::tables()
{
    if (m_tables)
        return m_tables;
    m_tables = new AnalysisTablesView(this);
    setWidget(m_tables);
    // A clicked row: its occurrences become the timeline's matches, the first one is selected;
    // clicking it again or Next steps through them in time order.
    connect(m_tables, &AnalysisTablesView::occurrencesSelected, this,
            [this](const std::vector<uint32_t> &slices, const QString &label) {
                m_timeline->setSearchMatches(slices);
                m_timeline->goToMatch(0);
                emit this->session()->statusMessage(label, 5000);
            });
    connect(m_tables, &AnalysisTablesView::nextOccurrenceRequested, m_timeline, [this] { m_timeline->stepMatch(true); });
    if (session()->trace()) {
        m_tables->setTrace(session()->trace(), session()->analysis());
        if (session()->hasMarkedRange())
            m_tables->setRange(session()->markedStart(), session()->markedEnd());
    }
    return m_tables;
}

void AnalysisPanel::onTraceChanged()
{
    const bool comparison = session()->trace()->metadata().format == "comparison";
    if (comparison && !m_hiddenForCompare) {
        m_hiddenForCompare = true;
        m_wasVisible = isVisible();
        hide();
    } else if (!comparison && m_hiddenForCompare) {
        m_hiddenForCompare = false;
        setVisible(m_wasVisible);
    }
    if (m_tables) // else made with this trace once the window asks (after the first frame) or the dock is shown
        m_tables->setTrace(session()->trace(), session()->analysis());
}

void AnalysisPanel::present(AnalysisTablesView::Table table, int height)
{
    show();
    raise();
    mainWindow()->resizeDocks({this}, {height}, Qt::Vertical);
    tables()->setCurrentTable(table);
}

void AnalysisPanel::whenComputed(std::function<void()> action)
{
    if (!tables()->isComputing()) {
        action();
        return;
    }
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(m_tables, &AnalysisTablesView::computed, this, [this, connection, action = std::move(action)] {
        if (m_tables->isComputing())
            return; // a newer computation is on its way
        disconnect(*connection);
        action();
    });
}

} // namespace lanescope

