#include "searchhitsoverlay.h"

#include "overlaypainting.h"
#include "timeline/timelineframe.h"

namespace lanescope {

void SearchHitsOverlay::setMatches(std::vector<uint32_t> matches)
{
    m_matches = std::move(matches);
    m_current = -1;
    requestRepaint();
}

bool SearchHitsOverlay::setCurrent(int index)
{
    if (index < -1 || (index >= 0 && size_t(index) >= m_matches.size()))
        return false;
    m_current = index;
    requestRepaint();
    return true;
}

void SearchHitsOverlay::reset()
{
    m_matches.clear();
    m_current = -1;
}

void SearchHitsOverlay::paint(QPainter &p, const TimelineFrame &frame)
{
    OverlayPainting::sliceOutlines(p, frame, m_matches, frame.palette().searchMatch, 2, kMaxDrawn);
}

} // namespace lanescope
