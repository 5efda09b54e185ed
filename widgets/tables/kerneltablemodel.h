#pragma once
// The kernel table (KernelTable) as a Qt model; raw numbers under SortRole.
#include "analysis/kerneltable.h"

#include <QAbstractTableModel>

namespace lanescope {

class KernelTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit KernelTableModel(QObject *parent = nullptr);

    void setResult(KernelTable::Result result);
    const KernelTable::Result &result() const { return m_result; }
    const KernelTable::Row *row(int r) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    KernelTable::Result m_result;
};

} // namespace lanescope
