#pragma once
// The Collectives dock of a GPU trace or multi-rank job: the numbers of `lanescope-cli collectives`
// (CollectiveAnalysis) on four tabs:
//   Collectives  per collective kind, process group and message size, across ranks then per rank:
//                count, total / median / max time, message bytes, algbw / busbw; activating a row
//                makes its kernels (on every rank) the timeline's matches
//   Overlap      HTA's temporal breakdown per GPU, then per step: computation, communication,
//                memory, idle, overlapped / exposed communication, overlap %
//   Skew         per rank how often it entered matched collectives last and how late (top), and each
//                collective matched across ranks by skew (bottom); activating one selects it on every
//                rank: its kernels become the matches, the span from first to last entry the marked
//                range, the last rank's kernel the selection
//   Durations    a box per collective group with every instance as a point (log duration axis);
//                clicking a point does what activating its Skew row does (or finds the kernel alone)
// Computed on a worker thread while seen; shown for traces with NCCL / RCCL kernels.
#include "computeddock.h"

#include "analysis/collectiveanalysis.h"

class QLabel;
class QTabWidget;

namespace lanescope {

class CollectiveDurationsView;
class TimelineView;
template <typename Row, typename Result> class RowModel;

class CollectivesPanel : public ComputedDock
{
    Q_OBJECT
public:
    enum Tab { CollectivesTab, OverlapTab, SkewTab, DurationsTab };

    CollectivesPanel(Session *session, TimelineView *timeline, QMainWindow *window);

    // The dock's widgets, made on first use.
    QTabWidget *tabs();
    QTableView *table();
    QTableView *overlapTable();
    QTableView *skewTable();
    QTableView *latenessTable();
    CollectiveDurationsView *durations();
    const CollectiveAnalysis &result() const { return m_result; }
    QString status() const;

    // Makes the kernels of a collectives row (its source row) the timeline's matches; returns how many.
    size_t findRow(int sourceRow);
    // Selects the matched collective `index` (into result().match.matched) on every rank; returns how
    // many kernels became matches.
    size_t selectMatched(size_t index);
    // Finds one instance (into result().table.instances): its matched collective on every rank when it
    // has one, else the kernel alone.
    size_t findInstance(uint32_t instance);
    void setDark(bool dark);

protected:
    bool hasContentFor(const Trace &trace) const override;
    void clear() override;
    void compute() override;

private:
    void ensureBody();
    void present(const CollectiveAnalysis &a);
    void showMatches(std::vector<uint32_t> slices, const QString &what);

    TimelineView *m_timeline;
    QTabWidget *m_tabs = nullptr;
    RowModel<CollectiveRow, std::vector<CollectiveRow>> *m_model;
    RowModel<CommOverlapRow, std::vector<CommOverlapRow>> *m_overlapModel;
    RowModel<MatchedCollective, std::vector<MatchedCollective>> *m_skewModel;
    RowModel<RankLateness, std::vector<RankLateness>> *m_latenessModel;
    QTableView *m_view = nullptr;
    QTableView *m_overlapView = nullptr;
    QTableView *m_skewView = nullptr;
    QTableView *m_latenessView = nullptr;
    CollectiveDurationsView *m_durations = nullptr;
    QLabel *m_status = nullptr;
    bool m_dark = false;
    CollectiveAnalysis m_result;
    std::vector<int32_t> m_matchOf; // per instance: its index in m_result.match.matched, -1 when unmatched
};

} // namespace lanescope
