#pragma once
// Drawing pieces shared by the timeline overlays: a flow / dependency arrow, outlines of a set of
// slices (only the visible ones), a shaded time range with its edges, and a label in the ruler.
#include "model/ids.h"

#include <QColor>
#include <QPointF>

#include <cstddef>
#include <cstdint>
#include <span>

class QPainter;
class QString;

namespace lanescope {

class TimelineFrame;

class OverlayPainting
{
public:
    // A curve leaving `from` to the right and entering `to` from the left, with an arrow head in
    // the pen's colour when `head`.
    static void arrow(QPainter &p, QPointF from, QPointF to, bool head);
    // Outlines (pen width `width`, inset by 1 px) of the slices `ids`, which are in start order;
    // only those overlapping the visible range are looked at, at most `maxDrawn`. Returns how many
    // were drawn.
    static size_t sliceOutlines(QPainter &p, const TimelineFrame &frame, std::span<const uint32_t> ids,
                                const QColor &colour, double width, size_t maxDrawn);
    // The time range [t0, t1] shaded over the lanes, with a line at each edge.
    static void rangeBand(QPainter &p, const TimelineFrame &frame, int64_t t0, int64_t t1, const QColor &fill,
                          const QColor &edge);
    // A label centred at x in the ruler band (kept inside the time area), white text on `bg`.
    static void rulerLabel(QPainter &p, const TimelineFrame &frame, double x, const QString &text, const QColor &bg);
};

} // namespace lanescope
