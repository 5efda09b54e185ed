#include "chainoverlay.h"

#include "overlaypainting.h"
#include "timeline/timelineframe.h"

#include "analysis/dependencychain.h"

#include <QPainter>

#include <cmath>

namespace lanescope {

void ChainOverlay::setChain(std::shared_ptr<const DependencyChain> chain, std::vector<SliceId> criticalPath)
{
    m_chain = std::move(chain);
    m_criticalPath = std::move(criticalPath);
    requestRepaint();
}

void ChainOverlay::reset()
{
    m_chain.reset();
    m_criticalPath.clear();
}

bool ChainOverlay::dimsSlices() const
{
    return m_chain && !m_chain->empty();
}

bool ChainOverlay::keepsColour(SliceId id) const
{
    return !dimsSlices() || m_chain->contains(id);
}

void ChainOverlay::paint(QPainter &p, const TimelineFrame &frame)
{
    if (!dimsSlices())
        return;
    p.setRenderHint(QPainter::Antialiasing, true);
    paintEdges(p, frame);
    paintCriticalPath(p, frame);
    p.setRenderHint(QPainter::Antialiasing, false);
}

void ChainOverlay::paintEdges(QPainter &p, const TimelineFrame &frame)
{
    // Edges other than nesting (nesting shows by itself), nearest first, capped like flows.
    p.setPen(QPen(frame.palette().chainEdge, 1.4));
    size_t drawn = 0;
    for (const auto *edges : {&m_chain->upstreamEdges(), &m_chain->downstreamEdges()})
        for (const DependencyEdge &e : *edges) {
            if (drawn >= kMaxDrawnEdges)
                break;
            if (e.kind == DependencyKind::Nesting)
                continue;
            const QRectF a = frame.sliceRect(e.from), b = frame.sliceRect(e.to);
            if (a.isEmpty() || b.isEmpty() || (!frame.isOnScreen(a) && !frame.isOnScreen(b)))
                continue;
            OverlayPainting::arrow(p, QPointF(a.right(), a.center().y()), QPointF(b.left(), b.center().y()), true);
            ++drawn;
        }
}

void ChainOverlay::paintCriticalPath(QPainter &p, const TimelineFrame &frame)
{
    // Thick outlines, and arrows between consecutive slices on different rows.
    if (m_criticalPath.empty())
        return;
    p.setPen(QPen(frame.palette().criticalPath, 2.5));
    p.setBrush(Qt::NoBrush);
    QRectF prev;
    for (SliceId id : m_criticalPath) {
        const QRectF r = frame.sliceRect(id);
        if (r.isEmpty()) {
            prev = QRectF();
            continue;
        }
        if (frame.isOnScreen(r))
            p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
        // an arrow where one slice follows another; none from a parent into its child
        const bool nested = prev.left() <= r.left() + 0.5 && r.right() <= prev.right() + 0.5;
        if (!prev.isEmpty() && !nested && std::abs(prev.center().y() - r.center().y()) > 1 &&
            (frame.isOnScreen(prev) || frame.isOnScreen(r)))
            OverlayPainting::arrow(p, QPointF(prev.right(), prev.center().y()), QPointF(r.left(), r.center().y()), true);
        prev = r;
    }
}

} // namespace lanescope
