#pragma once
// The per-device summary (DeviceSummary) as a Qt model; raw numbers under SortRole.
#include "analysis/devicesummary.h"

#include <QAbstractTableModel>

#include <vector>

namespace lanescope {

class DeviceSummaryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit DeviceSummaryModel(QObject *parent = nullptr);

    void setRows(std::vector<DeviceSummary::Row> rows);
    const std::vector<DeviceSummary::Row> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<DeviceSummary::Row> m_rows;
};

} // namespace lanescope
