#include "durationhistogramview.h"

#include "style/durationformat.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace lanescope {

namespace {

constexpr double kZeroPosition = 0.5; // where 0 ns sits on the log axis (the bin [0, 1) spans 0.5 .. 1)

double logOf(int64_t ns)
{
    return std::log10(std::max(double(ns), kZeroPosition));
}

} // namespace

DurationHistogramView::DurationHistogramView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void DurationHistogramView::setSeries(std::vector<Series> series)
{
    m_series = std::move(series);
    m_hover = m_selected = -1;
    update();
}

void DurationHistogramView::setMarkers(std::vector<Marker> markers)
{
    m_markers = std::move(markers);
    update();
}

void DurationHistogramView::setDark(bool dark)
{
    m_dark = dark;
    update();
}

void DurationHistogramView::setSelectedBin(int bin)
{
    m_selected = bin;
    update();
}

QColor DurationHistogramView::seriesColor(int index, bool dark)
{
    // plain RGB values: gcc 12 at -O1 with the sanitizers read the guarded static QColor arrays as
    // "maybe uninitialized"
    static constexpr QRgb light[] = {0x1f77b4, 0xe67e22, 0x2ca02c};
    static constexpr QRgb darkColors[] = {0x5dade2, 0xf5a623, 0x58d68d};
    const int i = ((index % 3) + 3) % 3;
    return QColor::fromRgb(dark ? darkColors[i] : light[i]);
}

const std::vector<DurationStats::Bin> &DurationHistogramView::edges() const
{
    static const std::vector<DurationStats::Bin> none;
    return m_series.empty() ? none : m_series.front().bins;
}

QRect DurationHistogramView::plotRect() const
{
    const int text = fontMetrics().height();
    return rect().adjusted(fontMetrics().horizontalAdvance(QStringLiteral("00000")) + 8, text + 6, -12, -(text + 8));
}

std::pair<double, double> DurationHistogramView::axisRange() const
{
    const auto &bins = edges();
    if (bins.empty())
        return {0, 1};
    double lo = logOf(bins.front().from), hi = logOf(bins.back().to);
    // At least a factor of 4 in sight, so that a narrow distribution (or one value) is a few bars in
    // the middle, not one bar over the whole width.
    const double pad = std::max(0.0, (kMinLogSpan - (hi - lo)) / 2);
    return {lo - pad, hi + pad};
}

double DurationHistogramView::xOf(int64_t ns) const
{
    const QRect plot = plotRect();
    const auto [lo, hi] = axisRange();
    return plot.left() + double(plot.width()) * (logOf(ns) - lo) / std::max(1e-9, hi - lo);
}

// A bin's bar: its [from, to) extent, at least kMinBarPx wide around its centre.
std::pair<double, double> DurationHistogramView::barExtent(size_t bin) const
{
    const auto &b = edges()[bin];
    double x0 = xOf(b.from), x1 = xOf(b.to);
    if (x1 - x0 < kMinBarPx) {
        const double c = (x0 + x1) / 2;
        x0 = c - kMinBarPx / 2;
        x1 = c + kMinBarPx / 2;
    }
    return {x0, x1};
}

int DurationHistogramView::binAt(const QPoint &pos) const
{
    const QRect plot = plotRect();
    if (!plot.adjusted(0, -4, 0, 4).contains(pos))
        return -1;
    const auto &bins = edges();
    for (size_t i = 0; i < bins.size(); ++i) {
        const auto [x0, x1] = barExtent(i);
        if (pos.x() >= std::floor(x0) && pos.x() < std::ceil(x1))
            return int(i);
    }
    return -1;
}

QPoint DurationHistogramView::binCenter(int bin) const
{
    const auto &bins = edges();
    if (bin < 0 || size_t(bin) >= bins.size())
        return {};
    const auto [x0, x1] = barExtent(size_t(bin));
    return QPoint(int((x0 + x1) / 2), plotRect().bottom() - 2);
}

void DurationHistogramView::paintAxis(QPainter &p, const QRect &plot, const QColor &text) const
{
    const auto [lo, hi] = axisRange();
    // Ticks at 1, 10, 100 ... ns; with fewer than three decades in sight also at 2x and 5x, with
    // less than about one decade at every multiple.
    const std::vector<int> multiples = hi - lo < 1.2 ? std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}
                                       : hi - lo < 3 ? std::vector<int>{1, 2, 5}
                                                     : std::vector<int>{1};
    p.setPen(text);
    int lastRight = -1000;
    for (int decade = int(std::floor(lo)); decade <= int(std::ceil(hi)); ++decade) {
        for (const int m : multiples) {
            const double v = double(m) * std::pow(10.0, decade);
            if (std::log10(v) < lo - 1e-9 || std::log10(v) > hi + 1e-9)
                continue;
            const int x = int(std::lround(xOf(int64_t(std::llround(v)))));
            p.drawLine(x, plot.bottom(), x, plot.bottom() + 3);
            const QString label = DurationFormat::format(int64_t(std::llround(v)));
            const int w = p.fontMetrics().horizontalAdvance(label);
            const int left = std::min(x - w / 2, width() - w - 2);
            if (left > lastRight + 6) {
                p.drawText(left, plot.bottom() + 4 + p.fontMetrics().ascent(), label);
                lastRight = left + w;
            }
        }
    }
}

void DurationHistogramView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QColor background = m_dark ? QColor(0x1e, 0x1f, 0x22) : QColor(Qt::white);
    const QColor text = m_dark ? QColor(0xd0, 0xd0, 0xd0) : QColor(0x30, 0x30, 0x30);
    const QColor grid = m_dark ? QColor(0x3a, 0x3c, 0x40) : QColor(0xdd, 0xdd, 0xdd);
    p.fillRect(rect(), background);
    const QRect plot = plotRect();
    const auto &bins = edges();
    if (bins.empty()) {
        p.setPen(text);
        p.drawText(rect(), Qt::AlignCenter, tr("No occurrences"));
        return;
    }
    uint64_t most = 1;
    for (const auto &s : m_series)
        for (const auto &b : s.bins)
            most = std::max(most, b.count);
    p.setPen(grid);
    for (int i = 0; i <= 4; ++i) {
        const int y = plot.bottom() - plot.height() * i / 4;
        p.drawLine(plot.left(), y, plot.right(), y);
    }
    p.setPen(text);
    p.drawText(QRect(0, plot.top() - 8, plot.left() - 4, 16), Qt::AlignRight | Qt::AlignVCenter, QString::number(most));
    p.drawText(QRect(0, plot.bottom() - 8, plot.left() - 4, 16), Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0"));
    // Several series share each bin's extent side by side (A left, B right), in their colours.
    const double parts = double(std::max<size_t>(1, m_series.size()));
    for (size_t s = 0; s < m_series.size(); ++s) {
        QColor c = seriesColor(int(s), m_dark);
        c.setAlpha(220);
        for (size_t i = 0; i < m_series[s].bins.size() && i < bins.size(); ++i) {
            const auto &b = m_series[s].bins[i];
            if (!b.count)
                continue;
            const auto [x0, x1] = barExtent(i);
            const double w = (x1 - x0) / parts;
            const double h = std::max(1.0, double(plot.height()) * double(b.count) / double(most));
            QColor fill = c;
            if (int(i) == m_hover)
                fill = fill.lighter(125);
            p.fillRect(QRectF(x0 + 0.5 + w * double(s), plot.bottom() + 1 - h, std::max(1.0, w - 1.0), h), fill);
        }
    }
    if (m_selected >= 0 && size_t(m_selected) < bins.size()) {
        const auto [x0, x1] = barExtent(size_t(m_selected));
        p.setPen(QPen(m_dark ? QColor(Qt::white) : QColor(Qt::black), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x0, plot.top(), std::max(2.0, x1 - x0), plot.height()));
    }
    p.setPen(text);
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    paintAxis(p, plot, text);
    // Markers: median, p90, p99 of the first series.
    QPen dashed(m_dark ? QColor(0xf0, 0x60, 0x60) : QColor(0xc0, 0x20, 0x20), 1, Qt::DashLine);
    // Labels one line apart from the top, left of the line where they would leave the plot.
    // Markers on the same pixel (every occurrence equally long) share one label: "median = p90 = p99".
    int line = 0;
    for (size_t i = 0; i < m_markers.size();) {
        const int x = int(std::lround(xOf(m_markers[i].ns)));
        QString label = m_markers[i].label;
        size_t next = i + 1;
        for (; next < m_markers.size() && int(std::lround(xOf(m_markers[next].ns))) == x; ++next)
            label += QStringLiteral(" = ") + m_markers[next].label;
        i = next;
        p.setPen(dashed);
        p.drawLine(x, plot.top(), x, plot.bottom());
        const int w = p.fontMetrics().horizontalAdvance(label);
        const int left = x + 3 + w > plot.right() ? x - 3 - w : x + 3;
        p.setPen(dashed.color());
        p.drawText(left, plot.top() + (++line) * p.fontMetrics().height(), label);
    }
    // Legend, top right.
    int right = plot.right();
    for (size_t s = m_series.size(); s-- > 0;) {
        if (m_series[s].label.isEmpty())
            continue;
        const int w = p.fontMetrics().horizontalAdvance(m_series[s].label);
        const QRect box(right - w - 16, plot.top() + 4, 10, 10);
        p.fillRect(box, seriesColor(int(s), m_dark));
        p.setPen(text);
        p.drawText(box.right() + 4, box.bottom(), m_series[s].label);
        right = box.left() - 10;
    }
}

void DurationHistogramView::mouseMoveEvent(QMouseEvent *event)
{
    const int bin = binAt(event->position().toPoint());
    if (bin != m_hover) {
        m_hover = bin;
        update();
    }
    if (bin < 0) {
        QToolTip::hideText();
        return;
    }
    const auto &b = edges()[size_t(bin)];
    QString tip = tr("%1 .. %2").arg(DurationFormat::format(b.from), DurationFormat::format(b.to));
    for (const auto &s : m_series)
        tip += QStringLiteral("\n%1%2").arg(s.label.isEmpty() ? QString() : s.label + QStringLiteral(": "))
                   .arg(tr("%n occurrence(s)", nullptr, int(s.bins[size_t(bin)].count)));
    tip += tr("\nclick: make them the timeline's matches");
    QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

void DurationHistogramView::mousePressEvent(QMouseEvent *event)
{
    const int bin = binAt(event->position().toPoint());
    if (event->button() != Qt::LeftButton || bin < 0)
        return;
    setSelectedBin(bin);
    emit binClicked(bin);
}

void DurationHistogramView::leaveEvent(QEvent *)
{
    m_hover = -1;
    update();
}

} // namespace lanescope
