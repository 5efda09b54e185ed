#include "enginechartsview.h"

#include "style/durationformat.h"
#include "timeline/utilizationstrip.h"

#include "model/trace.h"
#include "util/qtext.h"
#include "util/unittext.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegend>
#include <QPieSeries>
#include <QPieSlice>
#include <QResizeEvent>
#include <QShowEvent>
#include <QValueAxis>

#include <algorithm>

namespace lanescope {

namespace {

QChart *newChart(bool dark, const QString &title)
{
    auto *c = new QChart();
    c->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    c->setTitle(title);
    c->setMargins(QMargins(4, 4, 4, 4));
    c->setBackgroundRoundness(0);
    QFont f = c->titleFont();
    f.setBold(true);
    c->setTitleFont(f);
    return c;
}

void replaceChart(QChartView *view, QChart *chart)
{
    QChart *old = view->chart();
    view->setChart(chart);
    delete old;
}


} // namespace

EngineChartsView::EngineChartsView(QWidget *parent) : QWidget(parent)
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(4, 4, 4, 4);
    grid->setSpacing(4);
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_coreBox = new QComboBox(this);
    m_coreBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_coreBox->setToolTip(tr("The charts show one NeuronCore, or all of them"));
    m_coreBox->hide();
    connect(m_coreBox, &QComboBox::currentIndexChanged, this, [this] {
        applyCoreFilter();
        rebuild();
    });
    auto *top = new QHBoxLayout;
    top->addWidget(m_header, 1);
    top->addWidget(m_coreBox, 0, Qt::AlignTop);
    grid->addLayout(top, 0, 0, 1, 2);
    grid->setRowStretch(1, 1);
    grid->setRowStretch(2, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    rebuild();
}

// The four chart views (a QChart and its graphics scene each: a tenth of the window's start) are made
// when first shown or asked for: most traces have no NeuronCore engines and never show them.
void EngineChartsView::ensureCharts()
{
    if (!m_activeIdle) {
        auto *grid = static_cast<QGridLayout *>(layout());
        m_activeIdle = new QChartView(this);
        m_share = new QChartView(this);
        m_dma = new QChartView(this);
        m_utilization = new UtilizationStrip(this);
        m_utilization->setDark(m_dark);
        grid->addWidget(m_activeIdle, 1, 0);
        grid->addWidget(m_share, 1, 1);
        grid->addWidget(m_utilization, 2, 0);
        grid->addWidget(m_dma, 2, 1);
        for (QChartView *v : {m_activeIdle, m_share, m_dma, static_cast<QChartView *>(m_utilization)}) {
            v->setRenderHint(QPainter::Antialiasing);
            v->setMinimumSize(260, 200);
            if (isVisible()) // made while the view is shown: at once, not after the next event loop pass
                v->show();
        }
    }
    if (!m_stale)
        return;
    m_stale = false;
    buildActiveIdle();
    buildShare();
    buildDma();
    m_utilization->showResult(m_shown, m_trace ? m_trace->startNs() : 0);
}

QChartView *EngineChartsView::activeIdleChart()
{
    ensureCharts();
    return m_activeIdle;
}

QChartView *EngineChartsView::shareChart()
{
    ensureCharts();
    return m_share;
}

QChartView *EngineChartsView::dmaChart()
{
    ensureCharts();
    return m_dma;
}

UtilizationStrip *EngineChartsView::utilizationChart()
{
    ensureCharts();
    return m_utilization;
}

void EngineChartsView::showEvent(QShowEvent *event)
{
    ensureCharts();
    QWidget::showEvent(event);
}

EngineChartsView::~EngineChartsView() = default;

void EngineChartsView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    setRange(0, 0);
}

void EngineChartsView::setDark(bool dark)
{
    m_dark = dark;
    if (m_utilization)
        m_utilization->setDark(dark);
    rebuild();
}

void EngineChartsView::setRange(int64_t start, int64_t end)
{
    if (!m_trace) {
        m_result = {};
    } else {
        EngineBreakdown::Options o;
        if (end > start) {
            o.startNs = start;
            o.endNs = end;
        }
        o.buckets = 120;
        o.execution = m_execution;
        m_result = EngineBreakdown::compute(*m_trace, o);
    }
    fillCoreBox();
    applyCoreFilter();
    rebuild();
}

// Several cores: "All cores" plus one entry per core; the busiest core is chosen first when all of
// them would not fit the charts. The choice stays while the range changes.
void EngineChartsView::fillCoreBox()
{
    const QSignalBlocker block(m_coreBox);
    const bool several = m_result.cores.size() > 1;
    m_coreBox->setVisible(several);
    if (!several) {
        m_coreBox->clear();
        return;
    }
    const int previous = m_coreBox->count() == int(m_result.cores.size()) + 1 ? m_coreBox->currentIndex() : -1;
    m_coreBox->clear();
    m_coreBox->addItem(tr("All cores"));
    for (size_t i = 0; i < m_result.cores.size(); ++i)
        m_coreBox->addItem(QStringLiteral("#%1  %2").arg(i).arg(qs(m_result.cores[i].coreName)));
    if (previous >= 0) {
        m_coreBox->setCurrentIndex(previous);
        return;
    }
    if (m_result.engines.size() <= size_t(kMaxRowsForAllCores)) {
        m_coreBox->setCurrentIndex(0);
        return;
    }
    size_t busiest = 0;
    int64_t most = -1;
    for (size_t i = 0; i < m_result.cores.size(); ++i) {
        int64_t active = 0;
        for (const EngineBreakdownRow &row : m_result.engines)
            if (row.core == m_result.cores[i].core)
                active += row.activeTimeNs;
        if (active > most) {
            most = active;
            busiest = i;
        }
    }
    m_coreBox->setCurrentIndex(int(busiest) + 1);
}

void EngineChartsView::applyCoreFilter()
{
    m_shown = m_result;
    const int index = m_result.cores.size() > 1 ? m_coreBox->currentIndex() - 1 : -1; // 0 = all cores
    if (index < 0 || size_t(index) >= m_result.cores.size())
        return;
    const GroupId core = m_result.cores[size_t(index)].core;
    std::erase_if(m_shown.engines, [core](const EngineBreakdownRow &r) { return r.core != core; });
    std::erase_if(m_shown.dma, [core](const DmaQueueBreakdownRow &r) { return r.core != core; });
}

QString EngineChartsView::headerText() const
{
    if (!m_trace)
        return tr("Open a NeuronCore profile (NTFF, neuron-profile JSON or a profile folder) to see its engines.");
    if (m_result.empty())
        return tr("No NeuronCore engine or DMA lanes in this trace.");
    const int64_t origin = m_trace->startNs();
    QString text = m_result.wholeTrace
        ? tr("Whole trace (%1)").arg(DurationFormat::format(m_result.endNs - m_result.startNs))
        : (m_result.execution ? tr("Execution %1 \u2013 %2 (%3)") : tr("Selected range %1 \u2013 %2 (%3)"))
              .arg(DurationFormat::format(m_result.startNs - origin), DurationFormat::format(m_result.endNs - origin),
                   DurationFormat::format(m_result.endNs - m_result.startNs));
    text += tr("; percentages of %1 (%2)")
                .arg(DurationFormat::format(m_result.denominatorNs), qs(m_result.denominatorSource));
    if (m_result.cores.size() > 1)
        text += tr("; %1 NeuronCore groups (#i in the box)").arg(m_result.cores.size());
    for (const CoreBreakdown &c : m_result.cores) {
        if (c.mfuPercent)
            text += tr("; MFU %1 %").arg(*c.mfuPercent, 0, 'g', 4);
        if (c.hfuPercent)
            text += tr(", HFU %1 %").arg(*c.hfuPercent, 0, 'g', 4);
        if (c.mfuPercent || c.hfuPercent)
            text += tr(" (peak %1 TFLOP/s)").arg(c.peakFlopsPerSec / 1e12, 0, 'f', 1);
        else if (m_result.cores.size() == 1)
            text += QStringLiteral("; ") + qs(c.flopsNote);
    }
    return text;
}

int EngineChartsView::dmaQueuesThatFit() const
{
    constexpr int kRowPx = 18, kChromePx = 90; // a readable bar; title, axis and margins
    return std::clamp((m_dma->height() - kChromePx) / kRowPx, 3, kMaxDmaQueues);
}

void EngineChartsView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (m_dma && !m_stale && dmaQueuesThatFit() != m_dmaShown)
        buildDma();
}

void EngineChartsView::rebuild()
{
    m_header->setText(headerText());
    m_stale = true;
    if (isVisible())
        ensureCharts();
}

void EngineChartsView::buildActiveIdle()
{
    QChart *c = newChart(m_dark, tr("Active / idle per engine (% of the percentage base above)"));
    auto *active = new QBarSet(tr("active"));
    auto *idle = new QBarSet(tr("idle"));
    active->setColor(m_dark ? QColor(0x56b4e9) : QColor(0x0072b2));
    idle->setColor(m_dark ? QColor(0x4a4a4a) : QColor(0xd8d8d8));
    active->setBorderColor(Qt::transparent);
    idle->setBorderColor(Qt::transparent);
    QStringList categories;
    // Listed bottom-up by Qt: reverse so that Tensor is on top.
    for (auto it = m_shown.engines.rbegin(); it != m_shown.engines.rend(); ++it) {
        const double activePct = std::min(100.0, it->activePercent);
        categories << QStringLiteral("%1  %2 %").arg(UtilizationStrip::engineLabel(m_shown, *it)).arg(activePct, 0, 'f', 2);
        *active << activePct;
        *idle << std::max(0.0, 100.0 - activePct);
    }
    auto *series = new QHorizontalStackedBarSeries(c);
    series->append(active);
    series->append(idle);
    series->setBarWidth(0.7);
    c->addSeries(series);
    auto *ay = new QBarCategoryAxis(c);
    ay->append(categories);
    ay->setTruncateLabels(false);
    auto *ax = new QValueAxis(c);
    ax->setRange(0, 100);
    ax->setLabelFormat(QStringLiteral("%d%%"));
    ax->setTickCount(6);
    c->addAxis(ay, Qt::AlignLeft);
    c->addAxis(ax, Qt::AlignBottom);
    series->attachAxis(ay);
    series->attachAxis(ax);
    c->legend()->setAlignment(Qt::AlignBottom);
    replaceChart(m_activeIdle, c);
}

void EngineChartsView::buildShare()
{
    QChart *c = newChart(m_dark, tr("Instruction time by engine (semaphore waits excluded)"));
    auto *series = new QPieSeries(c);
    int64_t total = 0;
    for (const EngineBreakdownRow &row : m_shown.engines)
        total += row.instructionTimeNs;
    for (const EngineBreakdownRow &row : m_shown.engines) {
        if (row.instructionTimeNs <= 0)
            continue;
        const double share = total > 0 ? 100.0 * double(row.instructionTimeNs) / double(total) : 0.0;
        QPieSlice *slice = series->append(QStringLiteral("%1 %2 % (%3)")
                                              .arg(UtilizationStrip::engineLabel(m_shown, row))
                                              .arg(share, 0, 'f', 1)
                                              .arg(DurationFormat::format(row.instructionTimeNs)),
                                          double(row.instructionTimeNs));
        slice->setColor(UtilizationStrip::engineColor(row.engine, m_dark));
        slice->setBorderColor(m_dark ? QColor(0x202020) : QColor(Qt::white));
    }
    series->setPieSize(0.6);
    c->addSeries(series);
    c->legend()->setAlignment(Qt::AlignRight);
    if (total == 0)
        c->setTitle(tr("Instruction time by engine: none in this window"));
    replaceChart(m_share, c);
}

void EngineChartsView::buildDma()
{
    QChart *c = newChart(m_dark, tr("DMA throughput per queue (GB/s while active)"));
    std::vector<const DmaQueueBreakdownRow *> rows;
    for (const DmaQueueBreakdownRow &q : m_shown.dma)
        if (q.packetCount > 0)
            rows.push_back(&q);
    std::sort(rows.begin(), rows.end(), [](const auto *a, const auto *b) { return a->bytes > b->bytes; });
    m_dmaShown = dmaQueuesThatFit();
    const size_t shown = std::min(rows.size(), size_t(m_dmaShown));
    auto *set = new QBarSet(tr("GB/s"));
    set->setColor(m_dark ? QColor(0x3fd0a0) : QColor(0x009e73));
    set->setBorderColor(Qt::transparent);
    QStringList categories;
    double maxRate = 0;
    for (size_t i = shown; i-- > 0;) { // bottom-up: the busiest queue on top
        const DmaQueueBreakdownRow &q = *rows[i];
        const QString core = UtilizationStrip::coreLabel(m_shown, q.core);
        const QString name = core.isEmpty() ? qs(q.queue) : core + QLatin1Char(' ') + qs(q.queue);
        categories << QStringLiteral("%1  %2").arg(name, QString::fromStdString(UnitText::bytes(double(q.bytes))));
        *set << q.throughputBytesPerSec / 1e9;
        maxRate = std::max(maxRate, q.throughputBytesPerSec / 1e9);
    }
    if (rows.size() > shown)
        c->setTitle(tr("DMA throughput, %1 busiest of %2 queues (GB/s while active)").arg(shown).arg(rows.size()));
    if (rows.empty())
        c->setTitle(tr("DMA throughput: no DMA packets in this window"));
    auto *series = new QHorizontalBarSeries(c);
    series->append(set);
    series->setBarWidth(0.7);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(3);
    c->addSeries(series);
    auto *ay = new QBarCategoryAxis(c);
    ay->append(categories);
    ay->setTruncateLabels(false);
    auto *ax = new QValueAxis(c);
    ax->setRange(0, maxRate > 0 ? maxRate * 1.1 : 1.0);
    ax->setLabelFormat(QStringLiteral("%.3g"));
    ax->setTitleText(tr("GB/s"));
    ax->setTickCount(5);
    ax->applyNiceNumbers();
    c->addAxis(ay, Qt::AlignLeft);
    c->addAxis(ax, Qt::AlignBottom);
    series->attachAxis(ay);
    series->attachAxis(ax);
    c->legend()->setVisible(false);
    replaceChart(m_dma, c);
}

} // namespace lanescope
