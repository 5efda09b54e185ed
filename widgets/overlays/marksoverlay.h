#pragma once
// Marked slices and time ranges: each range is shaded over the lanes with a line at each edge (and,
// on request, its duration in the ruler), each slice outlined. The view's marked range (Shift+drag,
// M) is one; findings or any other set of events and intervals is another instance with its own
// style: no new class, one addOverlay() call.
#include "timelineoverlay.h"

#include <QColor>

#include <cstdint>
#include <utility>
#include <vector>

namespace lanescope {

class MarksOverlay : public TimelineOverlay
{
public:
    static constexpr size_t kMaxDrawnSlices = 20000; // outlines per frame

    // Colours left invalid come from the palette: rangeFill, rangeEdge, searchMatch.
    struct Style
    {
        QColor fill;
        QColor edge;
        QColor outline;
        double outlineWidth = 2;
        bool durationLabels = false; // each range's duration in the ruler, on the edge colour
    };

    MarksOverlay() = default;
    explicit MarksOverlay(const Style &style) : m_style(style) {}

    // Absolute ns; empty ranges (end <= start) are dropped.
    void setRanges(std::vector<std::pair<int64_t, int64_t>> ranges);
    const std::vector<std::pair<int64_t, int64_t>> &ranges() const { return m_ranges; }
    // Slice ids (SliceId values) in any order; duplicates are drawn once.
    void setSlices(std::vector<uint32_t> slices);
    const std::vector<uint32_t> &slices() const { return m_slices; }
    void clear();

    void paint(QPainter &p, const TimelineFrame &frame) override;
    void paintRuler(QPainter &p, const TimelineFrame &frame) override;
    void reset() override { clear(); }

private:
    Style m_style;
    std::vector<std::pair<int64_t, int64_t>> m_ranges;
    std::vector<uint32_t> m_slices;
    bool m_sorted = true; // m_slices checked and in start order (done at the first paint with a trace)
};

} // namespace lanescope
