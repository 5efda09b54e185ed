#pragma once
// The per-rank step-time table of a multi-rank trace (RankStepTable) as a Qt model: rank, steps,
// median, ratio to the median of ranks, straggler, p90, slowest step (shown bold, with a tooltip
// giving the rule). Raw numbers under SortRole. Headers are short ("Ratio", the CLI's word); their
// tooltips give the full meaning ("x median of ranks", the straggler rule).
#include "analysis/ranksteptable.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace lanescope {

class RankStepModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole + 1;
    enum Column { Rank, Steps, Median, Ratio, Straggler, P90, Slowest, SlowestStep, ColumnCount };

    explicit RankStepModel(QObject *parent = nullptr);

    void setResult(RankStepTable::Result result);
    const RankStepTable::Result &result() const { return m_result; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    RankStepTable::Result m_result;
    QStringList m_slowestNames;
};

} // namespace lanescope
