#pragma once
// The Analysis dock: operator, kernel and device tables (AnalysisTablesView) for the marked range
// (the whole trace without one). A clicked row's occurrences become the timeline's matches. Hidden
// while a comparison is shown (its combined trace would mix the profiles).
#include "panel.h"

#include "tables/analysistablesview.h"

#include <functional>

namespace lanescope {

class TimelineView;

class AnalysisPanel : public Panel
{
    Q_OBJECT
public:
    AnalysisPanel(Session *session, TimelineView *timeline, QMainWindow *window);

    // The tables, made on first use: the window asks once the first frame of a trace is drawn, so that
    // they compute in the background as before without delaying that frame.
    AnalysisTablesView *tables();
    // Brings `table` to the front in a dock `height` pixels high (screenshots, navigation).
    void present(AnalysisTablesView::Table table, int height);
    // Runs `action` once the tables are computed (now when they are).
    void whenComputed(std::function<void()> action);

private:
    void onTraceChanged();

    TimelineView *m_timeline;
    AnalysisTablesView *m_tables = nullptr;
    bool m_hiddenForCompare = false;
    bool m_wasVisible = true;
};

} // namespace lanescope
