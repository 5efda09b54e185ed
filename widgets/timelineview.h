#pragma once
// The zoomable timeline: a QPainter-drawn widget with a time ruler on top, a header column of
// group and track names on the left and one lane per track. Geometry comes from binary searches
// over the visible range and is cached per lane until the range, the width or the data change;
// hover, selection and vertical scrolling repaint from that cache. Painting lives in
// TimelinePainter and TimelineOverlays, mouse and keys in TimelineInput.
//
// Navigation (Perfetto / chrome://tracing): W/S zoom, A/D pan, Ctrl+wheel zooms at the cursor,
// the wheel scrolls lanes (Shift+wheel pans), drag pans, Ctrl+drag box-zooms, Shift+drag selects a
// time range, a click selects a slice (or folds a group), double click or F fits the selection,
// Home/0 shows everything, arrows pan and scroll, M marks the selected slice's range, Backspace
// undoes the last zoom, / or Ctrl+F asks for the search bar.
#include "depthindex.h"
#include "lanegeometry.h"
#include "slicecolors.h"
#include "timelinelayout.h"
#include "timelinepalette.h"

#include "model/ids.h"

#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QScrollBar;

namespace lanescope {

class DependencyChain;
class Trace;
class TimelineInput;
class ZoomControl;

class TimelineView : public QWidget
{
    Q_OBJECT
    friend class TimelinePainter;
    friend class TimelineOverlays;
    friend class TimelineInput;

public:
    static constexpr double kKeyZoomFactor = 0.7;  // W: span * 0.7, S: span / 0.7
    static constexpr double kKeyPanFraction = 0.2; // A/D: a fifth of the span
    static constexpr size_t kMaxDrawnMatches = 20000; // search highlights per frame
    static constexpr size_t kMaxDrawnFlows = 5000;    // "all flows" arrows per frame
    static constexpr size_t kTooltipArgs = 4;         // args shown in a slice's tooltip

    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    const std::shared_ptr<const Trace> &trace() const { return m_trace; }
    ZoomControl *zoomControl() const { return m_zoom; }

    // Absolute ns, as in the Trace.
    std::pair<int64_t, int64_t> visibleRange() const;
    void setVisibleRange(int64_t t0, int64_t t1);
    void fitAll();
    // Shows the slice with a margin (remembered for Backspace).
    void fitSlice(SliceId id);
    // F: fits the selected slice, else the selected time range.
    void fitSelection();
    // Selects the slice, scrolls its lane into view and pans when it is off screen.
    void revealSlice(SliceId id);

    // Track lanes currently laid out (group header rows not counted).
    int laneCount() const { return m_layout.laneCount(); }
    const TimelineLayout &layout() const { return m_layout; }

    SliceId sliceAt(QPoint pos) const;
    // Where a slice is drawn, in widget coordinates (x clipped to the time area); empty when its
    // track is not laid out.
    QRectF sliceRect(SliceId id) const;
    // The area right of the header column and below the ruler, where events are drawn.
    QRect timeArea() const;
    // Absolute ns at widget x.
    int64_t timeAtX(double x) const;

    SliceId selectedSlice() const { return m_selected; }
    // Emits sliceSelected when the selection changes.
    void setSelectedSlice(SliceId id);

    // Search matches (slice ids in time order, from SliceSearch) are outlined; stepping selects.
    void setSearchMatches(std::vector<uint32_t> matches);
    const std::vector<uint32_t> &searchMatches() const { return m_matches; }
    int currentMatch() const { return m_currentMatch; }
    // Enter / Shift+Enter: the next (previous) match in time order after the current one, or after
    // the visible start when none is current. Returns its index or -1.
    int stepMatch(bool forward);
    void goToMatch(int index);

    // Flows: arrows for the selected slice always, for every visible flow on demand.
    void setShowAllFlows(bool on);
    bool showAllFlows() const { return m_showAllFlows; }
    struct FlowArrow
    {
        QPointF from, to;
        uint32_t flow = 0;
    };
    // The arrows of the current frame (what the last paint drew).
    const std::vector<FlowArrow> &flowArrows() const { return m_flowArrows; }

    // The dependency chain of the selection (ChainController computes it): its slices keep their
    // colours and everything else is dimmed (per drawn item, by colour: no pass over the trace), its
    // edges other than nesting are drawn as arrows, and `criticalPath` (dependency order) is outlined.
    // Null clears it.
    void setChain(std::shared_ptr<const DependencyChain> chain, std::vector<SliceId> criticalPath = {});
    const std::shared_ptr<const DependencyChain> &chain() const { return m_chain; }
    const std::vector<SliceId> &criticalPath() const { return m_criticalPath; }

    // Lanes: hide, pin to the top, reorder (also by dragging a track's name); layoutStateChanged
    // follows every change so the window can keep the arrangement per file.
    void setLaneState(const TimelineLayout::State &state);
    const TimelineLayout::State &laneState() const { return m_layout.state(); }
    void setTrackHidden(TrackId track, bool hidden);
    void showAllTracks();
    void setTrackPinned(TrackId track, bool pinned);
    bool moveTrack(TrackId track, TrackId before);
    bool moveTrackBy(TrackId track, int delta);
    // The track whose row is at widget y, or invalid.
    TrackId trackAtY(int y) const;

    // Colours per slice name (default) or per category (Kineto's cpu_op / kernel / ..., engines).
    void setColorByCategory(bool on);
    bool colorByCategory() const { return m_colorByCategory; }
    void setTheme(TimelinePalette::Theme theme);
    const TimelinePalette &colors() const { return m_palette; }

    QSize sizeHint() const override { return {1000, 600}; }
    QSize minimumSizeHint() const override { return {300, 120}; }

signals:
    void sliceSelected(lanescope::SliceId id);
    void searchRequested();
    void currentMatchChanged(int index, int count);
    void layoutStateChanged();

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
    void relayout();
    void layoutChanged(); // after a change of the lane arrangement
    void invalidateGeometry();
    void updateScrollBar();
    LaneGeometry::Viewport viewport() const;
    LaneGeometry &laneGeometry(size_t rowIndex);
    int rowIndexAtY(int y) const;                     // widget y -> layout row, or -1
    int rowTop(const TimelineLayout::Row &row) const; // widget y of a row
    int headerWidth() const;
    QString trackName(TrackId id) const;
    QString groupName(GroupId id) const;
    QString toolTipAt(QPoint pos) const;
    void scrollToTrack(TrackId track);

    std::shared_ptr<const Trace> m_trace;
    ZoomControl *m_zoom = nullptr;
    QScrollBar *m_vbar = nullptr;
    std::unique_ptr<TimelineInput> m_input;
    TimelineLayout m_layout;
    DepthIndex m_depthIndex;
    SliceColors m_colors;
    TimelinePalette m_palette;

    // Geometry cache, one per layout row, valid for m_cacheViewport.
    std::vector<LaneGeometry> m_lanes;
    LaneGeometry::Viewport m_cacheViewport;

    SliceId m_selected;
    std::vector<uint32_t> m_matches;
    int m_currentMatch = -1;
    bool m_showAllFlows = false;
    bool m_colorByCategory = false;
    std::vector<FlowArrow> m_flowArrows;
    std::shared_ptr<const DependencyChain> m_chain;
    std::vector<SliceId> m_criticalPath;
    int m_rulerHeight = 24;
};

} // namespace lanescope
