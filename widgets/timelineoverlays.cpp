#include "timelineoverlays.h"

#include "durationformat.h"
#include "timelineinput.h"
#include "timelineview.h"
#include "zoomcontrol.h"

#include "analysis/dependencychain.h"
#include "model/trace.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <unordered_set>
#include <cmath>

namespace lanescope {

void TimelineOverlays::paintLanes()
{
    m_p.save();
    m_p.setClipRect(m_view.timeArea());
    paintRange();
    paintMatches();
    paintChain();
    paintSelectedSlice();
    paintFlows();
    paintBox();
    paintCursor();
    m_p.restore();
    paintReorder();
}

void TimelineOverlays::paintReorder()
{
    const TimelineInput &input = *m_view.m_input;
    const TrackId moving = input.reorderTrack();
    if (!moving.isValid() || !input.mousePos())
        return;
    const TrackId target = m_view.trackAtY(input.mousePos()->y());
    const auto &layout = m_view.m_layout;
    const int from = layout.rowOfTrack(moving), to = target.isValid() ? layout.rowOfTrack(target) : -1;
    const auto &rows = layout.rows();
    const bool sameGroup =
        to >= 0 && m_view.m_trace->track(moving).group == m_view.m_trace->track(target).group && !rows[size_t(to)].pinned;
    // The lane being moved is tinted; a bar shows where it will land.
    const TimelineLayout::Row &src = rows[size_t(from)];
    m_p.fillRect(QRect(0, m_view.rowTop(src), m_view.timeArea().right(), src.height), m_view.m_palette.rangeFill);
    if (!sameGroup || to == from)
        return;
    const TimelineLayout::Row &dst = rows[size_t(to)];
    const int y = to > from ? m_view.rowTop(dst) + dst.height - 1 : m_view.rowTop(dst);
    m_p.fillRect(QRect(0, y - 1, m_view.timeArea().right(), 3), m_view.m_palette.rangeEdge);
}

void TimelineOverlays::paintRange()
{
    const ZoomControl *zoom = m_view.m_zoom;
    if (!zoom->hasSelection())
        return;
    const QRect area = m_view.timeArea();
    const LaneGeometry::Viewport vp = m_view.viewport();
    const double x0 = area.left() + std::clamp(vp.toX(zoom->selectionStart()), -2.0, vp.width + 2);
    const double x1 = area.left() + std::clamp(vp.toX(zoom->selectionEnd()), -2.0, vp.width + 2);
    m_p.fillRect(QRectF(x0, area.top(), std::max(1.0, x1 - x0), area.height()), m_view.m_palette.rangeFill);
    m_p.setPen(QPen(m_view.m_palette.rangeEdge, 1));
    m_p.drawLine(QPointF(x0, area.top()), QPointF(x0, area.bottom()));
    m_p.drawLine(QPointF(x1, area.top()), QPointF(x1, area.bottom()));
}

void TimelineOverlays::paintMatches()
{
    const auto &matches = m_view.m_matches;
    if (matches.empty())
        return;
    const Trace &trace = *m_view.m_trace;
    const auto all = trace.allSlices();
    const auto [t0, t1] = m_view.visibleRange();
    // Matches are in start order: the visible ones start at or before t1; look back a little for
    // long ones that started before t0.
    auto it = std::lower_bound(matches.begin(), matches.end(), t0,
                               [&](uint32_t id, int64_t v) { return all[id].start < v; });
    it -= std::min<ptrdiff_t>(it - matches.begin(), 64);
    m_p.setPen(QPen(m_view.m_palette.searchMatch, 2));
    m_p.setBrush(Qt::NoBrush);
    size_t drawn = 0;
    for (; it != matches.end() && all[*it].start <= t1 && drawn < TimelineView::kMaxDrawnMatches; ++it) {
        if (all[*it].end() < t0)
            continue;
        const QRectF r = m_view.sliceRect(SliceId(*it));
        if (r.isEmpty())
            continue;
        m_p.drawRect(r.adjusted(1, 1, -1, -1));
        ++drawn;
    }
}

void TimelineOverlays::paintSelectedSlice()
{
    if (!m_view.m_selected.isValid())
        return;
    const QRectF r = m_view.sliceRect(m_view.m_selected);
    if (r.isEmpty())
        return;
    m_p.setPen(QPen(m_view.m_palette.selection, 2));
    m_p.setBrush(Qt::NoBrush);
    m_p.drawRect(r);
    m_p.setPen(QPen(m_view.m_palette.background, 1));
    m_p.drawRect(r.adjusted(2, 2, -2, -2));
}

void TimelineOverlays::paintArrow(QPointF from, QPointF to, bool head)
{
    // A curve leaving the source to the right and entering the target from the left.
    QPainterPath path(from);
    const double dx = std::clamp(std::abs(to.x() - from.x()) / 2, 4.0, 40.0);
    path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
    m_p.setBrush(Qt::NoBrush);
    m_p.drawPath(path);
    if (!head)
        return;
    QPainterPath tip;
    tip.moveTo(to);
    tip.lineTo(to + QPointF(-7, -4));
    tip.lineTo(to + QPointF(-7, 4));
    tip.closeSubpath();
    m_p.fillPath(tip, m_p.pen().color());
}

void TimelineOverlays::paintFlows()
{
    m_view.m_flowArrows.clear();
    const Trace &trace = *m_view.m_trace;
    const auto flows = trace.flows();
    if (flows.empty())
        return;
    // Arrows that would land on the same pixels (zoomed out, thousands of launches) are drawn once.
    std::unordered_set<uint64_t> drawn;
    const auto add = [&](uint32_t f) {
        const Flow &flow = flows[f];
        if (!flow.from.isValid() || !flow.to.isValid())
            return;
        const QRectF a = m_view.sliceRect(flow.from), b = m_view.sliceRect(flow.to);
        if (a.isEmpty() || b.isEmpty())
            return;
        const QPointF from(a.right(), a.center().y()), to(b.left(), b.center().y());
        const auto q = [](double v) { return uint64_t(uint16_t(int(std::floor(v / 2)))); };
        if (!drawn.insert(q(from.x()) | q(from.y()) << 16 | q(to.x()) << 32 | q(to.y()) << 48).second)
            return;
        m_view.m_flowArrows.push_back(TimelineView::FlowArrow{from, to, f});
    };
    if (m_view.m_showAllFlows) {
        const auto [t0, t1] = m_view.visibleRange();
        const auto all = trace.allSlices();
        for (uint32_t f = 0; f < flows.size() && m_view.m_flowArrows.size() < TimelineView::kMaxDrawnFlows; ++f) {
            const Flow &flow = flows[f];
            if (!flow.from.isValid() || !flow.to.isValid())
                continue;
            const int64_t a = all[flow.from.value].end(), b = all[flow.to.value].start;
            if (std::max(a, b) < t0 || std::min(a, b) > t1)
                continue;
            add(f);
        }
    } else if (m_view.m_selected.isValid()) {
        for (FlowId f : trace.flowsFrom(m_view.m_selected))
            add(f.value);
        for (FlowId f : trace.flowsTo(m_view.m_selected))
            add(f.value);
    }
    if (m_view.m_flowArrows.empty())
        return;
    m_p.setRenderHint(QPainter::Antialiasing, true);
    // Many arrows: thinner, see-through and without heads, so the lanes stay readable.
    const size_t n = m_view.m_flowArrows.size();
    QColor colour = m_view.m_palette.flowArrow;
    if (n > 20)
        colour.setAlpha(n > 500 ? 60 : 120);
    m_p.setPen(QPen(colour, n > 20 ? 1.0 : 1.3));
    for (const auto &arrow : m_view.m_flowArrows)
        paintArrow(arrow.from, arrow.to, n <= 500);
    m_p.setRenderHint(QPainter::Antialiasing, false);
}

void TimelineOverlays::paintChain()
{
    const DependencyChain *chain = m_view.m_chain.get();
    if (!chain || chain->empty())
        return;
    const QRect area = m_view.timeArea();
    const auto visible = [&area](const QRectF &r) { return !r.isEmpty() && r.intersects(QRectF(area)); };
    m_p.setRenderHint(QPainter::Antialiasing, true);
    // Chain edges other than nesting (nesting shows by itself), nearest first, capped like flows.
    QColor edge = m_view.m_palette.chainEdge;
    m_p.setPen(QPen(edge, 1.4));
    size_t drawn = 0;
    for (const auto *edges : {&chain->upstreamEdges(), &chain->downstreamEdges()})
        for (const DependencyEdge &e : *edges) {
            if (drawn >= TimelineView::kMaxDrawnFlows)
                break;
            if (e.kind == DependencyKind::Nesting)
                continue;
            const QRectF a = m_view.sliceRect(e.from), b = m_view.sliceRect(e.to);
            if (a.isEmpty() || b.isEmpty() || (!visible(a) && !visible(b)))
                continue;
            paintArrow(QPointF(a.right(), a.center().y()), QPointF(b.left(), b.center().y()), true);
            ++drawn;
        }
    // The critical path: thick outlines, and arrows between consecutive slices on different rows.
    const auto &path = m_view.m_criticalPath;
    if (!path.empty()) {
        m_p.setPen(QPen(m_view.m_palette.criticalPath, 2.5));
        m_p.setBrush(Qt::NoBrush);
        QRectF prev;
        for (SliceId id : path) {
            const QRectF r = m_view.sliceRect(id);
            if (r.isEmpty()) {
                prev = QRectF();
                continue;
            }
            if (visible(r))
                m_p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
            // an arrow where one slice follows another; none from a parent into its child
            const bool nested = prev.left() <= r.left() + 0.5 && r.right() <= prev.right() + 0.5;
            if (!prev.isEmpty() && !nested && std::abs(prev.center().y() - r.center().y()) > 1 && (visible(prev) || visible(r)))
                paintArrow(QPointF(prev.right(), prev.center().y()), QPointF(r.left(), r.center().y()), true);
            prev = r;
        }
    }
    m_p.setRenderHint(QPainter::Antialiasing, false);
}

void TimelineOverlays::paintBox()
{
    const TimelineInput &input = *m_view.m_input;
    if (input.drag() != TimelineInput::Drag::Box || !input.mousePos())
        return;
    const QRect area = m_view.timeArea();
    const int x0 = std::min(input.pressPos().x(), input.mousePos()->x());
    const int x1 = std::max(input.pressPos().x(), input.mousePos()->x());
    const QRect box(x0, area.top(), x1 - x0, area.height());
    m_p.fillRect(box, m_view.m_palette.rangeFill);
    m_p.setPen(QPen(m_view.m_palette.rangeEdge, 1, Qt::DashLine));
    m_p.drawRect(box.adjusted(0, 0, -1, -1));
}

void TimelineOverlays::paintCursor()
{
    const auto pos = m_view.m_input->mousePos();
    if (!pos || !m_view.timeArea().contains(*pos))
        return;
    const QRect area = m_view.timeArea();
    m_p.setPen(QPen(m_view.m_palette.cursorLine, 1));
    m_p.drawLine(QPointF(pos->x() + 0.5, area.top()), QPointF(pos->x() + 0.5, area.bottom()));
}

void TimelineOverlays::paintRuler()
{
    const TimelinePalette &pal = m_view.m_palette;
    const QRect area = m_view.timeArea();
    const int rulerH = m_view.m_rulerHeight;
    const QFontMetrics fm = m_p.fontMetrics();
    const int64_t origin = m_view.m_trace->startNs();
    m_p.save();
    m_p.setClipRect(QRect(area.left(), 0, area.width(), rulerH));
    const auto label = [&](double x, const QString &text, const QColor &bg) {
        const int w = fm.horizontalAdvance(text) + 8;
        const double lx = std::clamp(x - w / 2.0, double(area.left()), double(area.right() - w));
        const QRectF r(lx, 1, w, rulerH - 3);
        m_p.fillRect(r, bg);
        m_p.setPen(Qt::white);
        m_p.drawText(r, Qt::AlignCenter, text);
    };
    const ZoomControl *zoom = m_view.m_zoom;
    if (zoom->hasSelection()) {
        const LaneGeometry::Viewport vp = m_view.viewport();
        const double x0 = area.left() + std::clamp(vp.toX(zoom->selectionStart()), -2.0, vp.width + 2);
        const double x1 = area.left() + std::clamp(vp.toX(zoom->selectionEnd()), -2.0, vp.width + 2);
        label((x0 + x1) / 2, DurationFormat::format(zoom->selectionEnd() - zoom->selectionStart()), pal.rangeEdge);
    }
    const auto pos = m_view.m_input->mousePos();
    if (pos && m_view.timeArea().contains(*pos)) {
        const int64_t t = m_view.timeAtX(pos->x());
        label(pos->x(), DurationFormat::formatPrecise(t - origin), QColor(0x37, 0x41, 0x51));
    }
    m_p.restore();
}

} // namespace lanescope
