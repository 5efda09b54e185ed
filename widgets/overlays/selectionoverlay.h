#pragma once
// The selected slice: a dark outline with a thin inner line in the background colour.
#include "timelineoverlay.h"

namespace lanescope {

class SelectionOverlay : public TimelineOverlay
{
public:
    SliceId selected() const { return m_selected; }
    // Returns false when `id` was already selected.
    bool setSelected(SliceId id);

    void paint(QPainter &p, const TimelineFrame &frame) override;
    void reset() override { m_selected = SliceId(); }

private:
    SliceId m_selected;
};

} // namespace lanescope
