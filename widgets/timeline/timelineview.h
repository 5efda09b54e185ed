#pragma once
// The zoomable timeline: a QPainter-drawn widget with a time ruler on top, a header column of
// group and track names on the left and one lane per track. Geometry comes from binary searches
// over the visible range and is cached per lane until the range, the width or the data change;
// hover, selection and vertical scrolling repaint from that cache. Painting lives in
// TimelinePainter, which draws from a read-only TimelineFrame; everything drawn over the lanes is a
// TimelineOverlay (marked range, search hits, dependency chain, selection, flows, and whatever
// addOverlay() adds), mouse and keys are TimelineInput's.
//
// Navigation (Perfetto / chrome://tracing): W/S zoom, A/D pan, Ctrl+wheel zooms at the cursor,
// the wheel scrolls lanes (Shift+wheel pans), drag pans, Ctrl+drag box-zooms, Shift+drag selects a
// time range, a click selects a slice (or folds a group), double click or F fits the selection,
// Home/0 shows everything, arrows pan and scroll, M marks the selected slice's range, Backspace
// undoes the last zoom, / or Ctrl+F asks for the search bar.
#include "model/depthindex.h"
#include "lanes/lanecache.h"
#include "overlays/flowoverlay.h"
#include "overlays/timelineoverlay.h"
#include "slicecolors.h"
#include "timelineframe.h"
#include "timelineinputhost.h"
#include "timelinelayout.h"
#include "timelinepalette.h"

#include "model/ids.h"

#include <QAbstractSlider>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QScrollBar;

namespace lanescope {

class ChainOverlay;
class DependencyChain;
class InputOverlay;
class MarksOverlay;
class SearchHitsOverlay;
class SelectionOverlay;
class Trace;
class TimelineInput;
class ViewState;

class TimelineView : public QWidget, public TimelineInputHost
{
    Q_OBJECT

public:
    static constexpr size_t kMaxDrawnMatches = 20000; // search highlights per frame
    static constexpr size_t kMaxDrawnFlows = FlowOverlay::kMaxDrawn; // "all flows" arrows per frame
    static constexpr size_t kTooltipArgs = 4;         // args shown in a slice's tooltip

    // Shows and drives `state` (the Session's); without one the view keeps a ViewState of its own.
    explicit TimelineView(QWidget *parent = nullptr, ViewState *state = nullptr);
    ~TimelineView() override;

    // TimelineInputHost: the widget TimelineInput repaints and sets cursors on; / or Ctrl+F.
    QWidget *hostWidget() override { return this; }
    void requestSearch() override { emit searchRequested(); }
    void extendContextMenu(QMenu &menu, int64_t t) override { emit contextMenuAboutToShow(&menu, t); }

    void setTrace(std::shared_ptr<const Trace> trace);
    const std::shared_ptr<const Trace> &trace() const override { return m_trace; }
    ViewState *viewState() const override { return m_state; }

    // Absolute ns, as in the Trace.
    std::pair<int64_t, int64_t> visibleRange() const override;
    void setVisibleRange(int64_t t0, int64_t t1);
    void fitAll();
    // Shows the slice with a margin (remembered for Backspace).
    void fitSlice(SliceId id) override;
    // F: fits the selected slice, else the selected time range.
    void fitSelection() override;
    // Selects the slice, scrolls its lane into view and pans when it is off screen.
    void revealSlice(SliceId id);

    // Track lanes currently laid out (group header rows not counted).
    int laneCount() const { return m_layout.laneCount(); }
    const TimelineLayout &layout() const override { return m_layout; }

    SliceId sliceAt(QPoint pos) const override;
    // Where a slice is drawn, in widget coordinates (x clipped to the time area); empty when its
    // track is not laid out.
    QRectF sliceRect(SliceId id) const;
    // The area right of the header column and below the ruler, where events are drawn.
    QRect timeArea() const override;
    // Absolute ns at widget x.
    int64_t timeAtX(double x) const override;

    // The geometry, layout, palette and trace of the current frame, read-only (valid until the next
    // change of the view; do not keep it).
    TimelineFrame frame() const override;

    // Overlays are painted after the slices, in the order added (the mouse feedback stays on top);
    // the view owns them. addOverlay returns the overlay, removeOverlay gives it back (null when it
    // is not one of the added ones; the built-in overlays cannot be removed).
    template<class T>
    T *addOverlay(std::unique_ptr<T> overlay)
    {
        T *raw = overlay.get();
        addOverlayImpl(std::unique_ptr<TimelineOverlay>(std::move(overlay)));
        return raw;
    }
    std::unique_ptr<TimelineOverlay> removeOverlay(TimelineOverlay *overlay);
    size_t overlayCount() const { return m_overlays.size(); }

    // The range marked with Shift+drag or M (ViewState's marked range) is drawn by this overlay.
    const MarksOverlay &markedRange() const { return *m_marks; }

    SliceId selectedSlice() const override;
    // The ViewState's selected slice; sliceSelected is emitted whenever it changes, whoever sets it.
    void setSelectedSlice(SliceId id) override;

    // Search matches (slice ids in time order, from SliceSearch) are outlined; stepping selects.
    void setSearchMatches(std::vector<uint32_t> matches);
    const std::vector<uint32_t> &searchMatches() const override;
    int currentMatch() const;
    // Enter / Shift+Enter: the next (previous) match in time order after the current one, or after
    // the visible start when none is current. Returns its index or -1.
    int stepMatch(bool forward) override;
    void goToMatch(int index);

    // Flows: arrows for the selected slice always, for every visible flow on demand.
    void setShowAllFlows(bool on);
    bool showAllFlows() const;
    using FlowArrow = FlowOverlay::Arrow;
    // The arrows of the current frame (what the last paint drew).
    const std::vector<FlowArrow> &flowArrows() const;

    // The dependency chain of the selection (ChainController computes it): its slices keep their
    // colours and everything else is dimmed (per drawn item, by colour: no pass over the trace), its
    // edges other than nesting are drawn as arrows, and `criticalPath` (dependency order) is outlined.
    // Null clears it.
    void setChain(std::shared_ptr<const DependencyChain> chain, std::vector<SliceId> criticalPath = {});
    const std::shared_ptr<const DependencyChain> &chain() const;
    const std::vector<SliceId> &criticalPath() const;

    // Lanes: hide, pin to the top, reorder (also by dragging a track's name); layoutStateChanged
    // follows every change so the window can keep the arrangement per file.
    void setLaneState(const TimelineLayout::State &state);
    const TimelineLayout::State &laneState() const { return m_layout.state(); }
    void setTrackHidden(TrackId track, bool hidden) override;
    void showAllTracks() override;
    void setTrackPinned(TrackId track, bool pinned) override;
    bool moveTrack(TrackId track, TrackId before) override;
    bool moveTrackBy(TrackId track, int delta) override;
    // The track whose row is at widget y, or invalid.
    TrackId trackAtY(int y) const override;
    // Folds or unfolds a group's lanes.
    void toggleGroupCollapsed(GroupId group) override;
    void toggleRow(int rowIndex) override;

    // Vertical scrolling of the unpinned lanes (px from the top).
    int laneScroll() const override;
    void setLaneScroll(int y) override;
    void triggerLaneScroll(QAbstractSlider::SliderAction action) override;

    // Colours per slice name (default) or per category (Kineto's cpu_op / kernel / ..., engines).
    void setColorByCategory(bool on);
    bool colorByCategory() const { return m_colorByCategory; }
    // NeuronCore instructions in the colour of their HLO op (SliceColors).
    void setColorByOperator(bool on);
    bool colorByOperator() const { return m_colors.byOperator(); }
    void setTheme(TimelinePalette::Theme theme);
    const TimelinePalette &colors() const { return m_palette; }

    QSize sizeHint() const override { return {1000, 600}; }
    QSize minimumSizeHint() const override { return {300, 120}; }

signals:
    void sliceSelected(lanescope::SliceId id);
    void searchRequested();
    void currentMatchChanged(int index, int count);
    void layoutStateChanged();
    // Right click in the time area at `t` (absolute ns): add actions to `menu` (a direct connection;
    // the menu lives until it closes).
    void contextMenuAboutToShow(QMenu *menu, qint64 t);
    // timeArea() moved or changed width (a resize, the lane scroll bar shown or hidden): what lines up
    // with the time axis (the utilization strip under the timeline) follows.
    void timeAreaChanged();
    // The first paint of the trace setTrace() gave has reached the window (the first frame).
    void tracePainted();

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void leaveEvent(QEvent *event) override;
    bool event(QEvent *event) override;

private:
    void addOverlayImpl(std::unique_ptr<TimelineOverlay> overlay);
    void relayout();
    void layoutChanged(); // after a change of the lane arrangement
    void invalidateGeometry();
    void updateScrollBar();
    void syncMarkedRange();
    int headerWidth() const;
    QString toolTipAt(QPoint pos) const;
    void scrollToTrack(TrackId track);

    std::shared_ptr<const Trace> m_trace;
    bool m_tracePainted = true; // tracePainted() was emitted for m_trace
    ViewState *m_state = nullptr;
    bool m_ownsState = true; // false: the Session's, which it starts over on a new trace
    QScrollBar *m_vbar = nullptr;
    std::unique_ptr<TimelineInput> m_input;
    TimelineLayout m_layout;
    DepthIndex m_depthIndex;
    // Caches filled while painting (logically const: the frame of a const view may fill them).
    mutable SliceColors m_colors;
    mutable LaneCache m_lanes;
    TimelinePalette m_palette;
    bool m_colorByCategory = false;
    int m_rulerHeight = 24;
    QRect m_timeAreaSeen; // as last announced by timeAreaChanged

    // Painted in this order, then m_inputOverlay. The built-in ones are the first five.
    std::vector<std::unique_ptr<TimelineOverlay>> m_overlays;
    std::unique_ptr<InputOverlay> m_inputOverlay;
    MarksOverlay *m_marks = nullptr;
    SearchHitsOverlay *m_search = nullptr;
    ChainOverlay *m_chain = nullptr;
    SelectionOverlay *m_selection = nullptr;
    FlowOverlay *m_flows = nullptr;
};

} // namespace lanescope
