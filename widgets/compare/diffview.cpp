#include "diffview.h"

#include "difftablemodel.h"
#include "session/comparesession.h"
#include "style/clearbutton.h"
#include "style/durationformat.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QValueAxis>
#include <QVBoxLayout>

namespace lanescope {

namespace {

QString pctText(std::optional<double> p)
{
    return p ? QString::asprintf("%+.1f %%", *p) : QObject::tr("new");
}

// QChartView gives up the previous chart without deleting it.
void replaceChart(QChartView *view, QChart *chart)
{
    QChart *old = view->chart();
    view->setChart(chart);
    delete old;
}

} // namespace

DiffView::DiffView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *bar = new QHBoxLayout;
    m_base = new QComboBox(this);
    m_other = new QComboBox(this);
    m_metric = new QComboBox(this);
    m_metric->addItem(tr("Device time"), int(DiffMetric::Device));
    m_metric->addItem(tr("CPU self time"), int(DiffMetric::Cpu));
    m_metric->addItem(tr("Wall (inclusive) time"), int(DiffMetric::Wall));
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter names"));
    addClearButtonWhenShown(m_filter);
    auto *exportButton = new QPushButton(tr("Export CSV…"), this);
    bar->addWidget(new QLabel(tr("Compare"), this));
    bar->addWidget(m_base);
    bar->addWidget(new QLabel(tr("with"), this));
    bar->addWidget(m_other);
    bar->addWidget(m_metric);
    bar->addWidget(m_filter, 1);
    bar->addWidget(exportButton);
    layout->addLayout(bar);
    m_total = new QLabel(this);
    m_total->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_total);

    m_tabs = new QTabWidget(this);
    m_opsModel = new DiffTableModel(this);
    m_kernelsModel = new DiffTableModel(this);
    m_opsView = makeTable(m_opsModel, m_opsProxy);
    m_kernelsView = makeTable(m_kernelsModel, m_kernelsProxy);
    m_tabs->addTab(m_opsView, tr("Operators"));
    m_tabs->addTab(m_kernelsView, tr("Kernels / opcodes"));

    m_enginePage = new QWidget(this);
    auto *engineLayout = new QVBoxLayout(m_enginePage);
    engineLayout->setContentsMargins(0, 0, 0, 0);
    m_chartQuantity = new QComboBox(m_enginePage);
    m_chartQuantity->addItem(tr("Active time"));
    m_chartQuantity->addItem(tr("Instruction count"));
    m_chartQuantity->addItem(tr("Instruction time"));
    m_chartQuantity->addItem(tr("DMA bytes"));
    engineLayout->addWidget(m_chartQuantity, 0, Qt::AlignLeft);
    m_chart = new QChartView(m_enginePage);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(240);
    engineLayout->addWidget(m_chart, 1);
    m_tabs->addTab(m_enginePage, tr("Engines"));
    layout->addWidget(m_tabs, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_opsProxy->setFilterFixedString(text);
        m_kernelsProxy->setFilterFixedString(text);
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
        if (m_session)
            m_session->setMetric(DiffMetric(m_metric->currentData().toInt()));
    });
    const auto pairChanged = [this] {
        if (m_session && m_base->currentIndex() >= 0 && m_other->currentIndex() >= 0)
            m_session->setDiffPair(m_base->currentIndex(), m_other->currentIndex());
    };
    connect(m_base, &QComboBox::activated, this, pairChanged);
    connect(m_other, &QComboBox::activated, this, pairChanged);
    connect(m_chartQuantity, &QComboBox::currentIndexChanged, this, &DiffView::updateChart);
    connect(exportButton, &QPushButton::clicked, this, &DiffView::exportCurrent);
}

QTableView *DiffView::makeTable(DiffTableModel *model, QSortFilterProxyModel *&proxy)
{
    proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model);
    proxy->setSortRole(DiffTableModel::SortRole);
    proxy->setFilterKeyColumn(DiffTableModel::Name);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    auto *view = new QTableView(this);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(DiffTableModel::Delta, Qt::DescendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setSectionResizeMode(DiffTableModel::Name, QHeaderView::Stretch);
    view->setWordWrap(false);
    connect(view, &QTableView::activated, this, [this, proxy](const QModelIndex &index) {
        emit rowActivated(proxy->data(index, DiffTableModel::NameRole).toString());
    });
    return view;
}

void DiffView::setSession(CompareSession *session)
{
    m_session = session;
    connect(session, &CompareSession::comparisonReady, this, &DiffView::refresh);
    connect(session, &CompareSession::diffReady, this, &DiffView::refresh);
    refresh();
}

void DiffView::refreshPairCombos()
{
    const QStringList labels = m_session ? m_session->labels() : QStringList();
    for (QComboBox *combo : {m_base, m_other}) {
        const QSignalBlocker block(combo);
        combo->clear();
        combo->addItems(labels);
    }
    if (m_session) {
        m_base->setCurrentIndex(m_session->diffBase());
        m_other->setCurrentIndex(m_session->diffOther());
    }
}

void DiffView::refresh()
{
    refreshPairCombos();
    if (!m_session || !m_session->isActive()) {
        m_opsModel->setRows({}, QStringLiteral("A"), QStringLiteral("B"));
        m_kernelsModel->setRows({}, QStringLiteral("A"), QStringLiteral("B"));
        m_total->clear();
        updateChart();
        return;
    }
    const QString a = m_base->currentText(), b = m_other->currentText();
    const ProfileDiffResult &d = m_session->diff();
    {
        const QSignalBlocker block(m_metric);
        m_metric->setCurrentIndex(m_metric->findData(int(d.metric)));
    }
    m_opsModel->setRows(d.ops, a, b);
    m_kernelsModel->setRows(d.kernels, a, b);
    m_total->setText(tr("%1 total: %2 %3, %4 %5, delta %6 (%7)")
                         .arg(m_metric->currentText(), a, DurationFormat::format(d.total.aNs), b,
                              DurationFormat::format(d.total.bNs),
                              (d.total.deltaNs() >= 0 ? QStringLiteral("+") : QStringLiteral("−"))
                                  + DurationFormat::format(d.total.deltaNs() >= 0 ? d.total.deltaNs() : -d.total.deltaNs()),
                              pctText(d.total.deltaPct())));
    m_opsView->resizeColumnsToContents();
    m_kernelsView->resizeColumnsToContents();
    m_tabs->setTabText(0, tr("Operators (%1)").arg(d.ops.size()));
    m_tabs->setTabText(1, tr("Kernels / opcodes (%1)").arg(d.kernels.size()));
    m_tabs->setTabText(2, tr("Engines (%1)").arg(d.engines.size()));
    // Device-only captures have no operators: open on what they have.
    if (d.ops.empty() && m_tabs->currentIndex() == 0)
        m_tabs->setCurrentIndex(d.engines.empty() ? 1 : 2);
    updateChart();
}

void DiffView::updateChart()
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    const int quantity = m_chartQuantity->currentIndex();
    if (!m_session || !m_session->isActive() || m_session->diff().engines.empty()) {
        chart->setTitle(tr("No NeuronCore engines in these profiles"));
        replaceChart(m_chart, chart);
        return;
    }
    const auto &engines = m_session->diff().engines;
    // Time in microseconds, counts as they are, bytes in MiB.
    auto value = [quantity](const EngineDiffRow &e, bool b) -> double {
        switch (quantity) {
        case 0: return double(b ? e.bActiveNs : e.aActiveNs) / 1e3;
        case 1: return double(b ? e.bInstructions : e.aInstructions);
        case 2: return double(b ? e.bInstructionNs : e.aInstructionNs) / 1e3;
        default: return double(b ? e.bDmaBytes : e.aDmaBytes) / (1024.0 * 1024.0);
        }
    };
    static const char *const kUnits[] = {"µs", "instructions", "µs", "MiB"};
    auto *setA = new QBarSet(m_base->currentText());
    auto *setB = new QBarSet(m_other->currentText());
    setA->setColor(QColor(0x5c, 0x8d, 0xd6));
    setB->setColor(QColor(0xe0, 0x8a, 0x3c));
    QStringList categories;
    double top = 0;
    for (const EngineDiffRow &e : engines) {
        if (quantity == 3 && e.engine != "DMA")
            continue;
        categories << QString::fromStdString(e.engine);
        *setA << value(e, false);
        *setB << value(e, true);
        top = std::max({top, value(e, false), value(e, true)});
    }
    auto *series = new QBarSeries;
    series->append(setA);
    series->append(setB);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(4);
    chart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    auto *y = new QValueAxis;
    y->setRange(0, top > 0 ? top * 1.15 : 1);
    y->setTitleText(QString::fromUtf8(kUnits[quantity]));
    y->setLabelFormat(quantity == 1 ? QStringLiteral("%.0f") : QStringLiteral("%.1f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart->setTitle(tr("%1 per engine: %2 vs %3").arg(m_chartQuantity->currentText(), m_base->currentText(), m_other->currentText()));
    replaceChart(m_chart, chart);
}

bool DiffView::exportCsv(const QString &path, QString *error) const
{
    const DiffTableModel *model = m_tabs->currentIndex() == 1 ? m_kernelsModel : m_opsModel;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    f.write(model->toCsv().toUtf8());
    return true;
}

void DiffView::exportCurrent()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export diff as CSV"), QStringLiteral("diff.csv"),
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace lanescope
