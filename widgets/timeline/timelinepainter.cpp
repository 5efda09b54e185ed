#include "timelinepainter.h"

#include "lanes/laneraster.h"
#include "overlays/timelineoverlay.h"
#include "style/durationformat.h"
#include "timelineframe.h"

#include "model/trace.h"
#include "util/unittext.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace lanescope {

namespace {

QString fromView(std::string_view v)
{
    return QString::fromUtf8(v.data(), qsizetype(v.size()));
}

// The view's strings (same translation context as TimelineView::tr).
QString tr(const char *text)
{
    return QCoreApplication::translate("lanescope::TimelineView", text);
}

} // namespace

TimelinePainter::TimelinePainter(QPainter &painter, const TimelineFrame &frame,
                                 std::span<TimelineOverlay *const> overlays)
    : m_p(painter), m_f(frame), m_overlays(overlays), m_font(painter.font())
{
    for (const TimelineOverlay *o : m_overlays)
        if (o->dimsSlices())
            m_dimmers.push_back(o);
}

void TimelinePainter::paint()
{
    const TimelinePalette &pal = m_f.palette();
    m_p.fillRect(m_f.rect(), pal.background);
    if (!m_f.trace()) {
        paintEmpty();
        return;
    }
    const QRect area = m_f.timeArea();
    const auto ticks = TimeRuler::ticks(m_f.viewport().t0, m_f.viewport().t1, m_f.trace()->startNs(), area.width(),
                                        m_p.fontMetrics());
    const int ruler = m_f.rulerHeight();
    m_p.fillRect(QRect(0, ruler, m_f.headerWidth(), m_f.size().height()), pal.headerBackground);
    paintGrid(ticks);

    // Scrolling rows below the pinned area, then sticky group headers, then the pinned rows.
    const int pinnedH = m_f.layout().pinnedHeight();
    const auto &rows = m_f.layout().rows();
    m_p.save();
    m_p.setClipRect(QRect(0, ruler + pinnedH, area.right() + 1, std::max(0, area.height() - pinnedH)));
    const int scroll = m_f.scroll();
    const size_t firstScrolling = size_t(m_f.layout().firstRowBelow(scroll + pinnedH));
    for (size_t i = std::max(firstScrolling, size_t(m_f.layout().pinnedRowCount())); i < rows.size(); ++i) {
        const int y = m_f.rowTop(rows[i]);
        if (y >= m_f.size().height())
            break;
        if (rows[i].isTrack())
            paintTrackRow(i, y);
        else
            paintGroupRow(i, y);
    }
    paintStickyHeaders(firstScrolling);
    m_p.restore();
    if (pinnedH > 0) {
        m_p.save();
        m_p.setClipRect(QRect(0, ruler, area.right() + 1, std::min(pinnedH, area.height())));
        m_p.fillRect(QRect(0, ruler, area.right() + 1, pinnedH), pal.background);
        m_p.fillRect(QRect(0, ruler, m_f.headerWidth(), pinnedH), pal.headerBackground);
        paintGrid(ticks);
        for (size_t i = 0; i < size_t(m_f.layout().pinnedRowCount()); ++i)
            paintTrackRow(i, m_f.rowTop(rows[i]));
        m_p.restore();
        m_p.setPen(QPen(pal.mutedText, 2));
        m_p.drawLine(0, ruler + pinnedH, area.right(), ruler + pinnedH);
    }
    // The header column's right edge.
    m_p.setPen(pal.separator);
    m_p.drawLine(area.left() - 1, ruler, area.left() - 1, m_f.size().height());

    paintOverlays();
    paintRuler(ticks);
    paintOverlayRulers();
}

void TimelinePainter::paintOverlays()
{
    for (TimelineOverlay *o : m_overlays) {
        m_p.save();
        m_p.setClipRect(o->clipRect(m_f));
        o->paint(m_p, m_f);
        m_p.restore();
    }
}

void TimelinePainter::paintOverlayRulers()
{
    const QRect area = m_f.timeArea();
    for (TimelineOverlay *o : m_overlays) {
        m_p.save();
        m_p.setClipRect(QRect(area.left(), 0, area.width(), m_f.rulerHeight()));
        o->paintRuler(m_p, m_f);
        m_p.restore();
    }
}

void TimelinePainter::paintStickyHeaders(size_t firstRow)
{
    // The group headers enclosing the first visible row stay at the top while their lanes scroll.
    const auto &rows = m_f.layout().rows();
    if (firstRow >= rows.size())
        return;
    std::vector<size_t> chain; // innermost first
    int level = rows[firstRow].isTrack() ? rows[firstRow].level : rows[firstRow].level + 1;
    for (size_t i = firstRow + 1; i-- > size_t(m_f.layout().pinnedRowCount()) && level > 0;) {
        if (!rows[i].isTrack() && rows[i].level < level) {
            chain.push_back(i);
            level = rows[i].level;
        }
    }
    int y = m_f.rulerHeight() + m_f.layout().pinnedHeight();
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const TimelineLayout::Row &row = rows[*it];
        if (m_f.rowTop(row) >= y)
            break; // on screen where it belongs
        paintGroupRow(*it, y);
        y += row.height;
    }
}

void TimelinePainter::paintEmpty()
{
    m_p.setPen(m_f.palette().mutedText);
    m_p.drawText(m_f.rect(), Qt::AlignCenter | Qt::TextWordWrap,
                 tr("No trace loaded.\nOpen one with File > Open (Ctrl+O) or drop files here."));
}

void TimelinePainter::paintGrid(const std::vector<TimeRuler::Tick> &ticks)
{
    const QRect area = m_f.timeArea();
    m_p.setPen(m_f.palette().gridLine);
    for (const auto &t : ticks)
        if (t.major)
            m_p.drawLine(QPointF(area.left() + t.x, area.top()), QPointF(area.left() + t.x, area.bottom()));
}

void TimelinePainter::paintRuler(const std::vector<TimeRuler::Tick> &ticks)
{
    const TimelinePalette &pal = m_f.palette();
    const QRect area = m_f.timeArea();
    const int rulerH = m_f.rulerHeight();
    const int hw = m_f.headerWidth();
    m_p.fillRect(QRect(0, 0, m_f.size().width(), rulerH), pal.rulerBackground);
    m_p.setPen(pal.separator);
    m_p.drawLine(0, rulerH - 1, m_f.size().width(), rulerH - 1);
    // Left corner: the visible span.
    m_p.setPen(pal.mutedText);
    const QString corner = tr("%1 visible").arg(DurationFormat::format(m_f.viewport().t1 - m_f.viewport().t0));
    m_p.drawText(QRect(6, 0, hw - 10, rulerH - 1), Qt::AlignVCenter | Qt::AlignLeft,
                 m_p.fontMetrics().elidedText(corner, Qt::ElideRight, hw - 10));

    m_p.save();
    m_p.setClipRect(QRect(area.left(), 0, area.width(), rulerH));
    const int base = rulerH - 1;
    for (const auto &t : ticks) {
        const double x = area.left() + t.x;
        m_p.setPen(pal.mutedText);
        m_p.drawLine(QPointF(x, base - (t.major ? 8 : 4)), QPointF(x, base));
        if (t.major) {
            m_p.setPen(pal.text);
            m_p.drawText(QPointF(x + 3, base - 8), t.label);
        }
    }
    m_p.restore();
}

void TimelinePainter::paintGroupRow(size_t rowIndex, int y)
{
    const TimelineLayout::Row &row = m_f.layout().rows()[rowIndex];
    const TimelinePalette &pal = m_f.palette();
    const int w = m_f.size().width();
    const QRect r(0, y, w, row.height);
    m_p.fillRect(r, pal.groupBackground);
    m_p.setPen(pal.separator);
    m_p.drawLine(0, r.bottom(), w, r.bottom());
    const int x = 6 + row.level * m_f.layout().metrics().indent;
    // Fold marker: a small triangle pointing right (folded) or down (open).
    const double cy = y + row.height / 2.0;
    QPainterPath arrow;
    if (row.collapsed) {
        arrow.moveTo(x, cy - 4);
        arrow.lineTo(x + 6, cy);
        arrow.lineTo(x, cy + 4);
    } else {
        arrow.moveTo(x - 1, cy - 3);
        arrow.lineTo(x + 7, cy - 3);
        arrow.lineTo(x + 3, cy + 2);
    }
    arrow.closeSubpath();
    m_p.setRenderHint(QPainter::Antialiasing, true);
    m_p.fillPath(arrow, pal.mutedText);
    m_p.setRenderHint(QPainter::Antialiasing, false);

    QFont bold = m_font;
    bold.setBold(true);
    m_p.setFont(bold);
    m_p.setPen(pal.text);
    const int textX = x + 12;
    // Open: the name across the row. Folded: the name in the header column, the lanes' activity beside it.
    const int textRight = row.collapsed ? m_f.headerWidth() - 6 : w - 8;
    const QRect textRect(textX, y, std::max(0, textRight - textX), row.height);
    m_p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                 QFontMetrics(bold).elidedText(m_f.foldName(row), Qt::ElideRight, textRect.width()));
    m_p.setFont(m_font);
    if (row.collapsed)
        paintActivity(rowIndex, y, row.height);
}

void TimelinePainter::paintActivity(size_t rowIndex, int y, int height)
{
    const QRect area = m_f.timeArea();
    const auto &busy = m_f.layout().rowActivity(rowIndex);
    const auto [t0, t1] = m_f.visibleRange();
    auto it = std::lower_bound(busy.begin(), busy.end(), t0, [](const auto &iv, int64_t t) { return iv.second < t; });
    QColor fill = m_f.palette().mutedText;
    fill.setAlpha(170);
    const int top = y + 4, h = std::max(1, height - 8);
    double runStart = -1, runEnd = -1; // bars closer than a pixel are drawn as one
    m_p.save();
    m_p.setClipRect(QRect(area.left(), y, area.width(), height));
    for (; it != busy.end() && it->first <= t1; ++it) {
        const double a = std::max<double>(m_f.xOf(it->first), area.left()), b = std::min<double>(m_f.xOf(it->second), area.right() + 1);
        if (runStart >= 0 && a <= runEnd + 1) {
            runEnd = std::max(runEnd, b);
            continue;
        }
        if (runStart >= 0)
            m_p.fillRect(QRectF(runStart, top, std::max(1.0, runEnd - runStart), h), fill);
        runStart = a;
        runEnd = b;
    }
    if (runStart >= 0)
        m_p.fillRect(QRectF(runStart, top, std::max(1.0, runEnd - runStart), h), fill);
    m_p.restore();
}

void TimelinePainter::paintTrackRow(size_t rowIndex, int y)
{
    const TimelinePalette &pal = m_f.palette();
    const Trace &trace = *m_f.trace();
    const TimelineLayout::Row &row = m_f.layout().rows()[rowIndex];
    const QRect area = m_f.timeArea();
    const int hw = m_f.headerWidth();
    const int rowH = m_f.layout().metrics().rowHeight;
    const Track &track = trace.track(row.track());

    // Header column: the track name on the first slice row, counters show their scale below.
    const int x = 6 + row.level * m_f.layout().metrics().indent;
    m_p.setPen(pal.text);
    const QRect nameRect(x, y + row.slicesTop, hw - x - 6, std::min(rowH, row.height));
    m_p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft,
                 m_p.fontMetrics().elidedText(m_f.trackName(row.track()), Qt::ElideRight, nameRect.width()));
    if (track.counterCount && row.depthCount == 0) {
        m_p.setPen(pal.mutedText);
        const QString range = tr("max %1").arg(QString::fromStdString(UnitText::value(row.counterMax, trace.str(track.unit))));
        m_p.drawText(QRect(x, y + rowH, hw - x - 6, rowH), Qt::AlignVCenter | Qt::AlignLeft,
                     m_p.fontMetrics().elidedText(range, Qt::ElideRight, hw - x - 6));
    }

    const LaneGeometry &g = m_f.lane(rowIndex);
    m_p.save();
    m_p.setClipRect(QRect(area.left(), y, area.width(), row.height).intersected(area));
    if (!g.counter.empty())
        paintCounter(row, g, y);
    paintSlices(row, g, y);
    paintInstants(row, g, y);
    m_p.restore();

    m_p.setPen(pal.separator);
    m_p.drawLine(0, y + row.height - 1, area.right(), y + row.height - 1);
}

void TimelinePainter::paintSlices(const TimelineLayout::Row &row, const LaneGeometry &g, int y)
{
    if (g.slices.empty())
        return;
    const Trace &trace = *m_f.trace();
    const TimelinePalette &pal = m_f.palette();
    const QRect area = m_f.timeArea();
    const double left = area.left();
    const int rowH = m_f.layout().metrics().rowHeight;
    const auto all = trace.allSlices();
    const QFontMetrics fm = m_p.fontMetrics();
    const double top = y + row.slicesTop;
    const bool dark = pal.theme == TimelinePalette::Theme::Dark;
    const bool colorByCategory = m_f.colorByCategory();
    // Darkening in RGB (not QColor::darker's HSV round trip): thousands of items per frame.
    const auto scaled = [](QRgb rgb, int percent) {
        return qRgb(qRed(rgb) * percent / 100, qGreen(rgb) * percent / 100, qBlue(rgb) * percent / 100);
    };
    // Dimmed by an overlay (outside the selection's dependency chain): mixed towards the background
    // (a merged run keeps its colour when the slice it stands for does).
    const auto keep = [this](uint32_t slice) {
        for (const TimelineOverlay *o : m_dimmers)
            if (!o->keepsColour(SliceId(slice)))
                return false;
        return true;
    };
    const QRgb bg = pal.background.rgb();
    const int keepPercent = pal.dimPercent;
    const auto dimmed = [bg, keepPercent](QRgb rgb) {
        const auto mix = [keepPercent](int a, int b) { return (a * keepPercent + b * (100 - keepPercent)) / 100; };
        return qRgb(mix(qRed(rgb), qRed(bg)), mix(qGreen(rgb), qGreen(bg)), mix(qBlue(rgb), qBlue(bg)));
    };
    const auto colourOf = [&](const LaneGeometry::SliceItem &item) {
        QRgb rgb = m_f.sliceColorOf(item.slice, StringId(colorByCategory ? item.category : item.name));
        if (dark)
            rgb = scaled(rgb, 74);
        if (item.count > 1)
            rgb = scaled(rgb, 89); // a merged run of sub-pixel slices
        if (!m_dimmers.empty() && !keep(item.slice))
            rgb = dimmed(rgb);
        return rgb;
    };
    // Whole pixels: [px0, px1) of the time area, at least one.
    const auto pixels = [left](const LaneGeometry::SliceItem &item) {
        const int px0 = int(std::floor(left + item.x0));
        return std::pair<int, int>(px0, std::max(px0 + 1, int(std::floor(left + item.x1))));
    };
    const bool filled = LaneRaster::usable(m_p, g.slices.size());
    if (filled) {
        // Thousands of 1-2 px items (far zoom): written as pixels, drawn as one image.
        thread_local LaneRaster raster;
        raster.begin(area.width(), row.depthCount, rowH);
        for (const auto &item : g.slices) {
            const auto [px0, px1] = pixels(item);
            raster.fill(item.depth, px0 - area.left(), px1 - area.left(), colourOf(item));
        }
        raster.draw(m_p, area.left(), int(top));
    }
    for (const auto &item : g.slices) {
        const double vx0 = std::max<double>(item.x0, 0), vx1 = std::min<double>(item.x1, area.width());
        const bool labelled = item.count == 1 && vx1 - vx0 >= kMinTextWidth;
        if (filled && !labelled)
            continue;
        const QColor c = QColor::fromRgb(colourOf(item));
        const auto [px0, px1] = pixels(item);
        const QRect r(px0, int(top) + item.depth * rowH, px1 - px0, rowH - 1);
        if (!filled)
            m_p.fillRect(r, c); // the raster engine's fastest solid fill
        if (!labelled)
            continue;
        // Label the part that is on screen.
        const QRectF textRect(left + vx0 + 3, r.top(), vx1 - vx0 - 6, r.height());
        const StringId name = all[item.slice].name;
        const QString &text = label(fm, name.value, trace.str(name), int(textRect.width()));
        if (text.isEmpty())
            continue;
        // Dark text on light colours, white on dark ones (perceived luminance).
        const int luminance = (299 * c.red() + 587 * c.green() + 114 * c.blue()) / 1000;
        m_p.setPen(luminance < 135 ? QColor(Qt::white) : QColor(0x1f, 0x23, 0x2b));
        m_p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, text);
    }
}

const QString &TimelinePainter::label(const QFontMetrics &fm, uint32_t name, std::string_view text, int width)
{
    const quint64 key = (quint64(name) << 24) | quint64(std::clamp(width, 0, (1 << 24) - 1));
    auto it = m_labels.find(key);
    if (it == m_labels.end())
        it = m_labels.insert(key, fm.elidedText(fromView(text), Qt::ElideRight, width));
    return *it;
}

void TimelinePainter::paintInstants(const TimelineLayout::Row &row, const LaneGeometry &g, int y)
{
    if (g.instants.empty())
        return;
    const double left = m_f.timeArea().left();
    const auto all = m_f.trace()->allInstants();
    // In the strip above the slices, or centred in a lane of instants only.
    const double h = row.depthCount ? row.slicesTop : row.height;
    const double cy = y + h / 2.0;
    const double half = std::min(5.0, h / 2.0 - 1);
    m_p.setRenderHint(QPainter::Antialiasing, true);
    m_p.setPen(QPen(m_f.palette().text, 0.8));
    for (const auto &item : g.instants) {
        const double x = left + item.x;
        QPainterPath diamond;
        diamond.moveTo(x, cy - half);
        diamond.lineTo(x + half * 0.8, cy);
        diamond.lineTo(x, cy + half);
        diamond.lineTo(x - half * 0.8, cy);
        diamond.closeSubpath();
        m_p.setBrush(QColor::fromRgb(m_f.sliceColor(all[item.instant].name)));
        m_p.drawPath(diamond);
    }
    m_p.setBrush(Qt::NoBrush);
    m_p.setRenderHint(QPainter::Antialiasing, false);
}

void TimelinePainter::paintCounter(const TimelineLayout::Row &row, const LaneGeometry &g, int y)
{
    const QRect area = m_f.timeArea();
    const double left = area.left();
    const double lo = std::min(0.0, row.counterMin);
    const double hi = row.counterMax > lo ? row.counterMax : lo + 1;
    const double bottom = y + row.height - 3;
    const double top = y + 4;
    const auto toY = [&](double v) { return bottom - (v - lo) / (hi - lo) * (bottom - top); };
    QColor c = QColor::fromRgb(m_f.sliceColor(m_f.trace()->track(row.track()).name));
    const QColor line = c.darker(140);
    c.setAlpha(150);
    // A step chart: one filled rectangle per step (at most a few per pixel column) and the outline
    // of the steps as one polyline. Rectangles and aliased lines are cheap; a filled path is not.
    QPolygonF outline;
    outline.reserve(qsizetype(2 * g.counter.size() + 1));
    for (size_t i = 0; i < g.counter.size(); ++i) {
        const double x = left + g.counter[i].x;
        const double nextX = std::max(x, left + (i + 1 < g.counter.size() ? g.counter[i + 1].x : g.counterEndX));
        const double vy = toY(g.counter[i].value);
        m_p.fillRect(QRectF(x, std::min(vy, bottom), nextX - x, std::abs(bottom - vy)), c);
        outline << QPointF(x, vy) << QPointF(nextX, vy);
    }
    m_p.setPen(QPen(line, 0));
    m_p.drawPolyline(outline);
    m_p.drawLine(QPointF(left, bottom), QPointF(left + area.width(), bottom));
}

} // namespace lanescope
