#pragma once
// The dependency chain of the selection (ChainController computes it): its slices keep their
// colours and everything else is dimmed (the painter asks keepsColour() per drawn item), its edges
// other than nesting are drawn as arrows, and the critical path (dependency order) is outlined with
// arrows between consecutive slices on different rows.
#include "timelineoverlay.h"

#include <memory>
#include <vector>

namespace lanescope {

class DependencyChain;

class ChainOverlay : public TimelineOverlay
{
public:
    static constexpr size_t kMaxDrawnEdges = 5000; // arrows per frame

    // Null clears it.
    void setChain(std::shared_ptr<const DependencyChain> chain, std::vector<SliceId> criticalPath = {});
    const std::shared_ptr<const DependencyChain> &chain() const { return m_chain; }
    const std::vector<SliceId> &criticalPath() const { return m_criticalPath; }

    void paint(QPainter &p, const TimelineFrame &frame) override;
    void reset() override;
    bool dimsSlices() const override;
    bool keepsColour(SliceId id) const override;

private:
    void paintEdges(QPainter &p, const TimelineFrame &frame);
    void paintCriticalPath(QPainter &p, const TimelineFrame &frame);

    std::shared_ptr<const DependencyChain> m_chain;
    std::vector<SliceId> m_criticalPath;
};

} // namespace lanescope
