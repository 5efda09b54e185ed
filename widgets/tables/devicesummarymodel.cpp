#include "devicesummarymodel.h"

#include "style/durationformat.h"

namespace lanescope {

using Column = DeviceSummary::Column;

DeviceSummaryModel::DeviceSummaryModel(QObject *parent) : QAbstractTableModel(parent) {}

void DeviceSummaryModel::setRows(std::vector<DeviceSummary::Row> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int DeviceSummaryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int DeviceSummaryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::ColumnCount);
}

QVariant DeviceSummaryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()) || index.column() >= int(Column::ColumnCount))
        return {};
    const DeviceSummary::Row &r = m_rows[size_t(index.row())];
    const auto c = Column(index.column());
    if (role == SortRole) {
        if (c == Column::Device)
            return QString::fromStdString(r.device);
        if (c == Column::Work)
            return qulonglong(r.work);
        return r.number(c);
    }
    if (role == Qt::DisplayRole) {
        switch (c) {
        case Column::Device: return QString::fromStdString(r.device);
        case Column::Work: return QString::number(r.work);
        case Column::BusyPercent: return QStringLiteral("%1 %").arg(r.busyPercent(), 0, 'f', 2);
        default: return DurationFormat::format(int64_t(r.number(c)));
        }
    }
    if (role == Qt::TextAlignmentRole && c != Column::Device)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

QVariant DeviceSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= int(Column::ColumnCount))
        return {};
    if (role == Qt::DisplayRole)
        return tr(DeviceSummary::columnTitle(Column(section)));
    if (role == Qt::ToolTipRole)
        return QString::fromLatin1(DeviceSummary::columnName(Column(section)));
    return {};
}

} // namespace lanescope
