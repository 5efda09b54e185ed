#pragma once
// The comparison panel: which pair to diff and by which metric, the operator and kernel / opcode
// diff tables (sortable, filterable, CSV export), and a per-engine chart of A against B (active
// time, instruction count or DMA bytes). Activating a row asks the window to show that name's
// occurrences in every profile.
#include <QWidget>

class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace lanescope {

class CompareSession;
class DiffTableModel;

class DiffView : public QWidget
{
    Q_OBJECT
public:
    explicit DiffView(QWidget *parent = nullptr);

    void setSession(CompareSession *session);
    DiffTableModel *opsModel() const { return m_opsModel; }
    DiffTableModel *kernelsModel() const { return m_kernelsModel; }
    QTabWidget *tabs() const { return m_tabs; }
    QChartView *engineChart() const { return m_chart; }
    // Writes the current table as CSV; false with `error` set when the file cannot be written.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

signals:
    void rowActivated(const QString &name);

private:
    void refresh();
    void refreshPairCombos();
    void updateChart();
    QTableView *makeTable(DiffTableModel *model, QSortFilterProxyModel *&proxy);
    void exportCurrent();

    CompareSession *m_session = nullptr;
    QComboBox *m_base = nullptr, *m_other = nullptr, *m_metric = nullptr, *m_chartQuantity = nullptr;
    QLineEdit *m_filter = nullptr;
    QLabel *m_total = nullptr;
    QTabWidget *m_tabs = nullptr;
    DiffTableModel *m_opsModel = nullptr, *m_kernelsModel = nullptr;
    QSortFilterProxyModel *m_opsProxy = nullptr, *m_kernelsProxy = nullptr;
    QTableView *m_opsView = nullptr, *m_kernelsView = nullptr;
    QChartView *m_chart = nullptr;
    QWidget *m_enginePage = nullptr;
};

} // namespace lanescope
