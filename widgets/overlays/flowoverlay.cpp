#include "flowoverlay.h"

#include "overlaypainting.h"
#include "timeline/timelineframe.h"

#include "model/trace.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace lanescope {

void FlowOverlay::setSelected(SliceId id)
{
    m_selected = id;
    requestRepaint();
}

void FlowOverlay::setShowAll(bool on)
{
    m_showAll = on;
    requestRepaint();
}

void FlowOverlay::reset()
{
    m_selected = SliceId();
    m_arrows.clear();
}

void FlowOverlay::collect(const TimelineFrame &frame)
{
    m_arrows.clear();
    const Trace *trace = frame.trace();
    if (!trace)
        return;
    const auto flows = trace->flows();
    if (flows.empty())
        return;
    std::unordered_set<uint64_t> drawn;
    const auto add = [&](uint32_t f) {
        const Flow &flow = flows[f];
        if (!flow.from.isValid() || !flow.to.isValid())
            return;
        const QRectF a = frame.sliceRect(flow.from), b = frame.sliceRect(flow.to);
        if (a.isEmpty() || b.isEmpty())
            return;
        const QPointF from(a.right(), a.center().y()), to(b.left(), b.center().y());
        const auto q = [](double v) { return uint64_t(uint16_t(int(std::floor(v / 2)))); };
        if (!drawn.insert(q(from.x()) | q(from.y()) << 16 | q(to.x()) << 32 | q(to.y()) << 48).second)
            return;
        m_arrows.push_back(Arrow{from, to, f});
    };
    if (m_showAll) {
        const auto [t0, t1] = frame.visibleRange();
        const auto all = trace->allSlices();
        for (uint32_t f = 0; f < flows.size() && m_arrows.size() < kMaxDrawn; ++f) {
            const Flow &flow = flows[f];
            if (!flow.from.isValid() || !flow.to.isValid())
                continue;
            const int64_t a = all[flow.from.value].end(), b = all[flow.to.value].start;
            if (std::max(a, b) < t0 || std::min(a, b) > t1)
                continue;
            add(f);
        }
    } else if (m_selected.isValid() && m_selected.value < trace->allSlices().size()) {
        for (FlowId f : trace->flowsFrom(m_selected))
            add(f.value);
        for (FlowId f : trace->flowsTo(m_selected))
            add(f.value);
    }
}

void FlowOverlay::paint(QPainter &p, const TimelineFrame &frame)
{
    collect(frame);
    if (m_arrows.empty())
        return;
    p.setRenderHint(QPainter::Antialiasing, true);
    const size_t n = m_arrows.size();
    QColor colour = frame.palette().flowArrow;
    if (n > 20)
        colour.setAlpha(n > 500 ? 60 : 120);
    p.setPen(QPen(colour, n > 20 ? 1.0 : 1.3));
    for (const Arrow &arrow : m_arrows)
        OverlayPainting::arrow(p, arrow.from, arrow.to, n <= 500);
    p.setRenderHint(QPainter::Antialiasing, false);
}

} // namespace lanescope
