#include "collectivespanel.h"

#include "dockjob.h"
#include "session.h"

#include "style/durationformat.h"
#include "tables/rowtablemodel.h"
#include "timeline/timelineview.h"

#include "analysis/tablerows.h"
#include "model/trace.h"
#include "util/unittext.h"

#include <QAction>
#include <QLabel>
#include <QMainWindow>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace lanescope {

namespace {

// Bandwidths as "1.94 GiB/s" (the raw bytes/s stay the sort value and the CSV's).
std::vector<RowModel<CollectiveRow, std::vector<CollectiveRow>>::Decoration> decorations()
{
    const auto rate = [](const std::optional<double> &v, int role) -> QVariant {
        if (role != Qt::DisplayRole || !v)
            return {};
        return QString::fromStdString(UnitText::bytes(*v)) + QStringLiteral("/s");
    };
    return {{"algbw_bytes_per_s", [rate](const CollectiveRow &r, int role) { return rate(r.algBwBytesPerSec, role); }},
            {"busbw_bytes_per_s", [rate](const CollectiveRow &r, int role) { return rate(r.busBwBytesPerSec, role); }}};
}

} // namespace

CollectivesPanel::CollectivesPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : Panel(tr("Collectives"), QStringLiteral("collectivesDock"), session, window), m_timeline(timeline),
      m_model(new RowModel<CollectiveRow, std::vector<CollectiveRow>>(TableRows::collectives(), decorations(), this)), m_status(new QLabel(this)),
      m_job(new DockJob(this, [this] { compute(); }, 0))
{
    m_view = makeTable(m_model, RowTableModel::SortRole, m_model->column("total_ns"));
    m_view->setToolTip(tr("Double-click or Enter: the row's kernels (every rank) become the timeline's matches"));
    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    m_status->setWordWrap(true);
    m_status->setContentsMargins(6, 2, 6, 2);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);
    setWidget(content);
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex &index) {
        findRow(static_cast<const QSortFilterProxyModel *>(m_view->model())->mapToSource(index).row());
    });
    connect(session, &Session::traceChanged, this, &CollectivesPanel::onTraceChanged);
    connect(toggleViewAction(), &QAction::triggered, this, [this](bool checked) { m_userClosed = !checked; });
    window->addDockWidget(Qt::BottomDockWidgetArea, this);
}

void CollectivesPanel::resetVisibility()
{
    m_userClosed = false;
    setVisible(m_hasContent);
    if (m_hasContent)
        m_job->request();
}

void CollectivesPanel::onTraceChanged()
{
    m_job->drop();
    m_model->setResult({});
    m_result = {};
    const std::shared_ptr<const Trace> &trace = session()->trace();
    // Cheap: a kernel named nccl* / rccl* or one carrying "Collective name" decides the dock's visibility.
    m_hasContent = false;
    if (trace && trace->metadata().format != "comparison") {
        const StringId kernel = trace->strings().find("kernel");
        m_hasContent = kernel.isValid() && trace->strings().find("Collective name").isValid();
        for (size_t i = 0; !m_hasContent && kernel.isValid() && i < trace->strings().size(); ++i) {
            const std::string_view s = trace->str(StringId(uint32_t(i)));
            m_hasContent = s.starts_with("ncclKernel_") || s.starts_with("ncclDevKernel_") || s.starts_with("rcclKernel");
        }
    }
    setVisible(m_hasContent && !m_userClosed);
    m_job->request();
}

void CollectivesPanel::compute()
{
    std::shared_ptr<const Trace> trace = session()->trace();
    if (!trace || !m_hasContent)
        return;
    m_job->start<CollectiveTableResult>([trace] { return CollectiveTable::compute(*trace); },
                                        [this](const CollectiveTableResult &r, double) {
                                            m_result = r;
                                            std::vector<CollectiveRow> rows = r.rows;
                                            rows.insert(rows.end(), r.perRank.begin(), r.perRank.end());
                                            m_model->setResult(std::move(rows));
                                            m_view->resizeColumnsToContents();
                                            m_status->setText(tr("%n collective kernel(s), %1 on the GPU; rows across ranks (rank empty), "
                                                                 "then per rank; double-click one to find its kernels",
                                                                 nullptr, int(r.instances.size()))
                                                                  .arg(DurationFormat::format(r.totalNs)));
                                            setWindowTitle(tr("Collectives (%1)").arg(r.instances.size()));
                                            emit computed();
                                        });
}

size_t CollectivesPanel::findRow(int sourceRow)
{
    const CollectiveRow *row = m_model->row(sourceRow);
    if (!row)
        return 0;
    std::vector<uint32_t> ids;
    for (const CollectiveInstance &c : m_result.instances)
        if (CollectiveTable::inRow(c, *row))
            ids.push_back(c.slice.value);
    const size_t n = ids.size();
    if (!ids.empty()) {
        m_timeline->setSearchMatches(std::move(ids));
        m_timeline->goToMatch(0);
    }
    return n;
}

} // namespace lanescope
