#pragma once
// What TimelineInput may do to the timeline it drives: the calls of TimelineView that mouse and
// keys need, as an interface TimelineView implements. TimelineInput sees this, never the view, so
// the view and its input handling do not depend on each other.
#include "timelineframe.h"
#include "timelinelayout.h"

#include "model/ids.h"

#include <QAbstractSlider>
#include <QPoint>
#include <QRect>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

class QMenu;
class QWidget;

namespace lanescope {

class Trace;
class ViewState;

class TimelineInputHost
{
public:
    static constexpr double kKeyZoomFactor = 0.7;  // W: span * 0.7, S: span / 0.7
    static constexpr double kKeyPanFraction = 0.2; // A/D: a fifth of the span

    virtual ~TimelineInputHost() = default;

    // The widget itself: repaint, cursor shape, parent of the lane context menu.
    virtual QWidget *hostWidget() = 0;
    virtual const std::shared_ptr<const Trace> &trace() const = 0;
    virtual ViewState *viewState() const = 0;
    virtual const TimelineLayout &layout() const = 0;
    virtual TimelineFrame frame() const = 0;
    virtual std::pair<int64_t, int64_t> visibleRange() const = 0;
    virtual QRect timeArea() const = 0;
    virtual int64_t timeAtX(double x) const = 0;
    virtual SliceId sliceAt(QPoint pos) const = 0;
    virtual TrackId trackAtY(int y) const = 0;

    virtual SliceId selectedSlice() const = 0;
    virtual void setSelectedSlice(SliceId id) = 0;
    virtual void fitSlice(SliceId id) = 0;
    virtual void fitSelection() = 0;
    virtual const std::vector<uint32_t> &searchMatches() const = 0;
    virtual int stepMatch(bool forward) = 0;
    // Asks for the search bar (/ or Ctrl+F).
    virtual void requestSearch() = 0;

    virtual int laneScroll() const = 0;
    virtual void setLaneScroll(int y) = 0;
    virtual void triggerLaneScroll(QAbstractSlider::SliderAction action) = 0;
    virtual void toggleGroupCollapsed(GroupId group) = 0;
    // Folds or unfolds the group or lane set of layout row `rowIndex`.
    virtual void toggleRow(int rowIndex) = 0;
    virtual void setTrackHidden(TrackId track, bool hidden) = 0;
    virtual void setTrackPinned(TrackId track, bool pinned) = 0;
    virtual void showAllTracks() = 0;
    virtual bool moveTrack(TrackId track, TrackId before) = 0;
    virtual bool moveTrackBy(TrackId track, int delta) = 0;
    // The lane context menu is about to open at time `t` (absolute ns): others may add actions.
    virtual void extendContextMenu(QMenu &menu, int64_t t) = 0;
};

} // namespace lanescope
