#pragma once
// One column of a table row description: JSON key, header, type and unit, accessor, and where the
// column appears. A table is described once (core/analysis/tablerows.h) and the CLI's --json and
// --format csv output, the SQLite export and the GUI's Analysis tables all read the same description
// (core/util/tablerowwriter.h, core/store/sqliteexporter.cpp, widgets/tables/rowtablemodel.h), so a
// column is named, typed and computed in one place.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace lanescope {

// A cell: no value (key left out of JSON, NULL in SQLite, empty in CSV), an explicit null (JSON null,
// NULL, empty), an integer, a real or text.
using Cell = std::variant<std::monostate, std::nullptr_t, int64_t, double, std::string>;

enum class CellType { Integer, Real, Text };

// Where a column is written (bits).
enum ColumnOutput : unsigned {
    OutJson = 1u,   // --json of the CLI
    OutCsv = 2u,    // --format csv of the CLI
    OutSqlite = 4u, // the SQLite export's table
    OutGui = 8u,    // a column of the GUI's table (widgets/tables/rowtablemodel.h)
    OutAll = OutJson | OutCsv | OutSqlite, // every file output
};

template <typename Row> struct TableColumn
{
    const char *key;    // JSON key, CSV header, SQLite column name: "cpu_self_ns"
    const char *header; // human header, the GUI's column title: "CPU self"
    CellType type;
    const char *unit;   // "ns", "%", "bytes", "count", "GHz", "bytes/s" or "" (text, ids)
    unsigned outputs;   // ColumnOutput bits
    bool notNull;       // SQLite NOT NULL
    std::function<Cell(const Row &)> get;

    bool in(ColumnOutput o) const { return (outputs & o) != 0; }
};

template <typename Row> using RowDescription = std::vector<TableColumn<Row>>;

} // namespace lanescope
