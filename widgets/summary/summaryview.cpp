#include "summaryview.h"

#include "findingslistview.h"
#include "style/durationformat.h"
#include "summarybars.h"

#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <unordered_set>

namespace lanescope {

namespace {

QScrollArea *scrollArea(QWidget *content, QWidget *parent)
{
    auto *area = new QScrollArea(parent);
    area->setWidget(content);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return area;
}

QString bytes(uint64_t n)
{
    return QLocale::c().formattedDataSize(qint64(n), 1, QLocale::DataSizeTraditionalFormat);
}

QString percent(double p)
{
    return QStringLiteral("%1 %").arg(p, 0, 'f', 1);
}

constexpr int kLabelPadding = 12; // px between a metric's name and its value

// The key-metrics table as rich text, and the width its rows need in a font.
class MetricsTable
{
public:
    explicit MetricsTable(const QFont &font) : m_fm(font) {}
    void row(const QString &name, const QString &value)
    {
        m_html += QStringLiteral("<tr><td style=\"padding-right:%3px\">%1</td><td>%2</td></tr>").arg(name.toHtmlEscaped(), value).arg(kLabelPadding);
        m_nameWidth = std::max(m_nameWidth, m_fm.horizontalAdvance(name));
        m_valueWidth = std::max(m_valueWidth, m_fm.horizontalAdvance(value));
    }
    QString html() const { return m_html; }
    // Both columns, the padding between them and the table's cell spacing (2 px around each cell).
    int width() const { return m_nameWidth + kLabelPadding + m_valueWidth + 3 * 2 + m_fm.averageCharWidth(); }

private:
    QFontMetrics m_fm;
    QString m_html;
    int m_nameWidth = 0, m_valueWidth = 0;
};

// The tag of each finding: `tag` when its key is among `keys`.
std::vector<QString> tagsFor(const std::vector<Finding> &findings, const std::vector<Finding> &tagged, const QString &tag,
                             const std::unordered_set<std::string> &changed)
{
    std::unordered_set<std::string> keys;
    for (const Finding &f : tagged)
        keys.insert(FindingsDiff::key(f));
    std::vector<QString> out;
    for (const Finding &f : findings) {
        const std::string k = FindingsDiff::key(f);
        out.push_back(keys.count(k) ? tag : changed.count(k) ? QStringLiteral("changed") : QString());
    }
    return out;
}

} // namespace

SummaryView::SummaryView(QWidget *parent)
    : QWidget(parent), m_region(new QComboBox(this)), m_status(new QLabel(this)), m_clear(new QPushButton(tr("Clear Marks"), this)),
      m_splitter(new QSplitter(Qt::Horizontal, this)), m_metrics(new QLabel), m_deviceBars(new SummaryBars(tr("Device busy (% of each device's span)"))),
      m_engineBars(new SummaryBars(tr("Engine active (% of the window)"))), m_dmaBars(new SummaryBars(tr("DMA bytes by queue kind"))),
      m_stepBars(new SummaryBars(tr("Step times"))), m_capture(new FindingsListView(tr("Capture"))),
      m_findings(new FindingsListView(tr("Findings"))), m_compareRow(new QWidget),
      m_compareA(new FindingsListView(QStringLiteral("A"))), m_compareB(new FindingsListView(QStringLiteral("B")))
{
    setObjectName(QStringLiteral("summaryView"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Region:"), this));
    m_region->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_region->setMinimumContentsLength(18);
    m_region->setMaximumWidth(420);
    m_region->setToolTip(tr("Metrics and findings for the whole trace, the marked range, one step or one NEFF execution"));
    top->addWidget(m_region);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    top->addWidget(m_status, 1);
    m_clear->setToolTip(tr("Remove the finding's marks from the timeline ([ / ] walk the dependency chain again)"));
    m_clear->setEnabled(false);
    top->addWidget(m_clear);
    layout->addLayout(top);

    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 8, 0);
    m_metrics->setTextFormat(Qt::RichText);
    m_metrics->setWordWrap(true);
    m_metrics->setTextInteractionFlags(Qt::TextSelectableByMouse);
    leftLayout->addWidget(m_metrics);
    for (SummaryBars *bars : {m_deviceBars, m_engineBars, m_dmaBars, m_stepBars}) {
        leftLayout->addWidget(bars);
        bars->hide();
    }
    leftLayout->addStretch(1);

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(8, 0, 0, 0);
    rightLayout->setSpacing(12);
    m_capture->setEmptyText(tr("No capture problem found."));
    m_capture->setObjectName(QStringLiteral("captureSection"));
    m_findings->setEmptyText(tr("No findings: nothing above the rules' thresholds in this region."));
    rightLayout->addWidget(m_capture);
    rightLayout->addWidget(m_findings);
    auto *compareLayout = new QHBoxLayout(m_compareRow);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    compareLayout->setSpacing(12);
    compareLayout->addWidget(m_compareA, 1, Qt::AlignTop);
    compareLayout->addWidget(m_compareB, 1, Qt::AlignTop);
    m_compareA->setShowEnabled(false);
    m_compareB->setShowEnabled(false);
    m_compareRow->hide();
    rightLayout->addWidget(m_compareRow);
    rightLayout->addStretch(1);

    m_left = scrollArea(left, m_splitter);
    m_right = scrollArea(right, m_splitter);
    m_splitter->addWidget(m_left);
    m_splitter->addWidget(m_right);
    m_left->setMinimumWidth(kMinLeftWidth); // metrics and bar labels stay readable beside the findings
    m_right->setMinimumWidth(kMinRightWidth);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->installEventFilter(this); // its width is known once it is laid out
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_userSplit = true; });
    layout->addWidget(m_splitter, 1);
    m_capture->hide();
    applyPalette();
}

void SummaryView::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString SummaryView::status() const
{
    return m_status->text();
}

QString SummaryView::metricsText() const
{
    return m_metrics->text();
}

void SummaryView::setResult(const KeyMetrics &metrics, const std::vector<Finding> &findings, const std::vector<SummaryRegion> &steps)
{
    m_comparison = false;
    m_compareRow->hide();
    m_left->show();
    m_findings->show();
    std::vector<Finding> capture, rest;
    for (const Finding &f : findings)
        (isCaptureCheck(f) ? capture : rest).push_back(f);
    m_capture->setHeading(tr("Capture (%1)").arg(capture.size()));
    m_capture->setFindings(std::move(capture));
    m_capture->setVisible(m_capture->count() > 0);
    m_findings->setHeading(tr("Findings (%1), most severe first").arg(rest.size()));
    m_findings->setFindings(std::move(rest));
    setMetrics(metrics, steps);
}

void SummaryView::setComparison(const QString &labelA, const std::vector<Finding> &a, const QString &labelB,
                                const std::vector<Finding> &b, const FindingsDiffResult &diff)
{
    m_comparison = true;
    m_left->hide();
    m_capture->hide();
    m_findings->hide();
    m_compareRow->show();
    std::unordered_set<std::string> changed;
    for (const auto &[fa, fb] : diff.changed)
        changed.insert(FindingsDiff::key(fa));
    m_compareA->setHeading(tr("%1: %2 findings, %3 resolved in %4").arg(labelA).arg(a.size()).arg(diff.resolved.size()).arg(labelB));
    m_compareA->setFindings(a, tagsFor(a, diff.resolved, QStringLiteral("resolved"), changed));
    m_compareB->setHeading(tr("%1: %2 findings, %3 new").arg(labelB).arg(b.size()).arg(diff.added.size()));
    m_compareB->setFindings(b, tagsFor(b, diff.added, QStringLiteral("new"), changed));
    m_compareA->setEmptyText(tr("No findings."));
    m_compareB->setEmptyText(tr("No findings."));
}

bool SummaryView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_splitter && event->type() == QEvent::Resize)
        fitMetricsColumn();
    return QWidget::eventFilter(watched, event);
}

void SummaryView::fitMetricsColumn()
{
    const int total = m_splitter->width() - m_splitter->handleWidth();
    if (m_userSplit || m_comparison || m_metricsWidth <= 0 || total < kMinLeftWidth + kMinRightWidth)
        return;
    // the table, the pane's right margin and a vertical scroll bar (the dock is often short)
    const int margins = m_left->widget()->layout()->contentsMargins().left() + m_left->widget()->layout()->contentsMargins().right();
    const int wanted = m_metricsWidth + margins + style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_left) + 2;
    const int left = std::clamp(wanted, kMinLeftWidth, std::max(kMinLeftWidth, std::min(total / 2, total - kMinRightWidth)));
    m_splitter->setSizes({left, total - left});
}

void SummaryView::setMetrics(const KeyMetrics &m, const std::vector<SummaryRegion> &steps)
{
    const QString title = tr("Key metrics");
    const QString window = tr("(window %1)").arg(DurationFormat::format(m.spanNs));
    QString html = QStringLiteral("<b>%1</b> %2<table>").arg(title, window);
    MetricsTable table(m_metrics->font());
    if (m.devices.empty())
        table.row(tr("Device"), tr("no device work"));
    else
        table.row(tr("Device total / busy / idle"), QStringLiteral("%1 / %2 / %3")
                                                        .arg(DurationFormat::format(m.deviceTotalNs), DurationFormat::format(m.deviceBusyNs),
                                                             DurationFormat::format(m.deviceIdleNs)));
    table.row(tr("Framework CPU self vs device time"),
              QStringLiteral("%1 vs %2").arg(DurationFormat::format(m.frameworkCpuNs), DurationFormat::format(m.deviceNs)));
    if (m.steps)
        table.row(tr("Steps"), tr("%1, median %2").arg(m.steps).arg(DurationFormat::format(m.medianStepNs)));
    if (m.dmaPackets) {
        table.row(tr("DMA"), tr("%1 in %2 transfers").arg(bytes(m.dmaBytes)).arg(m.dmaPackets));
        table.row(tr("Average DMA size"), bytes(uint64_t(m.averageDmaBytes + 0.5)));
        for (const KeyMetrics::DmaKind &d : m.dma)
            table.row(tr("DMA %1").arg(QString::fromStdString(d.kind)),
                      tr("%1, %2 GB/s while active").arg(bytes(d.bytes)).arg(d.throughputBytesPerSec / 1e9, 0, 'f', 2));
    }
    if (m.mfuPercent || m.hfuPercent)
        table.row(tr("MFU / HFU"), QStringLiteral("%1 / %2").arg(percent(m.mfuPercent.value_or(0)), percent(m.hfuPercent.value_or(0))));
    if (m.mbuPercent)
        table.row(tr("MBU"), QStringLiteral("%1 %").arg(*m.mbuPercent, 0, 'g', 3));
    for (const KeyMetrics::Traffic &t : m.hbmTraffic)
        table.row(QString::fromStdString(t.label), bytes(uint64_t(t.bytes + 0.5)));
    html += table.html() + QStringLiteral("</table>");
    m_metrics->setText(html);
    QFont bold = m_metrics->font();
    bold.setBold(true);
    m_metricsWidth = std::max(table.width(), QFontMetrics(bold).horizontalAdvance(title) + m_metrics->fontMetrics().horizontalAdvance(QLatin1Char(' ') + window));
    fitMetricsColumn();

    std::vector<SummaryBars::Bar> devices;
    for (const KeyMetrics::Device &d : m.devices)
        devices.push_back({QString::fromStdString(d.name), d.busyPercent,
                           QStringLiteral("%1 (%2)").arg(percent(d.busyPercent), DurationFormat::format(d.busyNs))});
    m_deviceBars->setBars(std::move(devices), 100);
    std::vector<SummaryBars::Bar> engines;
    const bool oneCore = std::all_of(m.engines.begin(), m.engines.end(), [&](const auto &e) { return e.core == m.engines.front().core; });
    for (const KeyMetrics::Engine &e : m.engines) {
        if (e.activePercent < 0.05) // shown as 0.0 %: an engine with (next to) nothing to do is no bar
            continue;
        // The engine first: "Scalar · neff_1103...", the core's program or name after it (elided).
        const std::string_view core = e.core;
        const size_t dot = core.rfind("· ");
        const std::string where = dot == std::string_view::npos ? e.core : std::string(core.substr(dot + 3));
        engines.push_back({QString::fromStdString(oneCore ? e.engine : e.engine + " · " + where), e.activePercent, percent(e.activePercent)});
    }
    m_engineBars->setBars(std::move(engines), 100);
    std::vector<SummaryBars::Bar> dma;
    for (const KeyMetrics::DmaKind &d : m.dma)
        if (d.bytes)
            dma.push_back({QString::fromStdString(d.kind), double(d.bytes), bytes(d.bytes)});
    m_dmaBars->setBars(std::move(dma));
    std::vector<SummaryBars::Bar> stepBars;
    const auto duration = [](const SummaryRegion &r) { return r.t1 - r.t0; };
    const auto slowest = std::max_element(steps.begin(), steps.end(), [&](const auto &a, const auto &b) { return duration(a) < duration(b); });
    for (auto it = steps.begin(); it != steps.end(); ++it)
        stepBars.push_back({QString::fromStdString(it->label), double(duration(*it)), DurationFormat::format(duration(*it)),
                            it == slowest && steps.size() > 1});
    m_stepBars->setBars(std::move(stepBars));
    for (SummaryBars *bars : {m_deviceBars, m_engineBars, m_dmaBars, m_stepBars})
        bars->setVisible(!bars->bars().empty());
}

void SummaryView::scrollToCapture()
{
    m_right->verticalScrollBar()->setValue(0);
    m_right->ensureWidgetVisible(m_capture);
}

void SummaryView::setDark(bool dark)
{
    m_dark = dark;
    applyPalette();
}

void SummaryView::applyPalette()
{
    QPalette p = palette();
    const QColor window = m_dark ? QColor(0x1e1f22) : QColor(0xfafafa);
    const QColor text = m_dark ? QColor(0xe0e0e0) : QColor(0x202020);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, m_dark ? QColor(0x2a2b2f) : QColor(Qt::white));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, m_dark ? QColor(0x35363a) : QColor(0xececec));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, m_dark ? QColor(0x777777) : QColor(0x999999));
    p.setColor(QPalette::Disabled, QPalette::WindowText, m_dark ? QColor(0x777777) : QColor(0x999999));
    setPalette(p);
    setAutoFillBackground(true);
    for (QScrollArea *area : {m_left, m_right}) {
        area->viewport()->setAutoFillBackground(true);
        area->widget()->setAutoFillBackground(true);
    }
    for (SummaryBars *bars : {m_deviceBars, m_engineBars, m_dmaBars, m_stepBars})
        bars->setDark(m_dark);
    for (FindingsListView *list : {m_capture, m_findings, m_compareA, m_compareB})
        list->setDark(m_dark);
}

} // namespace lanescope
