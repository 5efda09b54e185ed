#pragma once
// The Range Summary dock: count, total, self and average per name in the marked time range
// (shift-drag or M). It follows a drag at most every 60 ms (Throttle) and comes to the front when a
// range is marked, unless a dock that follows the range too (the Analysis tables) or that marked it
// (the Collectives dock marks a collective's skew) is in sight.
#include "panel.h"

#include <vector>

namespace lanescope {

class RangeSummaryModel;
class Throttle;

class RangePanel : public Panel
{
    Q_OBJECT
public:
    // `keepInFront`: the docks that, when visible, keep this one from being raised.
    RangePanel(Session *session, QMainWindow *window, std::vector<QDockWidget *> keepInFront);

    RangeSummaryModel *model() const { return m_model; }

private:
    void refresh();

    RangeSummaryModel *m_model;
    std::vector<QDockWidget *> m_keepInFront;
    Throttle *m_throttle;
};

} // namespace lanescope
