#pragma once
// The pinned query lanes (issue 48: a query's result on the timeline, Perfetto's "debug tracks"),
// drawn above the timeline on its time axis: one row per lane, its title and a remove (x) button in
// the header column, its slices and instants in the timeline's colours (SliceColors per name,
// TimelinePalette light / dark) at the x the timeline has them, following the ViewState's visible
// range. A click on an item with a slice id asks for that slice (sliceRequested: the window selects and
// reveals it); on any other item the view moves to its time. Hover: the item's name, start and
// duration. Lanes are built in core (session/querylane.h); this only draws them.
#include "timelinepalette.h"

#include "model/ids.h"
#include "session/querylane.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace lanescope {

class ViewState;

class QueryLanesStrip : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kRowHeight = 20;

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

    // Geometry, for clicks, tooltips and tests: the lane row at widget y (-1 none), the remove button
    // of a row, the item of a lane at widget x (-1 none: within 3 px of an instant or a thin slice).
    int rowAt(int y) const;
    QRect removeButtonRect(int row) const;
    long itemAt(int row, double x) const;
    double xOf(int64_t ns) const;
    // The tooltip text of an item.
    QString toolTipOf(int row, long item) const;
    // Acts as a click on item `item` of lane `row` does.
    void activate(int row, long item);

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

    ViewState *m_state;
    std::function<std::pair<int, int>()> m_insets;
    TimelinePalette m_palette = TimelinePalette::light();
    std::vector<std::shared_ptr<const QueryLane>> m_lanes;
    int64_t m_origin = 0;
    int m_hoverRow = -1;
    long m_hoverItem = -1;
};

} // namespace lanescope
