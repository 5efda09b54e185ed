#pragma once
// What one painted frame of a TimelineView looks like, read-only: the viewport (visible range,
// ns <-> x), the widget's geometry (size, ruler, header column, time area), the lane layout (row
// y, heights, visible rows), slice rectangles, the palette and slice colours, and the trace. The
// painter and every TimelineOverlay draw from it and never see the view itself. A frame is a few
// words and references; the view makes one per paint (and per geometry question) and it must not
// outlive the paint or the call that asked for it.
#include "lanes/lanegeometry.h"
#include "timelinelayout.h"
#include "timelinepalette.h"

#include "model/ids.h"

#include <QRect>
#include <QRectF>
#include <QSize>
#include <QString>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lanescope {

class DepthIndex;
class LaneCache;
class SliceColors;
class Trace;

class TimelineFrame
{
public:
    // What the view hands over (all pointers owned by the view).
    struct Setup
    {
        const Trace *trace = nullptr; // null: no trace loaded
        const TimelineLayout *layout = nullptr;
        const TimelinePalette *palette = nullptr;
        SliceColors *colors = nullptr;        // a per-name colour cache (filled lazily)
        const DepthIndex *depthIndex = nullptr;
        LaneCache *lanes = nullptr;           // built lazily, see lane()
        LaneGeometry::Viewport viewport;      // visible range and time-area width
        QSize size;                           // the widget
        QRect timeArea;                       // right of the header column, below the ruler
        int rulerHeight = 0;
        int scroll = 0;                       // vertical scroll of the unpinned rows
        bool colorByCategory = false;
    };

    explicit TimelineFrame(const Setup &setup) : m_s(setup) {}

    const Trace *trace() const { return m_s.trace; }
    const TimelinePalette &palette() const { return *m_s.palette; }
    const TimelineLayout &layout() const { return *m_s.layout; }

    // Widget geometry.
    QSize size() const { return m_s.size; }
    QRect rect() const { return QRect(QPoint(0, 0), m_s.size); }
    QRect timeArea() const { return m_s.timeArea; }
    int rulerHeight() const { return m_s.rulerHeight; }
    int headerWidth() const { return m_s.timeArea.left(); }
    int scroll() const { return m_s.scroll; }

    // Time <-> x (absolute ns, widget x).
    const LaneGeometry::Viewport &viewport() const { return m_s.viewport; }
    std::pair<int64_t, int64_t> visibleRange() const { return {m_s.viewport.t0, m_s.viewport.t1}; }
    double xOf(int64_t t) const { return m_s.timeArea.left() + m_s.viewport.toX(t); }
    // x of `t`, clamped to two pixels outside the time area (as slice edges are).
    double clampedXOf(int64_t t) const;
    int64_t timeAtX(double x) const;

    // Lanes.
    int rowTop(const TimelineLayout::Row &row) const; // widget y (pinned rows do not scroll)
    int rowIndexAtY(int y) const;                     // widget y -> layout row, or -1
    TrackId trackAtY(int y) const;
    GroupId groupAtY(int y) const;                    // a group header row at y, or invalid
    int foldableRowAtY(int y) const;                  // a group or lane set row's index at y, or -1
    // What is on screen, top to bottom: the path of every lane row (Trace::trackPath, as `info`
    // prints), and of every folded group or lane set row with "(collapsed: N lanes)".
    std::vector<std::string> visibleLanes() const;
    // The lane geometry of a track row for this frame's viewport, built on first use.
    const LaneGeometry &lane(size_t rowIndex) const;
    QString trackName(TrackId id) const;
    QString groupName(GroupId id) const;
    // A group or lane set row's name (group rows: groupName).
    QString foldName(const TimelineLayout::Row &row) const;

    // Slices.
    // Where a slice is drawn, x clipped to two pixels outside the time area; empty when its track
    // is not laid out (the rectangle may be off screen vertically: test with isOnScreen()).
    QRectF sliceRect(SliceId id) const;
    bool isOnScreen(const QRectF &r) const { return !r.isEmpty() && r.intersects(QRectF(m_s.timeArea)); }
    SliceId sliceAt(QPoint pos) const;
    // The slice colour (per name, or per category when the view colours by category).
    QRgb sliceColor(StringId nameOrCategory) const;
    // The colour of one slice: sliceColor, or its operator's when colouring by operator (SliceColors).
    QRgb sliceColorOf(uint32_t slice, StringId nameOrCategory) const;
    bool colorByCategory() const { return m_s.colorByCategory; }

private:
    Setup m_s;
};

} // namespace lanescope
