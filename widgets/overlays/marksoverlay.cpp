#include "marksoverlay.h"

#include "overlaypainting.h"
#include "style/durationformat.h"
#include "timeline/timelineframe.h"

#include "model/trace.h"

#include <QPainter>

#include <algorithm>

namespace lanescope {

void MarksOverlay::setRanges(std::vector<std::pair<int64_t, int64_t>> ranges)
{
    std::erase_if(ranges, [](const auto &r) { return r.second <= r.first; });
    m_ranges = std::move(ranges);
    requestRepaint();
}

void MarksOverlay::setSlices(std::vector<uint32_t> slices)
{
    std::sort(slices.begin(), slices.end());
    slices.erase(std::unique(slices.begin(), slices.end()), slices.end());
    m_slices = std::move(slices);
    m_sorted = m_slices.empty();
    requestRepaint();
}

void MarksOverlay::clear()
{
    m_ranges.clear();
    m_slices.clear();
    m_sorted = true;
    requestRepaint();
}

void MarksOverlay::paint(QPainter &p, const TimelineFrame &frame)
{
    const TimelinePalette &pal = frame.palette();
    const QColor fill = m_style.fill.isValid() ? m_style.fill : pal.rangeFill;
    const QColor edge = m_style.edge.isValid() ? m_style.edge : pal.rangeEdge;
    for (const auto &[t0, t1] : m_ranges)
        OverlayPainting::rangeBand(p, frame, t0, t1, fill, edge);
    const Trace *trace = frame.trace();
    if (m_slices.empty() || !trace)
        return;
    const auto all = trace->allSlices();
    if (!m_sorted) {
        // Once per setSlices(): ids outside the trace are dropped, the rest put in start order.
        std::erase_if(m_slices, [&](uint32_t id) { return id >= all.size(); });
        std::stable_sort(m_slices.begin(), m_slices.end(),
                         [&](uint32_t a, uint32_t b) { return all[a].start < all[b].start; });
        m_sorted = true;
    }
    OverlayPainting::sliceOutlines(p, frame, m_slices, m_style.outline.isValid() ? m_style.outline : pal.searchMatch,
                                   m_style.outlineWidth, kMaxDrawnSlices);
}

void MarksOverlay::paintRuler(QPainter &p, const TimelineFrame &frame)
{
    if (!m_style.durationLabels)
        return;
    const QColor edge = m_style.edge.isValid() ? m_style.edge : frame.palette().rangeEdge;
    for (const auto &[t0, t1] : m_ranges)
        OverlayPainting::rulerLabel(p, frame, (frame.clampedXOf(t0) + frame.clampedXOf(t1)) / 2,
                                    DurationFormat::format(t1 - t0), edge);
}

} // namespace lanescope
