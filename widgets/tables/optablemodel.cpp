#include "optablemodel.h"

#include "style/durationformat.h"

namespace lanescope {

using Column = OpTable::Column;

OpTableModel::OpTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void OpTableModel::setResult(OpTable::Result result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

const OpTable::Row *OpTableModel::row(int r) const
{
    return r >= 0 && size_t(r) < m_result.rows.size() ? &m_result.rows[size_t(r)] : nullptr;
}

int OpTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_result.rows.size());
}

int OpTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant OpTableModel::data(const QModelIndex &index, int role) const
{
    const OpTable::Row *r = index.isValid() ? row(index.row()) : nullptr;
    if (!r || index.column() >= int(Column::Count))
        return {};
    const auto c = Column(index.column());
    const bool text = c == Column::Name || c == Column::Shapes;
    if (role == SortRole) {
        if (c == Column::Name)
            return QString::fromStdString(r->name);
        if (c == Column::Shapes)
            return QString::fromStdString(r->shapes);
        if (c == Column::Calls)
            return qulonglong(r->calls);
        return r->number(c);
    }
    if (role == Qt::DisplayRole) {
        switch (c) {
        case Column::Name: return QString::fromStdString(r->name);
        case Column::Shapes: return QString::fromStdString(r->shapes);
        case Column::Calls: return QString::number(r->calls);
        case Column::CpuSelfPercent:
        case Column::CpuTotalPercent:
        case Column::DeviceSelfPercent:
        case Column::DeviceTotalPercent: return QStringLiteral("%1 %").arg(r->number(c), 0, 'f', 2);
        default: return DurationFormat::format(int64_t(r->number(c) + 0.5));
        }
    }
    if (role == Qt::TextAlignmentRole && !text)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && c == Column::Name)
        return r->runtime ? tr("%1 (runtime call)").arg(QString::fromStdString(r->name)) : QString::fromStdString(r->name);
    return {};
}

QVariant OpTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= int(Column::Count))
        return {};
    if (role == Qt::DisplayRole)
        return tr(OpTable::columnTitle(Column(section)));
    if (role == Qt::ToolTipRole)
        return QString::fromLatin1(OpTable::columnName(Column(section)));
    return {};
}

} // namespace lanescope
