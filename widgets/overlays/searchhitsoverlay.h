#pragma once
// Search matches (slice ids in start order, from SliceSearch), outlined where visible, and the
// current one of them (stepped with Enter / Shift+Enter through the view).
#include "timelineoverlay.h"

#include <cstdint>
#include <vector>

namespace lanescope {

class SearchHitsOverlay : public TimelineOverlay
{
public:
    static constexpr size_t kMaxDrawn = 20000; // outlines per frame

    void setMatches(std::vector<uint32_t> matches);
    const std::vector<uint32_t> &matches() const { return m_matches; }
    int current() const { return m_current; }
    // -1 for none; an index outside the matches is ignored (returns false).
    bool setCurrent(int index);

    void paint(QPainter &p, const TimelineFrame &frame) override;
    void reset() override;

private:
    std::vector<uint32_t> m_matches;
    int m_current = -1;
};

} // namespace lanescope
