#include "timelineoverlay.h"

#include "timeline/timelineframe.h"

namespace lanescope {

TimelineOverlay::~TimelineOverlay() = default;

void TimelineOverlay::paintRuler(QPainter &, const TimelineFrame &) {}

QRect TimelineOverlay::clipRect(const TimelineFrame &frame) const
{
    return frame.timeArea();
}

} // namespace lanescope
