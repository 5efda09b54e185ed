#include "selectionoverlay.h"

#include "timeline/timelineframe.h"

#include <QPainter>

namespace lanescope {

bool SelectionOverlay::setSelected(SliceId id)
{
    if (id == m_selected)
        return false;
    m_selected = id;
    requestRepaint();
    return true;
}

void SelectionOverlay::paint(QPainter &p, const TimelineFrame &frame)
{
    if (!m_selected.isValid())
        return;
    const QRectF r = frame.sliceRect(m_selected);
    if (r.isEmpty())
        return;
    p.setPen(QPen(frame.palette().selection, 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r);
    p.setPen(QPen(frame.palette().background, 1));
    p.drawRect(r.adjusted(2, 2, -2, -2));
}

} // namespace lanescope
