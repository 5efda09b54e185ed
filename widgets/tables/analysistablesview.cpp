#include "analysistablesview.h"
#include "placeholdertableview.h"

#include "rankstepmodel.h"
#include "style/clearbutton.h"
#include "style/durationformat.h"

#include "analysis/devicesummary.h"
#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "analysis/traceanalysis.h"
#include "analysis/optable.h"
#include "analysis/rankfilter.h"
#include "model/trace.h"
#include "util/workerpool.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace lanescope {

namespace {

// OpTable's Neuron device columns, shown only when the trace has them.
constexpr OpTable::Column kOpDeviceColumns[] = {OpTable::Column::DeviceFlopsTotal, OpTable::Column::DeviceFlopsSelf,
                                                OpTable::Column::Mfu, OpTable::Column::DmaBytesTotal,
                                                OpTable::Column::DmaBytesSelf};

struct Results
{
    OpTable::Result ops;
    KernelTable::Result kernels;
    std::vector<DeviceSummary::Row> devices;
    RankStepTable::Result ranks; // every rank, whatever the rank filter
};

PlaceholderTableView *makeView(QAbstractItemModel *model, QWidget *parent)
{
    auto *v = new PlaceholderTableView(parent);
    v->setModel(model);
    v->setSortingEnabled(true);
    v->setSelectionBehavior(QAbstractItemView::SelectRows);
    v->setSelectionMode(QAbstractItemView::SingleSelection);
    v->setWordWrap(false);
    v->setAlternatingRowColors(true);
    v->verticalHeader()->hide();
    v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
    v->horizontalHeader()->setStretchLastSection(true);
    // At least its header, not a table view's own minimum (room for both scroll bars and more): the
    // tables are made after the window's first frame, and with that minimum they made the bottom dock
    // group grow by 20 to 40 px then, moving the timeline the user was looking at. The group keeps the
    // height the window gave it; the rows scroll.
    v->setMinimumHeight(v->horizontalHeader()->sizeHint().height() + 2 * v->frameWidth());
    return v;
}

QSortFilterProxyModel *makeProxy(QAbstractItemModel *source, int sortRole, QObject *parent)
{
    auto *p = new QSortFilterProxyModel(parent);
    p->setSourceModel(source);
    p->setSortRole(sortRole);
    p->setFilterKeyColumn(0);
    p->setFilterCaseSensitivity(Qt::CaseInsensitive);
    return p;
}

// The model column of a table's column: the model's columns are TableRows', found by key.
template <typename Table> int columnOf(const RowTableModel *model, typename Table::Column c)
{
    return model->column(Table::columnName(c));
}

QString csvCell(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::Double: {
        const double d = v.toDouble();
        if (std::floor(d) == d && std::abs(d) < 9e15)
            return QString::number(qint64(d));
        return QString::number(d, 'f', 6);
    }
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Int:
    case QMetaType::UInt: return v.toString();
    default: {
        QString s = v.toString();
        if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n'))) {
            s.replace(QStringLiteral("\""), QStringLiteral("\"\""));
            s = QLatin1Char('"') + s + QLatin1Char('"');
        }
        return s;
    }
    }
}

} // namespace

AnalysisTablesView::AnalysisTablesView(QWidget *parent) : QWidget(parent)
{
    m_opModel = AnalysisRowModels::ops(this);
    m_kernelModel = AnalysisRowModels::kernels(this);
    m_deviceModel = AnalysisRowModels::devices(this);
    m_opProxy = makeProxy(m_opModel, RowTableModel::SortRole, this);
    m_kernelProxy = makeProxy(m_kernelModel, RowTableModel::SortRole, this);
    m_deviceProxy = makeProxy(m_deviceModel, RowTableModel::SortRole, this);

    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by name"));
    addClearButtonWhenShown(m_filter);
    m_shapes = new QCheckBox(tr("Group by input shapes"), this);
    m_next = new QPushButton(tr("Next occurrence"), this);
    m_next->setToolTip(tr("Select the next occurrence of the clicked row on the timeline"));
    m_next->setEnabled(false);
    m_export = new QPushButton(tr("Export CSV..."), this);
    m_status = new QLabel(this);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // a long kernel name in the status must not widen the window
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setMinimumWidth(1);

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_opView = makeView(m_opProxy, m_tabs);
    m_kernelView = makeView(m_kernelProxy, m_tabs);
    m_deviceView = makeView(m_deviceProxy, m_tabs);
    m_opView->sortByColumn(columnOf<OpTable>(m_opModel, OpTable::Column::CpuTotal), Qt::DescendingOrder);
    m_kernelView->sortByColumn(columnOf<KernelTable>(m_kernelModel, KernelTable::Column::Total), Qt::DescendingOrder);
    m_deviceView->sortByColumn(columnOf<DeviceSummary>(m_deviceModel, DeviceSummary::Column::Device), Qt::AscendingOrder);
    m_opView->horizontalHeader()->resizeSection(columnOf<OpTable>(m_opModel, OpTable::Column::Name), 280);
    m_kernelView->horizontalHeader()->resizeSection(columnOf<KernelTable>(m_kernelModel, KernelTable::Column::Name), 320);
    m_opView->setColumnHidden(columnOf<OpTable>(m_opModel, OpTable::Column::Shapes), true);
    // The Neuron device columns (FLOPs, MFU, DMA bytes) next to the device times, before the percentages
    // (the model keeps the JSON's order).
    {
        QHeaderView *header = m_opView->horizontalHeader();
        int to = header->visualIndex(columnOf<OpTable>(m_opModel, OpTable::Column::DeviceAvg));
        for (const auto c : kOpDeviceColumns)
            header->moveSection(header->visualIndex(columnOf<OpTable>(m_opModel, c)), ++to);
    }
    m_tabs->addTab(m_opView, tr("Operators"));
    m_tabs->addTab(m_kernelView, tr("Kernels"));
    m_tabs->addTab(m_deviceView, tr("Devices"));
    // A multi-rank trace: a rank filter for the three tables and the per-rank step times (a tab of its own).
    m_rankModel = new RankStepModel(this);
    m_rankView = makeView(makeProxy(m_rankModel, RankStepModel::SortRole, this), m_tabs);
    m_rankView->sortByColumn(RankStepModel::Rank, Qt::AscendingOrder);
    m_rankView->setObjectName(QStringLiteral("rankStepView"));
    m_rankView->hide();
    m_rank = new QComboBox(this);
    m_rank->setToolTip(tr("Operators, kernels and devices of one rank or of all ranks"));
    m_rank->hide();

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 4, 4, 0);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_rank);
    bar->addWidget(m_shapes);
    bar->addWidget(m_next);
    bar->addWidget(m_export);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);

    connect(m_filter, &QLineEdit::textChanged, this, &AnalysisTablesView::setFilter);
    connect(m_shapes, &QCheckBox::toggled, this, &AnalysisTablesView::setGroupByShapes);
    connect(m_export, &QPushButton::clicked, this, &AnalysisTablesView::exportCurrent);
    connect(m_next, &QPushButton::clicked, this, &AnalysisTablesView::nextOccurrenceRequested);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        m_shapes->setEnabled(currentTable() == Table::Operators);
        m_export->setEnabled(m_tabs->currentWidget() != m_rankView);
    });
    connect(m_rank, &QComboBox::currentIndexChanged, this, [this] {
        const int64_t rank = m_rank->currentData().toLongLong();
        if (rank == m_rankFilter)
            return;
        m_rankFilter = rank;
        recompute();
    });
    connect(m_opView, &QTableView::clicked, this, [this](const QModelIndex &i) { activateRow(Table::Operators, i.row()); });
    connect(m_kernelView, &QTableView::clicked, this, [this](const QModelIndex &i) { activateRow(Table::Kernels, i.row()); });
    m_opView->installEventFilter(this);
    m_kernelView->installEventFilter(this);
    updateStatus();
}

AnalysisTablesView::~AnalysisTablesView() = default;

bool AnalysisTablesView::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress && (watched == m_opView || watched == m_kernelView)) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && key->modifiers() == Qt::NoModifier) {
            auto *view = static_cast<QTableView *>(watched);
            if (view->currentIndex().isValid()) {
                activateRow(view == m_opView ? Table::Operators : Table::Kernels, view->currentIndex().row());
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

QSortFilterProxyModel *AnalysisTablesView::proxy(Table table) const
{
    return static_cast<QSortFilterProxyModel *>(view(table)->model()); // each view shows its proxy
}

QTableView *AnalysisTablesView::view(Table table) const
{
    switch (table) {
    case Table::Operators: return m_opView;
    case Table::Kernels: return m_kernelView;
    case Table::Devices: return m_deviceView;
    }
    return m_opView;
}

AnalysisTablesView::Table AnalysisTablesView::currentTable() const
{
    return Table(std::min(m_tabs->currentIndex(), int(Table::Devices))); // the Ranks tab has no Table of its own
}

void AnalysisTablesView::setCurrentTable(Table table)
{
    m_tabs->setCurrentIndex(int(table));
}

void AnalysisTablesView::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const TraceAnalysis> analysis)
{
    m_trace = std::move(trace);
    m_analysis = analysis && analysis->trace() == m_trace ? std::move(analysis) : std::make_shared<const TraceAnalysis>(m_trace);
    const std::vector<int64_t> ranks = m_trace ? RankFilter::ranks(*m_trace) : std::vector<int64_t>();
    m_rankFilter = RankFilter::kAllRanks;
    {
        const QSignalBlocker block(m_rank);
        m_rank->clear();
        m_rank->addItem(tr("All ranks"), qlonglong(RankFilter::kAllRanks));
        for (int64_t r : ranks)
            m_rank->addItem(tr("Rank %1").arg(r), qlonglong(r));
    }
    m_rank->setVisible(!ranks.empty());
    const int rankTab = m_tabs->indexOf(m_rankView);
    if (!ranks.empty() && rankTab < 0)
        m_tabs->addTab(m_rankView, tr("Ranks"));
    else if (ranks.empty() && rankTab >= 0)
        m_tabs->removeTab(rankTab);
    m_hasRange = false;
    m_activeKey.clear();
    m_next->setEnabled(false);
    recompute();
}

void AnalysisTablesView::setRange(int64_t t0, int64_t t1)
{
    const bool has = t1 > t0;
    if (has == m_hasRange && (!has || (t0 == m_t0 && t1 == m_t1)))
        return;
    m_hasRange = has;
    m_t0 = t0;
    m_t1 = t1;
    recompute();
}

void AnalysisTablesView::setGroupByShapes(bool on)
{
    if (m_shapes->isChecked() != on)
        m_shapes->setChecked(on); // re-enters through toggled
    if (m_groupByShapes == on)
        return;
    m_groupByShapes = on;
    m_opView->setColumnHidden(columnOf<OpTable>(m_opModel, OpTable::Column::Shapes), !on);
    recompute();
}

void AnalysisTablesView::setFilter(const QString &text)
{
    if (m_filter->text() != text)
        m_filter->setText(text);
    for (QSortFilterProxyModel *p : {m_opProxy, m_kernelProxy, m_deviceProxy})
        p->setFilterFixedString(text);
    updatePlaceholders();
}

// What an empty table says: still computing, nothing matches the filter, or what this trace lacks.
void AnalysisTablesView::updatePlaceholders()
{
    const QString filter = m_filter->text();
    auto text = [&](QSortFilterProxyModel *proxy, const QString &none) {
        if (!m_trace)
            return QString();
        if (isComputing())
            return tr("Computing...");
        if (proxy->sourceModel()->rowCount() > 0 && !filter.isEmpty())
            return tr("Nothing matches \u201c%1\u201d.").arg(filter);
        return none;
    };
    m_opView->setPlaceholderText(text(m_opProxy, tr("No framework operators in this range.\n\nOperators come from a PyTorch "
                                                    "profiler (Kineto) trace. An NTFF or a neuron-profile JSON alone "
                                                    "holds device work: see Kernels and Devices.")));
    m_kernelView->setPlaceholderText(text(m_kernelProxy, tr("No device kernels or instructions in this range.")));
    m_deviceView->setPlaceholderText(text(m_deviceProxy, tr("No device activity in this trace.")));
}

template <typename Options> Options AnalysisTablesView::options() const
{
    Options o;
    o.hasRange = m_hasRange;
    o.t0 = m_t0;
    o.t1 = m_t1;
    if constexpr (requires { o.rank; })
        o.rank = m_rankFilter;
    return o;
}

void AnalysisTablesView::recompute()
{
    const uint64_t id = ++m_jobId;
    if (!m_trace) {
        m_shownJobId = id;
        m_opModel->setResult({});
        m_kernelModel->setResult({});
        m_deviceModel->setResult({});
        m_rankModel->setResult({});
        updateStatus();
        emit computed();
        return;
    }
    auto oo = options<OpTable::Options>();
    oo.groupByShapes = m_groupByShapes;
    const auto ko = options<KernelTable::Options>();
    const auto dopt = options<DeviceSummary::Options>();
    const auto ro = options<RankStepTable::Options>(); // every rank: the Ranks tab compares them
    auto *watcher = new QFutureWatcher<Results>(this);
    updateStatus();
    connect(watcher, &QFutureWatcher<Results>::finished, this, [this, watcher, id] {
        watcher->deleteLater();
        if (id != m_jobId) // a newer request is on its way
            return;
        Results r = watcher->result();
        m_shownJobId = id;
        m_opModel->setResult(std::move(r.ops));
        m_kernelModel->setResult(std::move(r.kernels));
        m_deviceModel->setResult(std::move(r.devices));
        m_rankModel->setResult(std::move(r.ranks));
        // The Neuron device columns only when some op has them (a GPU trace has none to show).
        const OpTable::Result &ops = m_opModel->result();
        for (const auto c : kOpDeviceColumns) {
            const bool dma = c == OpTable::Column::DmaBytesTotal || c == OpTable::Column::DmaBytesSelf;
            const int column = columnOf<OpTable>(m_opModel, c);
            m_opView->setColumnHidden(column, dma ? !ops.dmaBytes : !ops.deviceFlops);
            if (!m_opView->isColumnHidden(column))
                m_opView->resizeColumnToContents(column); // "DMA bytes total" fits its header
        }
        m_rankView->resizeColumnsToContents(); // few columns, few rows: every header and value fits
        updateStatus();
        emit computed();
    });
    watcher->setFuture(QtConcurrent::run(workerPool(), [trace = m_trace, analysis = m_analysis, oo, ko, dopt, ro] {
        Results r;
        const std::shared_ptr<const LaunchIndex> index = analysis->launchIndex();
        r.ops = OpTable::compute(*trace, *index, oo, analysis->executionCost().get());
        r.kernels = KernelTable::compute(*trace, *index, ko);
        r.devices = DeviceSummary::compute(*trace, *index, dopt);
        r.ranks = RankStepTable::compute(*trace, *index, ro);
        return r;
    }));
}

void AnalysisTablesView::activateRow(Table table, int row)
{
    if (table == Table::Devices)
        return;
    QSortFilterProxyModel *p = proxy(table);
    const QModelIndex src = p->mapToSource(p->index(row, 0));
    if (!src.isValid())
        return;
    QString name, key;
    const std::vector<uint32_t> *occurrences = nullptr;
    if (table == Table::Operators) {
        const OpTable::Row *r = m_opModel->row(src.row());
        name = QString::fromStdString(r->name);
        key = QStringLiteral("op\n") + name + QLatin1Char('\n') + QString::fromStdString(r->shapes);
        occurrences = &r->occurrences;
    } else {
        const KernelTable::Row *r = m_kernelModel->row(src.row());
        name = QString::fromStdString(r->name);
        key = QStringLiteral("kernel\n") + QString::fromLatin1(LaunchIndex::kindName(r->kind)) + QLatin1Char('\n') + name;
        occurrences = &r->occurrences;
    }
    view(table)->selectRow(row);
    if (key == m_activeKey) {
        emit nextOccurrenceRequested();
        return;
    }
    m_activeKey = key;
    const QString shown = name.size() > 80 ? name.left(77) + QStringLiteral("...") : name;
    m_activeLabel = tr("%1: %n occurrence(s)", nullptr, int(occurrences->size())).arg(shown);
    m_next->setEnabled(occurrences->size() > 1);
    emit rowActivated(table, name);
    emit occurrencesSelected(*occurrences, m_activeLabel);
    updateStatus();
}

QStringList AnalysisTablesView::csvHeader(Table table) const
{
    QStringList header;
    const QAbstractItemModel *m = proxy(table);
    for (int c = 0; c < m->columnCount(); ++c)
        header << m->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
    return header;
}

void AnalysisTablesView::writeCsv(const QAbstractItemModel &model, int sortRole, const QStringList &header, QIODevice &out)
{
    out.write(header.join(QLatin1Char(',')).toUtf8() + '\n');
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(); ++c)
            cells << csvCell(model.data(model.index(r, c), sortRole));
        out.write(cells.join(QLatin1Char(',')).toUtf8() + '\n');
    }
}

bool AnalysisTablesView::exportCsv(Table table, const QString &path) const
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    const QSortFilterProxyModel *p = proxy(table);
    writeCsv(*p, p->sortRole(), csvHeader(table), f);
    return f.error() == QFileDevice::NoError;
}

void AnalysisTablesView::exportCurrent()
{
    static const char *names[] = {"operators", "kernels", "devices"};
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Table"),
                                                      QString::fromLatin1(names[int(currentTable())]) + QStringLiteral(".csv"),
                                                      tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    if (!exportCsv(currentTable(), path))
        m_status->setText(tr("Could not write %1").arg(path));
    else
        m_status->setText(tr("Wrote %1").arg(path));
}

void AnalysisTablesView::updateStatus()
{
    updatePlaceholders();
    QString text;
    if (!m_trace)
        text = tr("No trace");
    else if (m_hasRange)
        text = tr("Selection %1 (ops and kernels starting in it)").arg(DurationFormat::format(m_t1 - m_t0));
    else
        text = tr("Whole trace");
    if (m_trace && !isComputing()) {
        const OpTable::Result &r = m_opModel->result();
        text += tr("  ·  self CPU %1  ·  device %2").arg(DurationFormat::format(r.cpuSelfTotal), DurationFormat::format(r.deviceTime));
        if (r.unattributedCount) {
            const QString items = r.unattributedCount == 1 ? tr("1 item") : tr("%1 items").arg(r.unattributedCount);
            text += tr(" (%1 in %2 not launched by an op)").arg(DurationFormat::format(r.unattributedDevice), items);
        }
    }
    if (isComputing())
        text += tr("  ·  computing...");
    if (!m_activeLabel.isEmpty())
        text += QStringLiteral("  ·  ") + m_activeLabel;
    m_status->setText(text);
}

} // namespace lanescope
