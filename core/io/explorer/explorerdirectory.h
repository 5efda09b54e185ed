#pragma once
// A processed Neuron Explorer profile: a directory of Parquet files, one table each
// (../shared/docs/explorer-parquet.md section 1.1, docs/explorer-parquet-reading.md):
//   <Table>.parquet, or a large table split into <Table>_0.parquet, <Table>_1.parquet, ...
// A missing file means "no rows of that kind", not an error. ProfileDirectory lists the tables and
// reads one table whole: its splits concatenated in index order, columns matched by name.
//
// Problems are warnings in the caller's Diagnostics, naming the file (and column, and byte offset where
// one is known); whatever can be read still loads:
//   - a numbered split with a gap (_0, _1, _3): the files present are read, the gap named once;
//   - a plain <Table>.parquet beside numbered files: both read (plain first), noted;
//   - a split that cannot be read (truncated footer, not Parquet): that file skipped;
//   - a column that cannot be decoded (unsupported encoding, corrupt page): that column left out;
//   - a column absent from one split but present in another: that split's rows are null there;
//   - a column whose physical type differs from the one the caller expects (LoadedTable::column).
#include "io/parquet/parquetfilereader.h"
#include "model/diagnostics.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::explorer {

// What a reader expects of a column (the schema's OpenAPI type): integer (INT32 / INT64; BOOLEAN is
// not an integer), real (FLOAT / DOUBLE; integers accepted and converted), text (BYTE_ARRAY), boolean.
enum class ValueKind : uint8_t { Integer, Real, Text, Boolean };

const char *valueKindName(ValueKind kind);

// One table, its splits read and concatenated.
struct LoadedTable
{
    std::string name;               // "Instruction"
    std::vector<std::string> files; // the files read, in order (full paths)
    uint64_t rows = 0;
    std::vector<parquet::ColumnData> columns;
    // Parallel to `columns`: the file and byte offset of the column's first data page in the first
    // split that holds it, for messages.
    std::vector<std::string> columnFile;
    std::vector<int64_t> columnOffset;

    // The column `name` or nullptr. A column of another physical type than `kind` expects is a warning
    // in `diag` ("column C of FILE (at byte N) is DOUBLE; expected an integer (...)") and nullptr, so
    // the caller treats it as absent. A Real request on an integer column converts it in place.
    const parquet::ColumnData *column(std::string_view name, ValueKind kind, Diagnostics &diag);
    // Without a type check.
    const parquet::ColumnData *find(std::string_view name) const;
    // Lists, for a note, the names of `expected` this table lacks.
    std::vector<std::string> missing(const std::vector<std::string_view> &expected) const;
};

class ProfileDirectory
{
public:
    // Lists `dir`'s tables. False (error set: the directory and why) when it cannot be listed.
    bool open(const std::string &dir, std::string *error);

    // Whether `dir` holds at least one Parquet file named like a table of a processed profile
    // (Metadata, Instruction, DmaPacket, SystemProfileEvents, DeviceProfileList, ...; plain or split).
    static bool looksLikeProfile(const std::string &dir);

    const std::string &path() const { return m_dir; }
    std::vector<std::string> tableNames() const;
    bool has(std::string_view table) const;
    // The files of `table` in read order (empty when absent).
    std::vector<std::string> files(std::string_view table) const;

    // Reads every split of `table` into `out`. False when the table has no file or none of its files
    // could be read (each unreadable file is a warning in `diag`); `out` is then an empty table.
    // `maxRows` bounds each file (see parquet::FileReader::setMaxRows).
    bool read(std::string_view table, LoadedTable *out, Diagnostics &diag, uint64_t maxRows = uint64_t(1) << 31) const;

private:
    struct Split
    {
        int64_t index = -1; // -1: the plain <Table>.parquet
        std::string file;
    };
    std::string m_dir;
    std::map<std::string, std::vector<Split>, std::less<>> m_tables; // splits sorted by index
};

} // namespace lanescope::explorer
