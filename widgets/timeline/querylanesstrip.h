#pragma once
// The pinned query lanes (issue 48: a query's result on the timeline, Perfetto's "debug tracks"),
// drawn above the timeline on its time axis: each lane with its title and a remove (x) button in the
// header column, its slices and instants in the timeline's colours (SliceColors per name,
// TimelinePalette light / dark) at the x the timeline has them, following the ViewState's visible
// range. A lane is as tall as its rows (QueryLane::packRows: overlapping items stacked), at most
// kMaxShownRows: the rows past that are drawn together in the last one, whose header says "+N rows"
// (the strip stays a fixed band over the timeline: a scroll inside it would fight the timeline's own
// wheel zoom and scroll, and a lane of hundreds of rows would push the timeline off the window).
// A click on an item with a slice id asks for that slice (sliceRequested: the window selects and
// reveals it); on any other item the view moves to its time. Hover: the item's name, start and
// duration. Lanes are built in core (session/querylane.h); this only draws them. Per frame each shown
// row is searched for the visible range and items within one pixel column are skipped by a binary
// search on their ends, so a frame costs about rows x pixels, not items (the folded last row scans
// its visible items).
#include "timelinepalette.h"

#include "model/ids.h"
#include "session/querylane.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

class QPainter;

namespace lanescope {

class ViewState;

class QueryLanesStrip : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kRowHeight = 20;    // a lane of one row (also the header's title line)
    static constexpr int kSubRowHeight = 16; // each row of a lane of several
    static constexpr int kMaxShownRows = 8;

    explicit QueryLanesStrip(ViewState *state, QWidget *parent = nullptr);

    // The time area spans [left, width - right] of this widget, as the callback answers (the
    // timeline's: TimelineView::timeArea()); the titles sit left of it.
    void setTimeInsets(std::function<std::pair<int, int>()> insets);
    // The trace start, for the times shown in tooltips (as the timeline's ruler: from the start).
    void setOrigin(int64_t ns) { m_origin = ns; }
    void setTheme(TimelinePalette::Theme theme);

    void addLane(std::shared_ptr<const QueryLane> lane);
    void removeLane(int index);
    void clear();
    int laneCount() const { return int(m_lanes.size()); }
    const std::shared_ptr<const QueryLane> &lane(int index) const { return m_lanes[size_t(index)]; }

    // Geometry, for clicks, tooltips and tests: the lane at widget y (-1 none), its top and height, the
    // rows it shows (min(rowCount, kMaxShownRows), at least 1), the shown row at widget y (-1 none) and
    // the y its items are drawn from, the remove button of a lane, the item of a lane's shown row at
    // widget x (-1 none: within 3 px of an instant or a thin slice; in the folded last row the shortest
    // of its rows' items there).
    int laneAt(int y) const;
    int laneTop(int lane) const { return m_tops[size_t(lane)]; }
    int laneHeight(int lane) const { return m_tops[size_t(lane) + 1] - m_tops[size_t(lane)]; }
    int shownRows(int lane) const;
    int rowAt(int lane, int y) const;
    int rowTop(int lane, int row) const { return laneTop(lane) + 2 + row * kSubRowHeight; }
    QRect removeButtonRect(int lane) const;
    long itemAt(int lane, int row, double x) const;
    double xOf(int64_t ns) const;
    // The tooltip text of an item.
    QString toolTipOf(int lane, long item) const;
    // Acts as a click on item `item` of lane `lane` does.
    void activate(int lane, long item);

    QSize sizeHint() const override;

public slots:
    // Asks the insets callback again (TimelineView::timeAreaChanged).
    void updateInsets() { update(); }

signals:
    // A click on an item with a slice id.
    void sliceRequested(lanescope::SliceId id);
    // The x button of lane `index` (the lane is already gone).
    void laneRemoved(int index);
    void lanesChanged();

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    bool event(QEvent *event) override;

private:
    std::pair<int, int> insets() const;
    void relayout();
    void paintLane(QPainter &p, int lane, int left, int timeRight);
    // The shown row that holds item `item` of lane `lane` (the folded rows: the last).
    int shownRowOf(int lane, long item) const;

    ViewState *m_state;
    std::function<std::pair<int, int>()> m_insets;
    TimelinePalette m_palette = TimelinePalette::light();
    std::vector<std::shared_ptr<const QueryLane>> m_lanes;
    std::vector<std::vector<QRgb>> m_colors; // per lane, per name: its colour once drawn (0: not yet)
    int64_t m_origin = 0;
    std::vector<int> m_tops{0}; // lane i: [m_tops[i], m_tops[i + 1])
    int m_hoverLane = -1;
    long m_hoverItem = -1;
};

} // namespace lanescope
