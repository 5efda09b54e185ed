#pragma once
// The Collectives dock of a GPU trace or multi-rank job: CollectiveTable's rows (per collective kind,
// process group and message size, across ranks then per rank: count, total / median / max time,
// message bytes, algbw / busbw), the numbers of `lanescope-cli collectives`. Activating a row makes its
// kernels (on every rank) the timeline's search matches. Computed on a worker thread while seen; shown
// for traces with NCCL / RCCL kernels, hidden otherwise.
#include "panel.h"

#include "analysis/collectivetable.h"

class QLabel;

namespace lanescope {

class DockJob;
class TimelineView;
template <typename Row, typename Result> class RowModel;

class CollectivesPanel : public Panel
{
    Q_OBJECT
public:
    CollectivesPanel(Session *session, TimelineView *timeline, QMainWindow *window);

    bool hasContent() const { return m_hasContent; }
    QTableView *table() const { return m_view; }
    // Makes the kernels of a row (its source row) the timeline's matches; returns how many.
    size_t findRow(int sourceRow);
    void resetVisibility();

signals:
    void computed();

private:
    void onTraceChanged();
    void compute();

    TimelineView *m_timeline;
    RowModel<CollectiveRow, std::vector<CollectiveRow>> *m_model;
    QTableView *m_view;
    QLabel *m_status;
    DockJob *m_job;
    CollectiveTableResult m_result;
    bool m_hasContent = false;
    bool m_userClosed = false;
};

} // namespace lanescope
