#include "collectivespanel.h"

#include "dockjob.h"
#include "session.h"

#include "charts/collectivedurationsview.h"
#include "style/durationformat.h"
#include "tables/rowtablemodel.h"
#include "timeline/timelineview.h"

#include "analysis/launchindex.h"
#include "analysis/tablerows.h"
#include "analysis/traceanalysis.h"
#include "model/trace.h"
#include "util/unittext.h"

#include <QLabel>
#include <QMainWindow>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace lanescope {

namespace {

constexpr size_t kPlottedGroups = 12; // the groups with the most total time

// Message sizes as "30 MiB" (the raw bytes stay the sort value and the CSV's).
template <typename Row> std::vector<typename RowModel<Row, std::vector<Row>>::Decoration> messageBytes(std::optional<uint64_t> Row::*field)
{
    return {{"message_bytes", [field](const Row &r, int role) -> QVariant {
                 if (role != Qt::DisplayRole || !(r.*field))
                     return {};
                 return QString::fromStdString(UnitText::bytes(double(*(r.*field))));
             }}};
}

// Bandwidths as "1.94 GiB/s" (the raw bytes/s stay the sort value and the CSV's).
std::vector<RowModel<CollectiveRow, std::vector<CollectiveRow>>::Decoration> decorations()
{
    const auto rate = [](const std::optional<double> &v, int role) -> QVariant {
        if (role != Qt::DisplayRole || !v)
            return {};
        return QString::fromStdString(UnitText::bytes(*v)) + QStringLiteral("/s");
    };
    auto all = messageBytes<CollectiveRow>(&CollectiveRow::messageBytes);
    all.push_back({"algbw_bytes_per_s", [rate](const CollectiveRow &r, int role) { return rate(r.algBwBytesPerSec, role); }});
    all.push_back({"busbw_bytes_per_s", [rate](const CollectiveRow &r, int role) { return rate(r.busBwBytesPerSec, role); }});
    return all;
}

// A page of the tabs: an optional note above a view.
QWidget *page(QWidget *parent, QWidget *view, QLabel *note = nullptr)
{
    auto *w = new QWidget(parent);
    auto *layout = new QVBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    if (note) {
        note->setWordWrap(true);
        note->setContentsMargins(6, 2, 6, 2);
        note->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(note);
    }
    layout->addWidget(view, 1);
    return w;
}

QString groupLabel(const CollectiveRow &r)
{
    QString label = QString::fromStdString(r.kind);
    if (r.messageBytes)
        label += QLatin1Char(' ') + QString::fromStdString(UnitText::bytes(double(*r.messageBytes)));
    if (!r.processGroup.empty() && r.processGroup != "0")
        label += QStringLiteral(" pg ") + QString::fromStdString(r.processGroup);
    return label;
}

int sourceRow(const QTableView *view, const QModelIndex &index)
{
    return static_cast<const QSortFilterProxyModel *>(view->model())->mapToSource(index).row();
}

} // namespace

CollectivesPanel::CollectivesPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : ComputedDock(tr("Collectives"), QStringLiteral("collectivesDock"), session, window), m_timeline(timeline),
      m_model(new RowModel<CollectiveRow, std::vector<CollectiveRow>>(TableRows::collectives(), decorations(), this)),
      m_overlapModel(new RowModel<CommOverlapRow, std::vector<CommOverlapRow>>(TableRows::overlap(), {}, this)),
      m_skewModel(new RowModel<MatchedCollective, std::vector<MatchedCollective>>(TableRows::matchedCollectives(), messageBytes<MatchedCollective>(&MatchedCollective::bytes), this)),
      m_latenessModel(new RowModel<RankLateness, std::vector<RankLateness>>(TableRows::rankLateness(), {}, this))
{
    window->addDockWidget(Qt::BottomDockWidgetArea, this);
    buildWhenSeen([this] { ensureBody(); });
}

// The tabs, tables and chart: made when the dock is first shown or has a result (most traces have no
// collectives, and the window starts faster without them).
void CollectivesPanel::ensureBody()
{
    if (m_tabs)
        return;
    m_tabs = new QTabWidget(this);
    m_durations = new CollectiveDurationsView(this);
    m_durations->setDark(m_dark);
    m_status = new QLabel(this);
    m_view = newTable(m_model, RowTableModel::SortRole, m_model->column("total_ns"));
    m_view->setToolTip(tr("Double-click or Enter: the row's kernels (every rank) become the timeline's matches"));
    m_overlapView = newTable(m_overlapModel, RowTableModel::SortRole, m_overlapModel->column("exposed_ns"));
    m_overlapView->setToolTip(tr("HTA's temporal breakdown: a row per GPU (step empty), then per step"));
    m_latenessView = newTable(m_latenessModel, RowTableModel::SortRole, m_latenessModel->column("late_ns"));
    m_latenessView->setToolTip(tr("How often each rank entered a matched collective last, how late, and how long the others waited"));
    m_skewView = newTable(m_skewModel, RowTableModel::SortRole, m_skewModel->column("skew_ns"));
    m_skewView->setToolTip(tr("Double-click or Enter: the collective on every rank (matches), first to last entry marked"));
    auto *skew = new QSplitter(Qt::Horizontal, m_tabs); // the dock is wide and short: ranks beside instances
    skew->addWidget(m_latenessView);
    skew->addWidget(m_skewView);
    skew->setStretchFactor(0, 2);
    skew->setStretchFactor(1, 3);
    m_tabs->addTab(page(m_tabs, m_view, m_status), tr("Collectives"));
    m_tabs->addTab(page(m_tabs, m_overlapView), tr("Overlap"));
    m_tabs->addTab(skew, tr("Skew"));
    m_tabs->addTab(page(m_tabs, m_durations), tr("Durations"));
    setWidget(m_tabs);
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex &i) { findRow(sourceRow(m_view, i)); });
    connect(m_skewView, &QTableView::activated, this, [this](const QModelIndex &i) { selectMatched(size_t(sourceRow(m_skewView, i))); });
    connect(m_latenessView, &QTableView::activated, this, [this](const QModelIndex &i) {
        const RankLateness *r = m_latenessModel->row(sourceRow(m_latenessView, i));
        if (r && r->worst >= 0)
            selectMatched(size_t(r->worst));
    });
    connect(m_durations, &CollectiveDurationsView::instanceClicked, this, [this](uint32_t i) { findInstance(i); });
}

QTabWidget *CollectivesPanel::tabs()
{
    ensureBody();
    return m_tabs;
}

QTableView *CollectivesPanel::table()
{
    ensureBody();
    return m_view;
}

QTableView *CollectivesPanel::overlapTable()
{
    ensureBody();
    return m_overlapView;
}

QTableView *CollectivesPanel::skewTable()
{
    ensureBody();
    return m_skewView;
}

QTableView *CollectivesPanel::latenessTable()
{
    ensureBody();
    return m_latenessView;
}

CollectiveDurationsView *CollectivesPanel::durations()
{
    ensureBody();
    return m_durations;
}

bool CollectivesPanel::hasContentFor(const Trace &trace) const
{
    // Cheap: a kernel named nccl* / rccl* or one carrying "Collective name" decides the dock's visibility.
    const StringId kernel = trace.strings().find("kernel");
    if (!kernel.isValid())
        return false;
    if (trace.strings().find("Collective name").isValid())
        return true;
    for (size_t i = 0; i < trace.strings().size(); ++i) {
        const std::string_view s = trace.str(StringId(uint32_t(i)));
        if (s.starts_with("ncclKernel_") || s.starts_with("ncclDevKernel_") || s.starts_with("rcclKernel"))
            return true;
    }
    return false;
}

void CollectivesPanel::clear()
{
    m_result = {};
    m_matchOf.clear();
    m_model->setResult({});
    m_overlapModel->setResult({});
    m_skewModel->setResult({});
    m_latenessModel->setResult({});
    if (m_tabs) {
        m_durations->setGroups({});
        m_status->clear();
    }
}

void CollectivesPanel::compute()
{
    const std::shared_ptr<const TraceAnalysis> analysis = session()->analysis();
    if (!analysis)
        return;
    job()->start<CollectiveAnalysis>([analysis] { return CollectiveAnalysis::compute(*analysis->trace(), *analysis->launchIndex()); },
                                     [this](const CollectiveAnalysis &a, double) {
                                         present(a);
                                         emit computed();
                                     });
}

void CollectivesPanel::present(const CollectiveAnalysis &a)
{
    ensureBody();
    m_result = a;
    m_matchOf.assign(a.table.instances.size(), -1);
    for (size_t m = 0; m < a.match.matched.size(); ++m)
        for (uint32_t i : a.match.matched[m].members)
            m_matchOf[i] = int32_t(m);
    std::vector<CollectiveRow> rows = a.table.rows;
    rows.insert(rows.end(), a.table.perRank.begin(), a.table.perRank.end());
    m_model->setResult(std::move(rows));
    std::vector<CommOverlapRow> overlap = a.overlap.devices;
    overlap.insert(overlap.end(), a.overlap.steps.begin(), a.overlap.steps.end());
    m_overlapModel->setResult(std::move(overlap));
    m_skewModel->setResult(a.match.matched);
    m_latenessModel->setResult(a.match.ranks);
    for (QTableView *v : {m_view, m_overlapView, m_skewView, m_latenessView})
        v->resizeColumnsToContents();
    std::vector<CollectiveDurationsView::Group> groups;
    for (size_t g = 0; g < a.table.rows.size() && g < kPlottedGroups; ++g) {
        const CollectiveRow &r = a.table.rows[g];
        CollectiveDurationsView::Group group{groupLabel(r), r.minNs, r.p25Ns, r.medianNs, r.p75Ns, r.maxNs, {}};
        for (uint32_t i : a.instancesOf(r))
            group.points.push_back({a.table.instances[i].duration, i, a.table.instances[i].rank});
        groups.push_back(std::move(group));
    }
    m_durations->setGroups(std::move(groups));
    m_tabs->setTabEnabled(SkewTab, !a.match.ranks.empty());
    m_tabs->setTabToolTip(SkewTab, a.match.ranks.empty() ? tr("Skew needs a multi-rank job: open the ranks' traces together") : QString());
    QString text = tr("%n collective kernel(s), %1 on the GPU (drawn red to purple on the timeline)", nullptr, int(a.table.instances.size()))
                       .arg(DurationFormat::format(a.table.totalNs));
    if (!a.match.ranks.empty())
        text += tr("; %1 matched across %2 ranks, %3 unmatched").arg(a.match.matched.size()).arg(a.match.ranks.size()).arg(a.match.unmatched);
    text += tr(". Rows across ranks (rank empty), then per rank; double-click one to find its kernels");
    m_status->setText(text);
    setWindowTitle(tr("Collectives (%1)").arg(a.table.instances.size()));
}

QString CollectivesPanel::status() const
{
    return m_status ? m_status->text() : QString();
}

void CollectivesPanel::showMatches(std::vector<uint32_t> slices, const QString &what)
{
    if (slices.empty())
        return;
    ensureBody();
    m_status->setText(tr("%n kernel(s) of %1 are the timeline's matches (Enter / Shift+Enter step through them)", nullptr,
                         int(slices.size()))
                          .arg(what));
    m_timeline->setSearchMatches(std::move(slices));
    m_timeline->goToMatch(0);
}

size_t CollectivesPanel::findRow(int sourceRow)
{
    const CollectiveRow *row = m_model->row(sourceRow);
    if (!row)
        return 0;
    std::vector<uint32_t> ids;
    for (uint32_t i : m_result.instancesOf(*row))
        ids.push_back(m_result.table.instances[i].slice.value);
    const size_t n = ids.size();
    showMatches(std::move(ids), groupLabel(*row));
    return n;
}

size_t CollectivesPanel::selectMatched(size_t index)
{
    if (index >= m_result.match.matched.size())
        return 0;
    const MatchedCollective &m = m_result.match.matched[index];
    const std::vector<CollectiveInstance> &in = m_result.table.instances;
    int64_t end = m.lastEntry;
    uint32_t last = m.members.front();
    for (uint32_t i : m.members) {
        end = std::max(end, in[i].start + in[i].duration);
        if (in[i].rank == m.lastRank)
            last = i;
    }
    std::vector<uint32_t> slices = m_result.slicesOf(m);
    const size_t n = slices.size();
    showMatches(std::move(slices), QStringLiteral("%1 #%2").arg(QString::fromStdString(m.kind)).arg(m.sequence));
    const int64_t pad = std::max<int64_t>((end - m.firstEntry) / 10, 1000);
    session()->setVisibleRange(m.firstEntry - pad, end + pad);
    if (m.skewNs() > 0)
        session()->setMarkedRange(m.firstEntry, m.lastEntry);
    session()->setSelectedSlice(in[last].slice);
    session()->revealSlice(in[last].slice); // scrolls to the last rank's lanes
    m_status->setText(m_status->text() + tr("; skew %1, rank %2 last (marked: first to last entry)")
                                              .arg(DurationFormat::format(m.skewNs()))
                                              .arg(m.lastRank));
    return n;
}

size_t CollectivesPanel::findInstance(uint32_t instance)
{
    if (instance >= m_matchOf.size())
        return 0;
    if (m_matchOf[instance] >= 0)
        return selectMatched(size_t(m_matchOf[instance]));
    const CollectiveInstance &c = m_result.table.instances[instance];
    showMatches({c.slice.value}, QString::fromStdString(c.kind));
    session()->setSelectedSlice(c.slice);
    return 1;
}

void CollectivesPanel::setDark(bool dark)
{
    m_dark = dark;
    if (m_durations)
        m_durations->setDark(dark);
}

} // namespace lanescope
