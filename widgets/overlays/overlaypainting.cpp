#include "overlaypainting.h"

#include "timeline/timelineframe.h"

#include "model/trace.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace lanescope {

void OverlayPainting::arrow(QPainter &p, QPointF from, QPointF to, bool head)
{
    QPainterPath path(from);
    const double dx = std::clamp(std::abs(to.x() - from.x()) / 2, 4.0, 40.0);
    path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    if (!head)
        return;
    QPainterPath tip;
    tip.moveTo(to);
    tip.lineTo(to + QPointF(-7, -4));
    tip.lineTo(to + QPointF(-7, 4));
    tip.closeSubpath();
    p.fillPath(tip, p.pen().color());
}

size_t OverlayPainting::sliceOutlines(QPainter &p, const TimelineFrame &frame, std::span<const uint32_t> ids,
                                      const QColor &colour, double width, size_t maxDrawn)
{
    if (ids.empty() || !frame.trace())
        return 0;
    const auto all = frame.trace()->allSlices();
    const auto [t0, t1] = frame.visibleRange();
    // In start order: the visible ones start at or before t1; look back a little for long ones that
    // started before t0.
    auto it = std::lower_bound(ids.begin(), ids.end(), t0, [&](uint32_t id, int64_t v) { return all[id].start < v; });
    it -= std::min<ptrdiff_t>(it - ids.begin(), 64);
    p.setPen(QPen(colour, width));
    p.setBrush(Qt::NoBrush);
    size_t drawn = 0;
    for (; it != ids.end() && all[*it].start <= t1 && drawn < maxDrawn; ++it) {
        if (all[*it].end() < t0)
            continue;
        const QRectF r = frame.sliceRect(SliceId(*it));
        if (r.isEmpty())
            continue;
        p.drawRect(r.adjusted(1, 1, -1, -1));
        ++drawn;
    }
    return drawn;
}

void OverlayPainting::rangeBand(QPainter &p, const TimelineFrame &frame, int64_t t0, int64_t t1, const QColor &fill,
                                const QColor &edge)
{
    const QRect area = frame.timeArea();
    const double x0 = frame.clampedXOf(t0);
    const double x1 = frame.clampedXOf(t1);
    p.fillRect(QRectF(x0, area.top(), std::max(1.0, x1 - x0), area.height()), fill);
    p.setPen(QPen(edge, 1));
    p.drawLine(QPointF(x0, area.top()), QPointF(x0, area.bottom()));
    p.drawLine(QPointF(x1, area.top()), QPointF(x1, area.bottom()));
}

void OverlayPainting::rulerLabel(QPainter &p, const TimelineFrame &frame, double x, const QString &text, const QColor &bg)
{
    const QRect area = frame.timeArea();
    const int rulerH = frame.rulerHeight();
    const int w = p.fontMetrics().horizontalAdvance(text) + 8;
    const double lx = std::clamp(x - w / 2.0, double(area.left()), double(area.right() - w));
    const QRectF r(lx, 1, w, rulerH - 3);
    p.fillRect(r, bg);
    p.setPen(Qt::white);
    p.drawText(r, Qt::AlignCenter, text);
}

} // namespace lanescope
