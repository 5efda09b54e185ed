#pragma once
// The Range Summary dock: count, total, self and average per name in the marked time range
// (shift-drag or M). It follows a drag at most every 60 ms (Throttle) and comes to the front when a
// range is marked, unless the Analysis tables (which follow the range too) are in sight.
#include "panel.h"

namespace lanescope {

class RangeSummaryModel;
class Throttle;

class RangePanel : public Panel
{
    Q_OBJECT
public:
    // `analysis`: the dock that, when visible, keeps this one from being raised.
    RangePanel(Session *session, QMainWindow *window, QDockWidget *analysis);

    RangeSummaryModel *model() const { return m_model; }

private:
    void refresh();

    RangeSummaryModel *m_model;
    QDockWidget *m_analysis;
    Throttle *m_throttle;
};

} // namespace lanescope
