#include "kerneltablemodel.h"

#include "style/durationformat.h"

namespace lanescope {

using Column = KernelTable::Column;

KernelTableModel::KernelTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void KernelTableModel::setResult(KernelTable::Result result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

const KernelTable::Row *KernelTableModel::row(int r) const
{
    return r >= 0 && size_t(r) < m_result.rows.size() ? &m_result.rows[size_t(r)] : nullptr;
}

int KernelTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_result.rows.size());
}

int KernelTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::ColumnCount);
}

QVariant KernelTableModel::data(const QModelIndex &index, int role) const
{
    const KernelTable::Row *r = index.isValid() ? row(index.row()) : nullptr;
    if (!r || index.column() >= int(Column::ColumnCount))
        return {};
    const auto c = Column(index.column());
    const bool text = c == Column::Name || c == Column::Kind || c == Column::LaunchedBy;
    const auto textOf = [&]() -> QString {
        switch (c) {
        case Column::Name: return QString::fromStdString(r->name);
        case Column::Kind: return QString::fromLatin1(LaunchIndex::kindName(r->kind));
        default: return QString::fromStdString(r->launchedBy);
        }
    };
    if (role == SortRole) {
        if (text)
            return textOf();
        if (c == Column::Count)
            return qulonglong(r->count);
        return r->number(c);
    }
    if (role == Qt::DisplayRole) {
        if (c == Column::LaunchedBy) {
            if (r->launchedBy.empty())
                return tr("(unattributed)");
            return r->launchers > 1 ? tr("%1 (+%2 more)").arg(textOf()).arg(r->launchers - 1) : textOf();
        }
        if (text)
            return textOf();
        if (c == Column::Count)
            return QString::number(r->count);
        if (c == Column::Percent)
            return QStringLiteral("%1 %").arg(r->percent, 0, 'f', 2);
        return DurationFormat::format(int64_t(r->number(c) + 0.5));
    }
    if (role == Qt::TextAlignmentRole && !text)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && (c == Column::Name || c == Column::LaunchedBy))
        return textOf();
    if (role == Qt::ToolTipRole && c == Column::Percent)
        return LaunchIndex::isExecutionLevel(r->kind) ? tr("of the device time in kernels, copies and executions")
                                                      : tr("of the device time in Neuron opcodes and DMA packets");
    return {};
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= int(Column::ColumnCount))
        return {};
    if (role == Qt::DisplayRole)
        return tr(KernelTable::columnTitle(Column(section)));
    if (role == Qt::ToolTipRole)
        return QString::fromLatin1(KernelTable::columnName(Column(section)));
    return {};
}

} // namespace lanescope
