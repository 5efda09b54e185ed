#pragma once
// A table of rows as a Qt model whose columns are those of a RowDescription (core/util/tablecolumn.h)
// marked OutGui, so the GUI's tables have the columns, headers and values the CLI's --json /
// --format csv and the SQLite export have. For each cell:
//   DisplayRole    text as is; "ns" columns as durations (style/durationformat.h), "%" columns as
//                  "12.34 %", other numbers in full; a column's decoration may say otherwise
//   SortRole       the raw value (text, qlonglong, double), for sorting and CSV export
//   alignment      numbers right-aligned
//   ToolTipRole    only where a decoration gives one
// Header: the column's header for display, its key (the JSON name) as tooltip and CSV header.
// RowTableModel is the QAbstractTableModel over type-erased columns; RowModel<Row, Result> holds the
// rows (or a result with `rows`) and reads their cells through the description.
#include "util/tablecolumn.h"

#include <QAbstractTableModel>

#include <functional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace lanescope {

class RowTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole + 1;

    // The model column of `key` (TableColumn::key), -1 when it has none.
    int column(std::string_view key) const;
    const char *key(int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    // What the base needs of a column; the accessor stays with the template.
    struct Head
    {
        const char *key;
        const char *header;
        CellType type;
        const char *unit;
    };

    RowTableModel(std::vector<Head> heads, QObject *parent);
    virtual size_t size() const = 0; // rows held
    virtual Cell cell(size_t row, int column) const = 0;
    // A decoration's value for `role`, or an invalid QVariant for the default.
    virtual QVariant decorated(size_t row, int column, int role) const = 0;

private:
    std::vector<Head> m_heads;
};

template <typename Row, typename Result = std::vector<Row>> class RowModel final : public RowTableModel
{
public:
    // A GUI-only touch to the column `key`: a role's value from the row, or an invalid QVariant for
    // the default (a tooltip, "(unattributed)" for empty text).
    struct Decoration
    {
        const char *key;
        std::function<QVariant(const Row &, int role)> data;
    };

    RowModel(const RowDescription<Row> &description, const std::vector<Decoration> &decorations, QObject *parent = nullptr)
        : RowTableModel(heads(description), parent)
    {
        for (const TableColumn<Row> &c : description)
            if (c.in(OutGui)) {
                m_get.push_back(c.get);
                m_decoration.emplace_back();
                for (const Decoration &d : decorations)
                    if (std::string_view(d.key) == c.key)
                        m_decoration.back() = d.data;
            }
    }

    void setResult(Result result)
    {
        beginResetModel();
        m_result = std::move(result);
        endResetModel();
    }
    const Result &result() const { return m_result; }
    const std::vector<Row> &rows() const
    {
        if constexpr (std::is_same_v<Result, std::vector<Row>>)
            return m_result;
        else
            return m_result.rows;
    }
    const Row *row(int r) const { return r >= 0 && size_t(r) < rows().size() ? &rows()[size_t(r)] : nullptr; }

private:
    static std::vector<Head> heads(const RowDescription<Row> &description)
    {
        std::vector<Head> h;
        for (const TableColumn<Row> &c : description)
            if (c.in(OutGui))
                h.push_back({c.key, c.header, c.type, c.unit});
        return h;
    }
    size_t size() const override { return rows().size(); }
    Cell cell(size_t row, int column) const override { return m_get[size_t(column)](rows()[row]); }
    QVariant decorated(size_t row, int column, int role) const override
    {
        const auto &d = m_decoration[size_t(column)];
        return d ? d(rows()[row], role) : QVariant();
    }

    std::vector<std::function<Cell(const Row &)>> m_get;
    std::vector<std::function<QVariant(const Row &, int)>> m_decoration;
    Result m_result;
};

} // namespace lanescope
