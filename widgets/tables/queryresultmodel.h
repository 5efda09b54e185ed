#pragma once
// The Query dock's result table (issue 48): a query's columns and the rows fetched so far, a page at a
// time: canFetchMore() / fetchMore() ask the owner for the next page (QueryJob::fetchMore), which comes
// back through appendRows(). Cells are shown as the CLI's text format shows them (NULL as "NULL",
// muted; numbers right-aligned). copyText() is a selection as TSV. Sorting is the owner's: a complete
// result is sorted here in memory (sortRows), a paged one is re-run with ORDER BY.
#include "util/tablecolumn.h"

#include <QAbstractTableModel>
#include <QModelIndexList>

#include <functional>
#include <string>
#include <vector>

namespace lanescope {

class QueryResultModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit QueryResultModel(QObject *parent = nullptr);

    // A new result: its columns, no rows (and none to fetch until setMoreAvailable).
    void reset(const std::vector<std::string> &columns);
    void appendRows(std::vector<std::vector<Cell>> rows);
    // Whether the owner has more rows to give, and how to ask for them.
    void setMoreAvailable(bool more) { m_more = more; }
    void setFetcher(std::function<void()> fetch) { m_fetch = std::move(fetch); }

    const std::vector<std::string> &columns() const { return m_columns; }
    int column(const char *name) const; // case-insensitive, -1 when absent
    const Cell &cell(int row, int column) const { return m_rows[size_t(row)][size_t(column)]; }
    // Sorts the rows held (a complete result) by `column`: NULL first, numbers before text (SQLite's order).
    void sortRows(int column, Qt::SortOrder order);

    // The cells of `indexes` as TSV: rows in order, columns in order, tab-separated, NULL empty,
    // tabs and line breaks in text as spaces. With `header` the column names come first.
    QString copyText(const QModelIndexList &indexes, bool header = false) const;
    static QString textOf(const Cell &cell);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

private:
    std::vector<std::string> m_columns;
    std::vector<std::vector<Cell>> m_rows;
    std::function<void()> m_fetch;
    bool m_more = false;
};

} // namespace lanescope
