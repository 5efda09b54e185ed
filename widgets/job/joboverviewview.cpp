#include "joboverviewview.h"

#include "style/durationformat.h"
#include "summary/findingslistview.h"
#include "tables/rowtablemodel.h"

#include "analysis/tablerows.h"
#include "job/jobrows.h"

#include <QComboBox>
#include <QFont>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace lanescope {

namespace {

using RankModel = RowModel<JobRankRow, std::vector<JobRankRow>>;
using LatenessModel = RowModel<RankLateness, std::vector<RankLateness>>;
using SkewModel = RowModel<MatchedCollective, std::vector<MatchedCollective>>;

QTableView *table(RowTableModel *model, int sortColumn, Qt::SortOrder order, QWidget *parent)
{
    auto *proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(RowTableModel::SortRole);
    auto *view = new QTableView(parent);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(sortColumn, order);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

// Rows of stragglers and of ranks the late-arrival rule names in bold; the straggler flag as a word,
// the ratio to two decimals, the trace's path as the rank's tooltip.
std::vector<RankModel::Decoration> rankDecorations(const std::shared_ptr<std::vector<int64_t>> &late,
                                                   const std::shared_ptr<std::vector<std::string>> &paths)
{
    const auto bold = [late](const JobRankRow &r, int role) -> QVariant {
        if (role != Qt::FontRole || (!r.steps.straggler && std::find(late->begin(), late->end(), r.rank) == late->end()))
            return {};
        QFont f;
        f.setBold(true);
        return f;
    };
    return {{"rank",
             [bold, paths](const JobRankRow &r, int role) -> QVariant {
                 if (role == Qt::ToolTipRole && r.summary < paths->size())
                     return QObject::tr("Trace: %1\nDouble-click: open it").arg(QString::fromStdString((*paths)[r.summary]));
                 return bold(r, role);
             }},
            {"straggler",
             [bold](const JobRankRow &r, int role) -> QVariant {
                 if (role == Qt::DisplayRole)
                     return r.steps.straggler ? QObject::tr("straggler") : QString();
                 return bold(r, role);
             }},
            {"ratio_to_median_of_ranks",
             [](const JobRankRow &r, int role) -> QVariant {
                 return role == Qt::DisplayRole ? QVariant(QStringLiteral("%1 x").arg(r.steps.ratio, 0, 'f', 2)) : QVariant();
             }},
            {"last_at", [bold](const JobRankRow &r, int role) { return bold(r, role); }}};
}

QString rankList(const std::vector<int64_t> &ranks) { return QString::fromStdString(JobOverview::rankList(ranks)); }

} // namespace

JobOverviewView::JobOverviewView(QWidget *parent)
    : QWidget(parent), m_header(new QLabel(this)), m_jobs(new QComboBox(this)), m_tabs(new QTabWidget(this)),
      m_rankFindings(new FindingsListView(tr("Findings of the rank"), this)), m_jobFindings(new FindingsListView(tr("Findings of the job"), this)),
      m_byRule(new QLabel(this)), m_warnings(new QListWidget(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *top = new QHBoxLayout;
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    top->addWidget(m_header, 1);
    top->addWidget(m_jobs, 0, Qt::AlignTop);
    layout->addLayout(top);
    layout->addWidget(m_tabs, 1);

    m_rankModel = std::make_unique<RankModel>(JobRows::rankColumns(), std::vector<RankModel::Decoration>{}, nullptr);
    m_ranks = table(m_rankModel.get(), 0, Qt::AscendingOrder, this);
    m_ranks->setToolTip(tr("Double-click or Enter: open the rank's full trace"));
    m_ranks->setObjectName(QStringLiteral("jobRanksView"));
    m_rankFindings->setShowEnabled(false); // the events are in the rank's own trace
    m_jobFindings->setShowEnabled(false);
    auto *split = new QSplitter(Qt::Vertical, this); // the findings below the table: the cards get the full width
    split->addWidget(m_ranks);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the cards wrap to the width they get
    scroll->setWidget(m_rankFindings);
    split->addWidget(scroll);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400}); // the table three fifths, the cards two
    m_tabs->addTab(split, tr("Ranks"));

    auto *findings = new QWidget(this);
    auto *findingsLayout = new QVBoxLayout(findings);
    findingsLayout->setContentsMargins(0, 0, 0, 0);
    m_byRule->setWordWrap(true);
    m_byRule->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_byRule->setContentsMargins(6, 4, 6, 4);
    findingsLayout->addWidget(m_jobFindings);
    findingsLayout->addWidget(m_byRule);
    findingsLayout->addStretch(1);
    auto *findingsScroll = new QScrollArea(this);
    findingsScroll->setWidgetResizable(true);
    findingsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    findingsScroll->setWidget(findings);
    m_tabs->addTab(findingsScroll, tr("Job findings"));

    auto *latenessModel = new LatenessModel(TableRows::rankLateness(), {}, this);
    auto *skewModel = new SkewModel(TableRows::matchedCollectives(), {}, this);
    m_latenessModel = latenessModel;
    m_skewModel = skewModel;
    m_lateness = table(latenessModel, latenessModel->column("late_ns"), Qt::DescendingOrder, this);
    m_skew = table(skewModel, skewModel->column("skew_ns"), Qt::DescendingOrder, this);
    auto *collectives = new QSplitter(Qt::Vertical, this);
    collectives->addWidget(m_lateness);
    collectives->addWidget(m_skew);
    m_tabs->addTab(collectives, tr("Collectives"));
    m_tabs->addTab(m_warnings, tr("Warnings"));

    connect(m_ranks->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { showRankFindings(current); });
    connect(m_ranks, &QTableView::activated, this, [this](const QModelIndex &index) {
        const auto *proxy = static_cast<const QSortFilterProxyModel *>(m_ranks->model());
        if (const JobRankRow *row = m_rankModel->row(proxy->mapToSource(index).row()))
            emit rankActivated(row->summary);
    });
    connect(m_jobs, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0 && i != m_job)
            showJob(i);
    });
    m_jobs->hide();
}

JobOverviewView::~JobOverviewView() = default;

const JobOverview *JobOverviewView::job() const
{
    return m_result && m_job >= 0 && size_t(m_job) < m_result->jobs.size() ? &m_result->jobs[size_t(m_job)] : nullptr;
}

void JobOverviewView::setResult(std::shared_ptr<const JobFolder::Result> result)
{
    m_result = std::move(result);
    m_job = -1;
    {
        const QSignalBlocker block(m_jobs);
        m_jobs->clear();
        if (m_result)
            for (const JobOverview &j : m_result->jobs)
                m_jobs->addItem(QString::fromStdString(j.label));
        m_jobs->setVisible(m_jobs->count() > 1);
    }
    m_warnings->clear();
    if (m_result) {
        for (const std::string &w : m_result->warnings)
            m_warnings->addItem(QString::fromStdString(w));
        for (const std::string &e : m_result->errors)
            m_warnings->addItem(tr("not read: %1").arg(QString::fromStdString(e)));
    }
    const int problems = m_warnings->count();
    m_tabs->setTabText(3, problems ? tr("Warnings (%1)").arg(problems) : tr("Warnings"));
    showJob(m_result && !m_result->jobs.empty() ? 0 : -1);
}

void JobOverviewView::showJob(int index)
{
    m_job = index;
    const JobOverview *j = job();
    if (m_jobs->currentIndex() != index && index >= 0) {
        const QSignalBlocker block(m_jobs);
        m_jobs->setCurrentIndex(index);
    }
    auto late = std::make_shared<std::vector<int64_t>>(j ? j->lateRanks() : std::vector<int64_t>());
    auto paths = std::make_shared<std::vector<std::string>>();
    if (j)
        for (const RankSummary &s : j->ranks)
            paths->push_back(s.file.path);
    // The decorations hold this job's late ranks and trace paths: a new model per job.
    auto model = std::make_unique<RankModel>(JobRows::rankColumns(), rankDecorations(late, paths), nullptr);
    model->setResult(j ? JobRows::ranks(*j) : std::vector<JobRankRow>());
    static_cast<QSortFilterProxyModel *>(m_ranks->model())->setSourceModel(model.get());
    m_rankModel = std::move(model);
    static_cast<LatenessModel *>(m_latenessModel)->setResult(j ? j->match.ranks : std::vector<RankLateness>());
    static_cast<SkewModel *>(m_skewModel)->setResult(j ? j->match.matched : std::vector<MatchedCollective>());
    m_jobFindings->setFindings(j ? j->findings : std::vector<Finding>());
    m_jobFindings->setEmptyText(tr("No straggler and no late rank in this job."));
    const std::map<std::string, std::vector<int64_t>> byRule = j ? j->findingsByRule() : std::map<std::string, std::vector<int64_t>>();
    QStringList rules;
    for (const auto &[rule, ranks] : byRule)
        rules << tr("<b>%1</b>: %n rank(s) (%2)", nullptr, int(ranks.size())).arg(QString::fromStdString(rule), rankList(ranks));
    m_byRule->setText(tr("<p>The ranks' own findings (each rank's trace alone), by rule:</p>%1")
                          .arg(rules.isEmpty() ? tr("none") : rules.join(QStringLiteral("<br>"))));
    m_header->setText(headerText());
    for (QTableView *v : {m_ranks, m_lateness, m_skew})
        v->resizeColumnsToContents();
    m_rankFindings->setFindings({});
    m_rankFindings->setHeading(tr("Findings of the rank"));
    m_rankFindings->setEmptyText(tr("Select a rank to see its own findings."));
    if (j && !j->ranks.empty())
        selectRank(j->stragglers().empty() ? j->ranks.front().rank : j->stragglers().front());
}

QString JobOverviewView::headerText() const
{
    const JobOverview *j = job();
    if (!j)
        return m_result && !m_result->errors.empty() ? tr("No job overview: %1").arg(QString::fromStdString(m_result->errors.front()))
                                                     : tr("No rank summaries");
    return tr("<b>%1</b>: %2 ranks from %3 summaries, clock: %4, span %5 · median step of ranks <b>%6</b> · stragglers: <b>%7</b> · "
              "late at collectives: <b>%8</b> · %9 collectives matched across ranks, %10 instances unmatched%11")
        .arg(QString::fromStdString(j->label))
        .arg(j->ranks.size())
        .arg(m_result->summaries)
        .arg(QString::fromStdString(j->clockRule), DurationFormat::format(j->spanNs()), DurationFormat::format(j->steps.medianOfRanks),
             rankList(j->stragglers()), rankList(j->lateRanks()))
        .arg(j->match.matched.size())
        .arg(j->match.unmatched)
        .arg(j->missingRanks.empty() ? QString() : tr(" · ranks without a summary: %1").arg(rankList(j->missingRanks)));
}

void JobOverviewView::selectRank(int64_t rank)
{
    const auto *proxy = static_cast<const QSortFilterProxyModel *>(m_ranks->model());
    const std::vector<JobRankRow> &rows = m_rankModel->rows();
    for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].rank == rank) {
            m_ranks->setCurrentIndex(proxy->mapFromSource(m_rankModel->index(int(i), 0)));
            return;
        }
}

void JobOverviewView::showRankFindings(const QModelIndex &proxyIndex)
{
    const JobOverview *j = job();
    const auto *proxy = static_cast<const QSortFilterProxyModel *>(m_ranks->model());
    const JobRankRow *row = m_rankModel->row(proxy->mapToSource(proxyIndex).row());
    if (!j || !row || row->summary >= j->ranks.size())
        return;
    const RankSummary &s = j->ranks[row->summary];
    m_rankFindings->setHeading(tr("Findings of rank %1 (%2)").arg(s.rank).arg(QString::fromStdString(s.file.name)));
    m_rankFindings->setEmptyText(tr("No findings in rank %1's trace.").arg(s.rank));
    m_rankFindings->setFindings(s.findings);
}

void JobOverviewView::setDark(bool dark)
{
    m_rankFindings->setDark(dark);
    m_jobFindings->setDark(dark);
}

} // namespace lanescope
