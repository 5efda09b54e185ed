#include "queryresultmodel.h"

#include <QColor>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>

namespace lanescope {

namespace {

// SQLite's order of storage classes: NULL, numbers, text.
int rankOf(const Cell &c)
{
    if (std::holds_alternative<int64_t>(c) || std::holds_alternative<double>(c))
        return 1;
    if (std::holds_alternative<std::string>(c))
        return 2;
    return 0;
}

double numberOf(const Cell &c)
{
    if (const auto *i = std::get_if<int64_t>(&c))
        return double(*i);
    if (const auto *d = std::get_if<double>(&c))
        return *d;
    return 0;
}

bool less(const Cell &a, const Cell &b)
{
    const int ra = rankOf(a), rb = rankOf(b);
    if (ra != rb)
        return ra < rb;
    if (ra == 1) {
        const auto *ia = std::get_if<int64_t>(&a);
        const auto *ib = std::get_if<int64_t>(&b);
        return ia && ib ? *ia < *ib : numberOf(a) < numberOf(b);
    }
    if (ra == 2)
        return std::get<std::string>(a) < std::get<std::string>(b);
    return false;
}

} // namespace

QueryResultModel::QueryResultModel(QObject *parent) : QAbstractTableModel(parent) {}

void QueryResultModel::reset(const std::vector<std::string> &columns)
{
    beginResetModel();
    m_columns = columns;
    m_rows.clear();
    m_more = false;
    endResetModel();
}

void QueryResultModel::appendRows(std::vector<std::vector<Cell>> rows)
{
    if (rows.empty())
        return;
    beginInsertRows({}, rowCount(), rowCount() + int(rows.size()) - 1);
    for (auto &r : rows)
        m_rows.push_back(std::move(r));
    endInsertRows();
}

int QueryResultModel::column(const char *name) const
{
    for (size_t i = 0; i < m_columns.size(); ++i) {
        const std::string &c = m_columns[i];
        size_t k = 0;
        while (k < c.size() && name[k] && std::tolower(static_cast<unsigned char>(c[k])) == std::tolower(static_cast<unsigned char>(name[k])))
            ++k;
        if (k == c.size() && !name[k])
            return int(i);
    }
    return -1;
}

void QueryResultModel::sortRows(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= columnCount())
        return;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const size_t c = size_t(column);
    std::stable_sort(m_rows.begin(), m_rows.end(), [c, order](const std::vector<Cell> &a, const std::vector<Cell> &b) {
        return order == Qt::AscendingOrder ? less(a[c], b[c]) : less(b[c], a[c]);
    });
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

QString QueryResultModel::textOf(const Cell &cell)
{
    if (const auto *i = std::get_if<int64_t>(&cell))
        return QString::number(*i);
    if (const auto *d = std::get_if<double>(&cell)) {
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, *d); // shortest round trip, as the CLI
        return QString::fromLatin1(buf, r.ptr - buf);
    }
    if (const auto *s = std::get_if<std::string>(&cell))
        return QString::fromStdString(*s);
    return {};
}

QString QueryResultModel::copyText(const QModelIndexList &indexes, bool header) const
{
    std::map<int, std::set<int>> cells; // row -> columns
    std::set<int> columns;
    for (const QModelIndex &i : indexes) {
        if (!i.isValid() || i.row() >= rowCount())
            continue;
        cells[i.row()].insert(i.column());
        columns.insert(i.column());
    }
    const auto clean = [](QString s) {
        s.replace(QLatin1Char('\t'), QLatin1Char(' '));
        s.replace(QLatin1Char('\n'), QLatin1Char(' '));
        s.remove(QLatin1Char('\r'));
        return s;
    };
    QString out;
    if (header && !columns.empty()) {
        QStringList names;
        for (int c : columns)
            names << clean(QString::fromStdString(m_columns[size_t(c)]));
        out += names.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    for (const auto &[row, cols] : cells) {
        QStringList line;
        for (int c : columns)
            line << (cols.count(c) ? clean(textOf(cell(row, c))) : QString());
        out += line.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return out;
}

int QueryResultModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int QueryResultModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_columns.size()); }

QVariant QueryResultModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const Cell &c = cell(index.row(), index.column());
    const bool null = rankOf(c) == 0;
    switch (role) {
    case Qt::DisplayRole:
        return null ? QStringLiteral("NULL") : textOf(c);
    case Qt::ToolTipRole:
        if (const auto *s = std::get_if<std::string>(&c); s && s->size() > 40)
            return QString::fromStdString(*s);
        return {};
    case Qt::TextAlignmentRole:
        return rankOf(c) == 1 ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (null)
            return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        return {};
    default:
        break;
    }
    return {};
}

QVariant QueryResultModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Horizontal)
        return section >= 0 && section < columnCount() ? QString::fromStdString(m_columns[size_t(section)]) : QVariant();
    return section + 1;
}

bool QueryResultModel::canFetchMore(const QModelIndex &parent) const { return !parent.isValid() && m_more && m_fetch; }

void QueryResultModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        m_fetch();
}

} // namespace lanescope
