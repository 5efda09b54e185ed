#pragma once
// The operator table (OpTable) as a Qt model: one column per OpTable::Column, durations as text for
// display and raw numbers (ns, counts, percent) under SortRole for sorting and CSV export.
#include "analysis/optable.h"

#include <QAbstractTableModel>

namespace lanescope {

class OpTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit OpTableModel(QObject *parent = nullptr);

    void setResult(OpTable::Result result);
    const OpTable::Result &result() const { return m_result; }
    const OpTable::Row *row(int r) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    OpTable::Result m_result;
};

} // namespace lanescope
