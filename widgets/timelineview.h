#pragma once
// The zoomable timeline: a QPainter-drawn widget with a time ruler on top, a header column of
// group and track names on the left and one lane per track. Geometry comes from binary searches
// over the visible range and is cached per lane until the range, the width or the data change;
// hover, selection and vertical scrolling repaint from that cache.
//
// Navigation: Ctrl+wheel zooms at the cursor, the wheel scrolls lanes (Shift+wheel pans), dragging
// with the left button pans, W/S zoom in/out, A/D pan, Home or 0 shows everything, a click selects a
// slice (or folds a group), a double click zooms to a slice.
#include "depthindex.h"
#include "lanegeometry.h"
#include "slicecolors.h"
#include "timelinelayout.h"
#include "timeruler.h"

#include "model/ids.h"

#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QScrollBar;

namespace lanescope {

class Trace;
class ZoomControl;

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    static constexpr double kKeyZoomFactor = 0.7;  // W: span * 0.7, S: span / 0.7
    static constexpr double kKeyPanFraction = 0.2; // A/D: a fifth of the span

    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    const std::shared_ptr<const Trace> &trace() const { return m_trace; }
    ZoomControl *zoomControl() const { return m_zoom; }

    // Absolute ns, as in the Trace.
    std::pair<int64_t, int64_t> visibleRange() const;
    void setVisibleRange(int64_t t0, int64_t t1);
    void fitAll();

    // Track lanes currently laid out (group header rows not counted).
    int laneCount() const { return m_layout.laneCount(); }
    const TimelineLayout &layout() const { return m_layout; }

    SliceId sliceAt(QPoint pos) const;
    // Where a slice is drawn, in widget coordinates (x clipped to the time area); empty when its
    // track is not laid out.
    QRectF sliceRect(SliceId id) const;
    // The area right of the header column and below the ruler, where events are drawn.
    QRect timeArea() const;

    SliceId selectedSlice() const { return m_selected; }
    // Emits sliceSelected when the selection changes.
    void setSelectedSlice(SliceId id);

    QSize sizeHint() const override { return {1000, 600}; }
    QSize minimumSizeHint() const override { return {300, 120}; }

signals:
    void sliceSelected(lanescope::SliceId id);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;

private:
    void relayout();
    void invalidateGeometry();
    void updateScrollBar();
    LaneGeometry::Viewport viewport() const;
    LaneGeometry &laneGeometry(size_t rowIndex);
    int64_t timeAtX(double x) const;
    int64_t keyAnchor() const;
    int rowIndexAtY(int y) const;                     // widget y -> layout row, or -1
    int rowTop(const TimelineLayout::Row &row) const; // widget y of a row
    int headerWidth() const;
    QString trackName(TrackId id) const;
    QString groupName(GroupId id) const;
    QString toolTipAt(QPoint pos) const;

    void paintEmpty(QPainter &p);
    void paintRuler(QPainter &p, const std::vector<TimeRuler::Tick> &ticks, int64_t step);
    void paintGrid(QPainter &p, const std::vector<TimeRuler::Tick> &ticks);
    void paintGroupRow(QPainter &p, const TimelineLayout::Row &row, int y);
    void paintTrackRow(QPainter &p, size_t rowIndex, int y);
    void paintSlices(QPainter &p, const TimelineLayout::Row &row, const LaneGeometry &g, int y);
    void paintInstants(QPainter &p, const TimelineLayout::Row &row, const LaneGeometry &g, int y);
    void paintCounter(QPainter &p, const TimelineLayout::Row &row, const LaneGeometry &g, int y);

    std::shared_ptr<const Trace> m_trace;
    ZoomControl *m_zoom = nullptr;
    QScrollBar *m_vbar = nullptr;
    TimelineLayout m_layout;
    DepthIndex m_depthIndex;
    SliceColors m_colors;

    // Geometry cache, one per layout row, valid for m_cacheViewport.
    std::vector<LaneGeometry> m_lanes;
    LaneGeometry::Viewport m_cacheViewport;

    SliceId m_selected;
    int m_rulerHeight = 24;

    // Mouse state
    bool m_mouseDown = false;
    bool m_dragging = false;
    QPoint m_pressPos;
    QPoint m_lastMousePos{-1, -1};
    std::pair<int64_t, int64_t> m_pressRange;
    int m_pressScroll = 0;
};

} // namespace lanescope
