#pragma once
// What the mouse is doing, drawn over everything else: the box-zoom rectangle, the cursor line and
// its time in the ruler, and while a lane is dragged by its name, the lane tinted and a bar where
// it will land. Reads TimelineInput's state; the view paints it after every other overlay.
#include "timelineoverlay.h"

namespace lanescope {

class TimelineInput;

class InputOverlay : public TimelineOverlay
{
public:
    explicit InputOverlay(const TimelineInput &input) : m_input(input) {}

    void paint(QPainter &p, const TimelineFrame &frame) override;
    void paintRuler(QPainter &p, const TimelineFrame &frame) override;
    // The whole widget: the lane being moved is tinted across the header column too.
    QRect clipRect(const TimelineFrame &frame) const override;

private:
    void paintBox(QPainter &p, const TimelineFrame &frame);
    void paintCursor(QPainter &p, const TimelineFrame &frame);
    void paintReorder(QPainter &p, const TimelineFrame &frame);

    const TimelineInput &m_input;
};

} // namespace lanescope
