#pragma once
// The tables of Lanescope's file exports, described and produced once for every export format: the
// SQLite export (sqliteexporter.h, docs/sqlite-schema.md) and the Parquet export (parquetexporter.h,
// docs/parquet.md) both write what this streams, so their table names, column names, units and
// values are the same. Each table is announced with its description, then its rows cell by cell.
#include "annotations/annotation.h"
#include "io/input/loadoptions.h"
#include "util/tablecolumn.h"

#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class Trace;

struct ExportColumn
{
    std::string name;
    CellType type = CellType::Integer;
    bool notNull = false;
    // A column whose cells are integers, reals or text row by row (meta.value, args.value): SQLite
    // declares it without a type, Parquet writes it as text (see docs/parquet.md).
    bool anyType = false;
    std::string sqlConstraint; // "PRIMARY KEY", "REFERENCES tracks(id)" (SQLite only)
};

struct ExportTable
{
    std::string name;
    std::vector<ExportColumn> columns;
};

// Receives cells, by 0-based column index. text(): the view stays valid as long as the trace and the
// rows object it came from (the string pool, names, notes). scratchText(): valid until the same column
// of the next row is asked for (a path built for this row).
class CellSink
{
public:
    virtual ~CellSink() = default;
    virtual void null(int column) = 0;
    virtual void i64(int column, int64_t v) = 0;
    virtual void real(int column, double v) = 0;
    virtual void text(int column, std::string_view v) = 0;
    virtual void scratchText(int column, std::string_view v) { text(column, v); }
};

// Receives the tables of an export. Cells are set every column of a row once; text is valid until
// row() returns.
class ExportSink : public CellSink
{
public:
    virtual bool beginTable(const ExportTable &table) = 0;
    virtual bool row() = 0;
    virtual bool endTable() = 0;
    virtual std::string error() const = 0;
};

class ExportTables
{
public:
    // meta('schema_version'): bumped only for incompatible changes; columns may be added.
    static constexpr int kSchemaVersion = 1;

    // Streams every table (ExportRows::tableNames(): meta, strings, ..., the derived ops, engines,
    // kernels, collectives, devices, dma_queues, tensors, then notes; their rows are ExportRows',
    // exportrows.h) into `sink`. Progress 0..1000 and cancel from `options` (checked between tables too).
    // False with `error` set (the sink's error, or "export cancelled").
    static bool write(const Trace &trace, const std::vector<Annotation> &notes, ExportSink &sink,
                      const LoadOptions &options, std::string *error);

    // A row description's columns marked for file exports (OutSqlite), as export columns.
    template <typename Row> static std::vector<ExportColumn> columnsOf(const RowDescription<Row> &d)
    {
        std::vector<ExportColumn> out;
        for (const TableColumn<Row> &c : d)
            if (c.in(OutSqlite))
                out.push_back({c.key, c.type, c.notNull, false, {}});
        return out;
    }
};

} // namespace lanescope
