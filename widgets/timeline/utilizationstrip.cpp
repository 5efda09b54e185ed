#include "utilizationstrip.h"

#include "timelinepalette.h"

#include "model/trace.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QShowEvent>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace lanescope {

namespace {

// Axis unit for a span: the largest of ns / us / ms / s that keeps the numbers >= 1.
std::pair<double, QString> timeUnit(int64_t span)
{
    if (span >= 10'000'000'000)
        return {1e9, QStringLiteral("s")};
    if (span >= 10'000'000)
        return {1e6, QStringLiteral("ms")};
    if (span >= 10'000)
        return {1e3, QStringLiteral("\u00b5s")};
    return {1.0, QStringLiteral("ns")};
}

// A 1/2/5 x 10^n step giving about `ticks` intervals over `span`.
double niceStep(double span, int ticks)
{
    if (span <= 0)
        return 1.0;
    const double raw = span / ticks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (raw <= m * mag)
            return m * mag;
    return 10.0 * mag;
}

} // namespace

UtilizationStrip::UtilizationStrip(QWidget *parent) : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(120);
    rebuild();
}

UtilizationStrip::~UtilizationStrip() = default;

QColor UtilizationStrip::engineColor(NeuronEngine engine, bool dark)
{
    // Distinct hues, one lightness per theme (Okabe-Ito-like: readable for colour-blind users).
    static constexpr std::array<QRgb, kNeuronEngineCount> light = {0x0072b2, 0x009e73, 0xd55e00, 0xcc79a7, 0x6b6b6b};
    static constexpr std::array<QRgb, kNeuronEngineCount> darkc = {0x56b4e9, 0x3fd0a0, 0xf0a040, 0xe69bd0, 0xb0b0b0};
    return QColor::fromRgb(dark ? darkc[size_t(engine)] : light[size_t(engine)]);
}

QString UtilizationStrip::coreLabel(const EngineBreakdownResult &r, GroupId core)
{
    if (r.cores.size() <= 1)
        return {};
    for (size_t i = 0; i < r.cores.size(); ++i)
        if (r.cores[i].core == core)
            return QStringLiteral("#%1").arg(i);
    return {};
}

QString UtilizationStrip::engineLabel(const EngineBreakdownResult &r, const EngineBreakdownRow &row)
{
    const std::string_view name = EngineBreakdown::engineName(row.engine);
    const QString engine = QString::fromUtf8(name.data(), qsizetype(name.size()));
    const QString core = coreLabel(r, row.core);
    return core.isEmpty() ? engine : core + QLatin1Char(' ') + engine;
}

void UtilizationStrip::setPlotInsets(std::function<std::pair<int, int>()> insets)
{
    m_insets = std::move(insets);
    rebuild();
}

void UtilizationStrip::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    updateInsets();
}

void UtilizationStrip::updateInsets()
{
    if (!m_insets || !chart() || m_stale) // a stale chart gets its insets when it is built
        return;
    const auto [left, right] = m_insets();
    constexpr int kYLabels = 44;
    const int top = fontMetrics().height() / 2 + 2; // half of the "100%" label is above the plot
    const int bottom = fontMetrics().height() + 8;  // the time labels
    // Chart coordinates start at the viewport, inside the view's frame (if the style gives it one).
    chart()->setPlotArea(QRectF(left - viewport()->x(), top, std::max(10, width() - left - right),
                                std::max(10, height() - top - bottom)));
    QLegend *legend = chart()->legend();
    legend->detachFromChart();
    legend->setAlignment(Qt::AlignLeft);
    legend->setGeometry(QRectF(2, 2, std::max(10, left - kYLabels - 4), height() - 4));
    legend->update();
}

double UtilizationStrip::xForTime(int64_t ns) const
{
    ensureBuilt();
    if (!chart())
        return 0;
    const int64_t origin = m_trace ? m_trace->startNs() : m_origin;
    const QList<QAbstractSeries *> series = chart()->series();
    const QPointF scene = chart()->mapToPosition(QPointF(double(ns - origin) / m_scale, 0),
                                                 series.isEmpty() ? nullptr : series.front());
    return (viewportTransform().map(chart()->mapToScene(scene)) + QPointF(viewport()->pos())).x();
}

QRectF UtilizationStrip::plotRect() const
{
    ensureBuilt();
    if (!chart())
        return {};
    return viewportTransform().mapRect(chart()->mapRectToScene(chart()->plotArea())).translated(QPointF(viewport()->pos()));
}

std::vector<TimeRuler::Tick> UtilizationStrip::timeTicks() const
{
    ensureBuilt();
    if (!m_insets || !chart() || m_result.endNs <= m_result.startNs)
        return {};
    const int64_t origin = m_trace ? m_trace->startNs() : m_origin;
    return TimeRuler::ticks(m_result.startNs, m_result.endNs, origin, chart()->plotArea().width(), fontMetrics());
}

// Compact layout: the timeline's ruler under the plot (ticks, labels right of their tick) and its grid
// lines over it, at the x the timeline draws them.
void UtilizationStrip::drawForeground(QPainter *painter, const QRectF &rect)
{
    QChartView::drawForeground(painter, rect);
    if (!m_insets || !chart())
        return;
    const TimelinePalette pal = m_dark ? TimelinePalette::dark() : TimelinePalette::light();
    const QRectF plot = chart()->mapRectToScene(chart()->plotArea());
    painter->save();
    painter->setFont(font());
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->setClipRect(QRectF(plot.left(), plot.top(), plot.width() + 1, height() - plot.top()));
    const double base = plot.bottom();
    const int ascent = painter->fontMetrics().ascent();
    for (const TimeRuler::Tick &t : timeTicks()) {
        const double x = plot.left() + t.x;
        if (t.major) {
            painter->setPen(pal.gridLine);
            painter->drawLine(QPointF(x, plot.top()), QPointF(x, base));
        }
        painter->setPen(pal.mutedText);
        painter->drawLine(QPointF(x, base), QPointF(x, base + (t.major ? 6 : 3)));
        if (t.major) {
            painter->setPen(pal.text);
            painter->drawText(QPointF(x + 3, base + 4 + ascent), t.label);
        }
    }
    painter->setPen(pal.mutedText);
    painter->drawLine(QPointF(plot.left(), base), QPointF(plot.right(), base));
    painter->restore();
}

void UtilizationStrip::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_start = m_end = 0;
    setRange(0, 0);
}

void UtilizationStrip::setDark(bool dark)
{
    m_dark = dark;
    rebuild();
}

int UtilizationStrip::seriesCount() const
{
    ensureBuilt();
    return chart() ? int(chart()->series().size()) : 0;
}

void UtilizationStrip::setRange(int64_t start, int64_t end)
{
    m_start = start;
    m_end = end;
    if (!m_trace) {
        m_result = {};
        rebuild();
        return;
    }
    EngineBreakdown::Options o;
    if (end > start) {
        o.startNs = start;
        o.endNs = end;
    }
    o.buckets = m_buckets ? m_buckets : size_t(std::max(20, width() / 6));
    o.topOpcodes = 0;
    o.longestIdleGaps = 0;
    m_result = EngineBreakdown::compute(*m_trace, o);
    rebuild();
}

void UtilizationStrip::showResult(const EngineBreakdownResult &result, int64_t originNs)
{
    m_result = result;
    m_origin = originNs;
    rebuild();
}

// A new chart costs a few ms (the Engines dock's strip exists from the start, hidden for most traces):
// it is made when the strip is shown or asked about, for what it shows then.
void UtilizationStrip::rebuild()
{
    m_stale = true;
    if (isVisible())
        build();
}

void UtilizationStrip::ensureBuilt() const
{
    if (m_stale)
        const_cast<UtilizationStrip *>(this)->build(); // what the strip shows is set; only its chart is late
}

void UtilizationStrip::showEvent(QShowEvent *event)
{
    ensureBuilt();
    QChartView::showEvent(event);
}

void UtilizationStrip::build()
{
    m_stale = false;
    auto *c = new QChart();
    c->setTheme(m_dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    c->setMargins(QMargins(4, 4, 4, 4));
    c->setBackgroundRoundness(0);
    c->legend()->setAlignment(Qt::AlignRight);
    c->legend()->setVisible(true);

    const int64_t origin = m_trace ? m_trace->startNs() : m_origin;
    const auto [scale, unit] = timeUnit(m_result.endNs - m_result.startNs);
    m_scale = scale;
    const double x0 = double(m_result.startNs - origin) / scale;
    const double x1 = double(m_result.endNs - origin) / scale;
    auto *ax = new QValueAxis(c);
    ax->setRange(x0, std::max(x1, x0 + 1e-9));
    if (m_insets) {
        // The timeline's ruler, drawn by drawForeground at the timeline's x; Qt's own labels would sit
        // centred on other ticks.
        ax->setLabelsVisible(false);
        ax->setGridLineVisible(false);
        ax->setMinorGridLineVisible(false);
        ax->setLineVisible(false);
    } else {
        ax->setTitleText(tr("time from trace start (%1)").arg(unit));
        ax->setLabelFormat(QStringLiteral("%.6g"));
    }
    ax->setTickType(QValueAxis::TicksDynamic);
    ax->setTickAnchor(0.0);
    ax->setTickInterval(niceStep(x1 - x0, 5));
    auto *ay = new QValueAxis(c);
    ay->setRange(0, 100);
    ay->setTickCount(3);
    ay->setLabelFormat(QStringLiteral("%d%%"));
    if (!m_insets)
        ay->setTitleText(tr("busy"));
    c->addAxis(ax, Qt::AlignBottom);
    c->addAxis(ay, Qt::AlignLeft);

    std::set<int> engineInLegend;
    for (const EngineBreakdownRow &row : m_result.engines) {
        auto *s = new QLineSeries(c);
        s->setName(engineLabel(m_result, row));
        QList<QPointF> points;
        points.reserve(qsizetype(row.utilization.size() * 2));
        for (size_t b = 0; b < row.utilization.size(); ++b) {
            const int64_t b0 = m_result.startNs + int64_t(b) * m_result.bucketNs;
            const int64_t b1 = std::min(m_result.endNs, b0 + m_result.bucketNs);
            const double v = 100.0 * double(row.utilization[b]);
            points.append(QPointF(double(b0 - origin) / scale, v));
            points.append(QPointF(double(b1 - origin) / scale, v));
        }
        s->replace(points);
        QPen pen(engineColor(row.engine, m_dark));
        pen.setWidthF(1.5);
        s->setPen(pen);
        c->addSeries(s);
        s->attachAxis(ax);
        s->attachAxis(ay);
        // One legend entry per engine: every core's line of an engine has the engine's colour, so
        // "#0 Vector", "#1 Vector", ... would repeat one swatch and overflow the strip's height.
        const bool first = engineInLegend.insert(int(row.engine)).second;
        for (QLegendMarker *m : c->legend()->markers(s)) {
            m->setVisible(first);
            if (first && m_result.cores.size() > 1) {
                const std::string_view name = EngineBreakdown::engineName(row.engine);
                m->setLabel(QString::fromUtf8(name.data(), qsizetype(name.size())));
            }
        }
    }
    if (m_result.engines.empty())
        c->setTitle(m_trace ? tr("No NeuronCore engine lanes in this trace") : tr("Engine utilization"));

    QChart *old = chart();
    setChart(c);
    delete old;
    updateInsets();
}

} // namespace lanescope
