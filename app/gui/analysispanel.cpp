#include "analysispanel.h"

#include "session.h"

#include "timeline/timelineview.h"

#include "model/trace.h"

#include <QMainWindow>

namespace lanescope {

AnalysisPanel::AnalysisPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : Panel(tr("Analysis"), QStringLiteral("analysisDock"), session, window), m_timeline(timeline),
      m_tables(new AnalysisTablesView(this))
{
    setWidget(m_tables);
    connect(session, &Session::traceChanged, this, &AnalysisPanel::onTraceChanged);
    // The recompute runs in the background, so every change of the range may ask for one.
    connect(session, &Session::markedRangeChanged, m_tables,
            [this] { m_tables->setRange(this->session()->markedStart(), this->session()->markedEnd()); });
    // A clicked row: its occurrences become the timeline's matches, the first one is selected;
    // clicking it again or Next steps through them in time order.
    connect(m_tables, &AnalysisTablesView::occurrencesSelected, this,
            [this](const std::vector<uint32_t> &slices, const QString &label) {
                m_timeline->setSearchMatches(slices);
                m_timeline->goToMatch(0);
                emit this->session()->statusMessage(label, 5000);
            });
    connect(m_tables, &AnalysisTablesView::nextOccurrenceRequested, m_timeline, [this] { m_timeline->stepMatch(true); });
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
    m_tables->setTrace(session()->trace(), session()->analysis());
}

void AnalysisPanel::present(AnalysisTablesView::Table table, int height)
{
    show();
    raise();
    mainWindow()->resizeDocks({this}, {height}, Qt::Vertical);
    m_tables->setCurrentTable(table);
}

void AnalysisPanel::whenComputed(std::function<void()> action)
{
    if (!m_tables->isComputing()) {
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

