#include "rangepanel.h"

#include "session.h"
#include "throttle.h"

#include "style/durationformat.h"
#include "tables/rangesummarymodel.h"

#include <QHeaderView>
#include <QTableView>

#include <algorithm>

namespace lanescope {

RangePanel::RangePanel(Session *session, QMainWindow *window, std::vector<QDockWidget *> keepInFront)
    : Panel(tr("Range Summary"), QStringLiteral("rangeDock"), session, window), m_model(new RangeSummaryModel(this)),
      m_keepInFront(std::move(keepInFront)), m_throttle(new Throttle([this] { refresh(); }, this))
{
    connect(session, &Session::traceChanged, m_model, &RangeSummaryModel::setTrace);
    connect(session, &Session::markedRangeChanged, m_throttle, &Throttle::poke);
    tableWhenSeen(m_model, RangeSummaryModel::SortRole, RangeSummaryModel::Total,
                  [](QTableView *view) { view->horizontalHeader()->setSectionResizeMode(RangeSummaryModel::Name, QHeaderView::Stretch); });
}

void RangePanel::refresh()
{
    const int64_t start = session()->markedStart(), end = session()->markedEnd();
    m_model->setRange(start, end);
    if (!session()->hasMarkedRange())
        return;
    table(); // a marked range shows the dock: its table is needed now
    show();
    if (std::all_of(m_keepInFront.begin(), m_keepInFront.end(), [](QDockWidget *d) { return d->visibleRegion().isEmpty(); }))
        raise();
    setWindowTitle(tr("Range Summary: %1").arg(DurationFormat::format(end - start)));
}

} // namespace lanescope
