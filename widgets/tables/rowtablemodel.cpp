#include "rowtablemodel.h"

#include "style/durationformat.h"
#include "util/unittext.h"

#include <cmath>

namespace lanescope {

namespace {

// The cell as sorted and exported: text, integer or real; no value -> invalid.
QVariant raw(const Cell &cell)
{
    if (const auto *i = std::get_if<int64_t>(&cell))
        return qlonglong(*i);
    if (const auto *d = std::get_if<double>(&cell))
        return *d;
    if (const auto *s = std::get_if<std::string>(&cell))
        return QString::fromStdString(*s);
    return {};
}

QVariant display(const Cell &cell, std::string_view unit)
{
    if (const auto *s = std::get_if<std::string>(&cell))
        return QString::fromStdString(*s);
    const auto *i = std::get_if<int64_t>(&cell);
    const auto *d = std::get_if<double>(&cell);
    if (!i && !d)
        return {};
    if (unit == "ns")
        return DurationFormat::format(i ? *i : int64_t(std::llround(*d)));
    if (unit == "%")
        return QStringLiteral("%1 %").arg(i ? double(*i) : *d, 0, 'f', 2);
    if (unit == "bytes" || unit == "FLOP") // "12.3 MiB", "4.19 M FLOP"
        return QString::fromStdString(UnitText::value(i ? double(*i) : *d, unit));
    return i ? QString::number(*i) : QString::number(*d);
}

} // namespace

RowTableModel::RowTableModel(std::vector<Head> heads, QObject *parent) : QAbstractTableModel(parent), m_heads(std::move(heads)) {}

int RowTableModel::column(std::string_view key) const
{
    for (size_t c = 0; c < m_heads.size(); ++c)
        if (key == m_heads[c].key)
            return int(c);
    return -1;
}

const char *RowTableModel::key(int column) const
{
    return column >= 0 && size_t(column) < m_heads.size() ? m_heads[size_t(column)].key : "";
}

int RowTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(size());
}

int RowTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_heads.size());
}

QVariant RowTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= size() || size_t(index.column()) >= m_heads.size())
        return {};
    const size_t row = size_t(index.row());
    const Head &head = m_heads[size_t(index.column())];
    if (role != SortRole) { // the raw values are the description's, whatever the decoration shows
        QVariant v = decorated(row, index.column(), role);
        if (v.isValid())
            return v;
    }
    switch (role) {
    case SortRole: return raw(cell(row, index.column()));
    case Qt::DisplayRole: return display(cell(row, index.column()), head.unit);
    case Qt::TextAlignmentRole:
        if (head.type != CellType::Text)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    default: return {};
    }
}

QVariant RowTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || size_t(section) >= m_heads.size())
        return {};
    if (role == Qt::DisplayRole)
        return tr(m_heads[size_t(section)].header);
    if (role == Qt::ToolTipRole)
        return QString::fromLatin1(m_heads[size_t(section)].key);
    return {};
}

} // namespace lanescope
