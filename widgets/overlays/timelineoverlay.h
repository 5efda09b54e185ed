#pragma once
// Something a TimelineView draws over its lanes: the selection, search hits, the dependency chain,
// flow arrows, the marked range, findings. An overlay owns its state and paints it from a
// read-only TimelineFrame, after the slices and in the order the overlays were added; it never
// touches the lane cache, so changing it costs a repaint from the cache, not a rebuild.
//
// Adding one: derive, paint only what is visible (frame.isOnScreen, visibleRange), call
// requestRepaint() when the state changes, and hand it to TimelineView::addOverlay().
#include "model/ids.h"

#include <QRect>

#include <functional>

class QPainter;

namespace lanescope {

class TimelineFrame;

class TimelineOverlay
{
public:
    TimelineOverlay() = default;
    TimelineOverlay(const TimelineOverlay &) = delete;
    TimelineOverlay &operator=(const TimelineOverlay &) = delete;
    virtual ~TimelineOverlay();

    // Draws over the lanes. The painter is clipped to clipRect() and its state (pen, brush, hints,
    // clip) is restored afterwards.
    virtual void paint(QPainter &p, const TimelineFrame &frame) = 0;
    // Draws in the ruler band, after the ruler (labels such as a range's duration), clipped to the
    // part of the band above the time area.
    virtual void paintRuler(QPainter &p, const TimelineFrame &frame);
    // Where paint() may draw; the time area unless the overlay needs the header column too.
    virtual QRect clipRect(const TimelineFrame &frame) const;
    // A new trace was set: forget everything that refers to the old one.
    virtual void reset() {}
    // Dimming: while dimsSlices() is true, slices for which keepsColour() is false are drawn mixed
    // towards the background (by the painter, per drawn item: no pass over the trace).
    virtual bool dimsSlices() const { return false; }
    virtual bool keepsColour(SliceId) const { return true; }

    // The view sets this when the overlay is added: asks for a repaint from the lane cache.
    void setRepaintHandler(std::function<void()> handler) { m_repaint = std::move(handler); }

protected:
    void requestRepaint() const
    {
        if (m_repaint)
            m_repaint();
    }

private:
    std::function<void()> m_repaint;
};

} // namespace lanescope
