#pragma once
// The job overview of a folder of rank summaries (JobFolder::Result, core/job): a header line per job
// (ranks, clock, median step of ranks, stragglers, late ranks, matched / unmatched collectives), and
// tabs: Ranks (JobRows' table: step median / p90 / ratio, straggler, lateness at matched collectives,
// findings count, trace; the selected rank's own findings under it), Job findings (straggler-rank,
// late-arrival over the job, and which ranks share each rule of their own findings), Collectives (the
// lateness per rank and the most skewed matched collectives, TableRows' columns) and Warnings (jobs kept
// apart, ranks given twice or missing, summaries not read). Only presents: every number comes from
// core; double-clicking a rank asks for its trace (rankActivated), the dock decides what to open.
#include "job/jobfolder.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QListWidget;
class QTabWidget;
class QTableView;

namespace lanescope {

class FindingsListView;
class RowTableModel;
template <typename Row, typename Result> class RowModel;
struct JobRankRow;

class JobOverviewView : public QWidget
{
    Q_OBJECT
public:
    explicit JobOverviewView(QWidget *parent = nullptr);
    ~JobOverviewView() override;

    void setResult(std::shared_ptr<const JobFolder::Result> result);
    const std::shared_ptr<const JobFolder::Result> &result() const { return m_result; }
    const JobOverview *job() const; // the job shown, nullptr when none
    void showJob(int index);
    void setDark(bool dark);

    QTableView *ranksView() const { return m_ranks; }
    QTabWidget *tabs() const { return m_tabs; }
    QString headerText() const;
    FindingsListView *rankFindings() const { return m_rankFindings; }
    FindingsListView *jobFindings() const { return m_jobFindings; }
    // Selects the row of `rank` in the ranks table (its findings show under it).
    void selectRank(int64_t rank);

signals:
    // A rank row was double-clicked (or Enter): the summary's index in job()->ranks.
    void rankActivated(size_t summary);

private:
    void showRankFindings(const QModelIndex &proxyIndex);

    std::shared_ptr<const JobFolder::Result> m_result;
    int m_job = -1;
    QLabel *m_header;
    QComboBox *m_jobs;
    QTabWidget *m_tabs;
    QTableView *m_ranks;
    QTableView *m_lateness;
    QTableView *m_skew;
    FindingsListView *m_rankFindings;
    FindingsListView *m_jobFindings;
    QLabel *m_byRule;
    QListWidget *m_warnings;
    std::unique_ptr<RowModel<JobRankRow, std::vector<JobRankRow>>> m_rankModel;
    RowTableModel *m_latenessModel = nullptr;
    RowTableModel *m_skewModel = nullptr;
};

} // namespace lanescope
