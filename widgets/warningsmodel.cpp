#include "warningsmodel.h"

namespace lanescope {

namespace {

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

WarningsModel::WarningsModel(QObject *parent) : QAbstractTableModel(parent) {}

void WarningsModel::setWarnings(std::vector<Warning> warnings)
{
    beginResetModel();
    m_warnings = std::move(warnings);
    endResetModel();
}

uint64_t WarningsModel::total() const
{
    uint64_t n = 0;
    for (const Warning &w : m_warnings)
        n += w.count;
    return n;
}

int WarningsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_warnings.size());
}

int WarningsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WarningsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.parent().isValid() || index.row() >= int(m_warnings.size()))
        return {};
    const Warning &w = m_warnings[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Count:
            return fromStd(formatThousands(w.count));
        case Message:
            return fromStd(w.message);
        case FirstSeen:
            return fromStd(w.firstSeen);
        }
        break;
    case SortRole:
        switch (index.column()) {
        case Count:
            return QVariant::fromValue<qulonglong>(w.count);
        case Message:
            return fromStd(w.message);
        case FirstSeen:
            return fromStd(w.firstSeen);
        }
        break;
    case Qt::ToolTipRole:
        return fromStd(Diagnostics::format(w));
    case Qt::TextAlignmentRole:
        if (index.column() == Count)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        break;
    default:
        break;
    }
    return {};
}

QVariant WarningsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Count:
        return tr("Count");
    case Message:
        return tr("Warning");
    case FirstSeen:
        return tr("First seen");
    }
    return {};
}

} // namespace lanescope
