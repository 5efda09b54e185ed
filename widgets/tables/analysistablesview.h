#pragma once
// The Analysis panel: tabs Operators / Kernels / Devices over OpTable, KernelTable and DeviceSummary
// (for a multi-rank trace also a rank filter and a Ranks tab: RankStepTable, stragglers in bold),
// a name filter, a "group by input shapes" toggle, CSV export and "next occurrence". Tables follow a
// time range (setRange); they are computed in the background (QtConcurrent) over the trace's one
// LaunchIndex (TraceAnalysis, shared with the Summary), and stale results are dropped by a job id.
// Clicking an operator or kernel row emits its occurrences for the timeline; clicking the same row
// again (or Next) asks for the next one.
#include "analysisrowmodels.h"

#include "model/ids.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QAbstractItemModel;
class QCheckBox;
class QComboBox;
class QIODevice;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace lanescope {

class TraceAnalysis;
class PlaceholderTableView;
class RankStepModel;
class Trace;

class AnalysisTablesView : public QWidget
{
    Q_OBJECT
public:
    enum class Table { Operators, Kernels, Devices };

    explicit AnalysisTablesView(QWidget *parent = nullptr);
    ~AnalysisTablesView() override;

    // `analysis`: the trace's shared analysis cache (the Session's, which may still be building its
    // LaunchIndex); without one, or one of another trace, the view makes its own.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const TraceAnalysis> analysis = {});
    void setGroupByShapes(bool on);
    void setFilter(const QString &text);
    // True until the result of the latest request is shown (older ones are dropped).
    bool isComputing() const { return m_shownJobId != m_jobId; }
    bool hasRange() const { return m_hasRange; }

    OpRowModel *opModel() const { return m_opModel; }
    KernelRowModel *kernelModel() const { return m_kernelModel; }
    DeviceRowModel *deviceModel() const { return m_deviceModel; }
    QSortFilterProxyModel *proxy(Table table) const;
    QTableView *view(Table table) const;
    Table currentTable() const;
    void setCurrentTable(Table table);

    // As a click on the row (of the proxy, i.e. as shown) of `table`.
    void activateRow(Table table, int row);
    // Writes what `table` shows (filtered, sorted) as CSV: a header of column names, then raw values
    // (ns, counts, percent). False when the file cannot be written.
    bool exportCsv(Table table, const QString &path) const;
    static void writeCsv(const QAbstractItemModel &model, int sortRole, const QStringList &header, QIODevice &out);

public slots:
    // Recomputes the tables for [t0, t1]; t1 <= t0 means the whole trace.
    void setRange(int64_t t0, int64_t t1);

signals:
    void rowActivated(lanescope::AnalysisTablesView::Table table, const QString &name);
    // A newly activated row: every occurrence (slice ids in time order) and a label for it.
    void occurrencesSelected(const std::vector<uint32_t> &slices, const QString &label);
    // The same row again, or the Next button.
    void nextOccurrenceRequested();
    // New results are shown.
    void computed();

protected:
    // Return / Enter on a table row does what a click does (the occurrences on the timeline, then the next).
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void recompute();
    // A table's options for the shown range, and the rank filter where the table takes one.
    template <typename Options> Options options() const;
    void exportCurrent();
    void updateStatus();
    void updatePlaceholders();
    QStringList csvHeader(Table table) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const TraceAnalysis> m_analysis;
    uint64_t m_jobId = 0;
    uint64_t m_shownJobId = 0;
    bool m_hasRange = false;
    int64_t m_t0 = 0, m_t1 = 0;
    bool m_groupByShapes = false;
    QString m_activeKey; // table + row name of the last activation
    QString m_activeLabel;

    OpRowModel *m_opModel = nullptr;
    KernelRowModel *m_kernelModel = nullptr;
    DeviceRowModel *m_deviceModel = nullptr;
    QSortFilterProxyModel *m_opProxy = nullptr;
    QSortFilterProxyModel *m_kernelProxy = nullptr;
    QSortFilterProxyModel *m_deviceProxy = nullptr;
    QTabWidget *m_tabs = nullptr;
    PlaceholderTableView *m_opView = nullptr;
    PlaceholderTableView *m_kernelView = nullptr;
    PlaceholderTableView *m_deviceView = nullptr;
    QLineEdit *m_filter = nullptr;
    QCheckBox *m_shapes = nullptr;
    QPushButton *m_next = nullptr;
    QPushButton *m_export = nullptr;
    QLabel *m_status = nullptr;
    // Multi-rank traces: the rank filter (RankFilter::kAllRanks = all) and the per-rank step table.
    int64_t m_rankFilter = -1;
    QComboBox *m_rank = nullptr;
    RankStepModel *m_rankModel = nullptr;
    PlaceholderTableView *m_rankView = nullptr;
};

} // namespace lanescope
