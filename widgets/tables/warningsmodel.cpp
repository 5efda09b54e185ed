#include "warningsmodel.h"

#include <QBrush>

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
        if (!w.isNote())
            n += w.count;
    return n;
}

uint64_t WarningsModel::notes() const
{
    uint64_t n = 0;
    for (const Warning &w : m_warnings)
        if (w.isNote())
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
        case Kind:
            return w.isNote() ? tr("note") : tr("warning");
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
        case Kind:
            return int(w.severity);
        case Message:
            return fromStd(w.message);
        case FirstSeen:
            return fromStd(w.firstSeen);
        }
        break;
    case Qt::ToolTipRole:
        return w.isNote() ? tr("Note (expected, not a problem): %1").arg(fromStd(Diagnostics::format(w)))
                          : fromStd(Diagnostics::format(w));
    case Qt::ForegroundRole:
        if (w.isNote())
            return QBrush(QColor(0x8a, 0x8f, 0x98)); // grey that reads on light and dark window palettes
        break;
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
    case Kind:
        return tr("Kind");
    case Message:
        return tr("Message");
    case FirstSeen:
        return tr("First seen");
    }
    return {};
}

} // namespace lanescope
