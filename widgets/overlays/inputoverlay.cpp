#include "inputoverlay.h"

#include "overlaypainting.h"
#include "style/durationformat.h"
#include "timeline/timelineframe.h"
#include "timeline/timelineinput.h"

#include "model/trace.h"

#include <QPainter>

#include <algorithm>

namespace lanescope {

QRect InputOverlay::clipRect(const TimelineFrame &frame) const
{
    return frame.rect();
}

void InputOverlay::paint(QPainter &p, const TimelineFrame &frame)
{
    p.save();
    p.setClipRect(frame.timeArea());
    paintBox(p, frame);
    paintCursor(p, frame);
    p.restore();
    paintReorder(p, frame);
}

void InputOverlay::paintBox(QPainter &p, const TimelineFrame &frame)
{
    if (m_input.drag() != TimelineInput::Drag::Box || !m_input.mousePos())
        return;
    const QRect area = frame.timeArea();
    const int x0 = std::min(m_input.pressPos().x(), m_input.mousePos()->x());
    const int x1 = std::max(m_input.pressPos().x(), m_input.mousePos()->x());
    const QRect box(x0, area.top(), x1 - x0, area.height());
    p.fillRect(box, frame.palette().rangeFill);
    p.setPen(QPen(frame.palette().rangeEdge, 1, Qt::DashLine));
    p.drawRect(box.adjusted(0, 0, -1, -1));
}

void InputOverlay::paintCursor(QPainter &p, const TimelineFrame &frame)
{
    const auto pos = m_input.mousePos();
    if (!pos || !frame.timeArea().contains(*pos))
        return;
    const QRect area = frame.timeArea();
    p.setPen(QPen(frame.palette().cursorLine, 1));
    p.drawLine(QPointF(pos->x() + 0.5, area.top()), QPointF(pos->x() + 0.5, area.bottom()));
}

void InputOverlay::paintReorder(QPainter &p, const TimelineFrame &frame)
{
    const TrackId moving = m_input.reorderTrack();
    if (!moving.isValid() || !m_input.mousePos() || !frame.trace())
        return;
    const Trace &trace = *frame.trace();
    const TrackId target = frame.trackAtY(m_input.mousePos()->y());
    const TimelineLayout &layout = frame.layout();
    const int from = layout.rowOfTrack(moving), to = target.isValid() ? layout.rowOfTrack(target) : -1;
    if (from < 0)
        return;
    const auto &rows = layout.rows();
    const bool sameGroup =
        to >= 0 && trace.track(moving).group == trace.track(target).group && !rows[size_t(to)].pinned;
    // The lane being moved is tinted; a bar shows where it will land.
    const TimelineLayout::Row &src = rows[size_t(from)];
    p.fillRect(QRect(0, frame.rowTop(src), frame.timeArea().right(), src.height), frame.palette().rangeFill);
    if (!sameGroup || to == from)
        return;
    const TimelineLayout::Row &dst = rows[size_t(to)];
    const int y = to > from ? frame.rowTop(dst) + dst.height - 1 : frame.rowTop(dst);
    p.fillRect(QRect(0, y - 1, frame.timeArea().right(), 3), frame.palette().rangeEdge);
}

void InputOverlay::paintRuler(QPainter &p, const TimelineFrame &frame)
{
    const auto pos = m_input.mousePos();
    if (!pos || !frame.timeArea().contains(*pos) || !frame.trace())
        return;
    const int64_t t = frame.timeAtX(pos->x());
    OverlayPainting::rulerLabel(p, frame, pos->x(), DurationFormat::formatPrecise(t - frame.trace()->startNs()),
                                QColor(0x37, 0x41, 0x51));
}

} // namespace lanescope
