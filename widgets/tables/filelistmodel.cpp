#include "filelistmodel.h"

namespace lanescope {

FileListModel::FileListModel(QObject *parent) : QAbstractTableModel(parent) {}

void FileListModel::setRows(std::vector<Row> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int FileListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FileListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FileListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.parent().isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row &r = m_rows[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        switch (index.column()) {
        case File: return r.path;
        case Kind: return r.kind;
        case Outcome: return r.outcome;
        case Detail: return r.detail;
        }
        break;
    case Qt::ToolTipRole:
        if (r.openable)
            return tr("%1\nDouble-click to open it on its own").arg(r.detail);
        return r.detail;
    case PathRole:
        return r.path;
    case OpenableRole:
        return r.openable;
    default:
        break;
    }
    return {};
}

QVariant FileListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case File: return tr("File");
    case Kind: return tr("Kind");
    case Outcome: return tr("Outcome");
    case Detail: return tr("Detail");
    }
    return {};
}

} // namespace lanescope
