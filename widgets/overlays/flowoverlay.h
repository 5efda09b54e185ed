#pragma once
// Flow arrows: those of the selected slice always (incoming and outgoing), every flow touching the
// visible range on demand. Arrows landing on the same pixels (zoomed out, thousands of launches)
// are drawn once; many arrows are thinner, see-through and without heads.
#include "timelineoverlay.h"

#include <QPointF>

#include <cstdint>
#include <vector>

namespace lanescope {

class FlowOverlay : public TimelineOverlay
{
public:
    static constexpr size_t kMaxDrawn = 5000; // "all flows" arrows per frame

    struct Arrow
    {
        QPointF from, to;
        uint32_t flow = 0;
    };

    // The slice whose flows are shown (the view's selection).
    void setSelected(SliceId id);
    void setShowAll(bool on);
    bool showAll() const { return m_showAll; }
    // The arrows of the current frame (what the last paint drew).
    const std::vector<Arrow> &arrows() const { return m_arrows; }

    void paint(QPainter &p, const TimelineFrame &frame) override;
    void reset() override;

private:
    void collect(const TimelineFrame &frame);

    SliceId m_selected;
    bool m_showAll = false;
    std::vector<Arrow> m_arrows;
};

} // namespace lanescope
