// libFuzzer harness: the Parquet reader (core/io/parquet: TableReader over FileReader), from bytes in
// memory, at most 65,536 rows a file (so a footer or page claiming more is an error, not an
// allocation).
//
// A file that opens gives a table whose every column holds the footer's row count (one validity flag
// and one value per row, text ends rising; a LIST column one list per row, list ends rising, one value
// per element); a column left out has an error saying "unsupported ..."
// or naming the file. A file that does not open gives an error naming the file. Every fourth input
// that reads also has its columns written back by the writer (64-bit integers, doubles, text) and read
// again: the same cells.
#include "folderspec.h"
#include "fuzz_common.h"

#include "io/parquet/parquetfilewriter.h"
#include "io/parquet/parquettablereader.h"

#include <filesystem>
#include <string>

using namespace lanescope;
using namespace lanescope::parquet;

namespace {

constexpr uint64_t kMaxRows = 65536;
const std::string kName = "fuzz.parquet";

void checkTable(const Table &t)
{
    LANESCOPE_FUZZ_CHECK(t.rows <= kMaxRows);
    for (const ColumnData &c : t.columns) {
        LANESCOPE_FUZZ_CHECK(c.rows() == t.rows);
        // A LIST column: one element list per row, its ends rising; the value arrays are per element.
        const size_t values = c.list ? c.elements() : size_t(t.rows);
        if (c.list) {
            LANESCOPE_FUZZ_CHECK(c.listEnds.size() == t.rows);
            for (size_t i = 0; i < c.listEnds.size(); ++i)
                LANESCOPE_FUZZ_CHECK(c.listEnds[i] >= (i ? c.listEnds[i - 1] : 0) && c.listEnds[i] <= c.elements());
            for (uint8_t v : c.elementValid)
                LANESCOPE_FUZZ_CHECK(v <= 1);
        }
        switch (c.type) {
        case PhysicalType::ByteArray:
            LANESCOPE_FUZZ_CHECK(c.textEnds.size() == values);
            for (size_t i = 0; i < c.textEnds.size(); ++i)
                LANESCOPE_FUZZ_CHECK(c.textEnds[i] >= (i ? c.textEnds[i - 1] : 0) && c.textEnds[i] <= c.text.size());
            break;
        case PhysicalType::Float:
        case PhysicalType::Double: LANESCOPE_FUZZ_CHECK(c.reals.size() == values); break;
        default: LANESCOPE_FUZZ_CHECK(c.ints.size() == values); break;
        }
        for (size_t i = 0; i < c.rows(); ++i)
            LANESCOPE_FUZZ_CHECK(c.valid[i] <= 1 && (c.optional || c.valid[i]));
    }
    for (const std::string &e : t.columnErrors)
        LANESCOPE_FUZZ_CHECK(e.rfind("unsupported ", 0) == 0 || e.rfind(kName + ": ", 0) == 0);
}

bool sameCell(const ColumnData &a, const ColumnData &b, size_t i)
{
    if (a.isNull(i) != b.isNull(i))
        return false;
    if (a.isNull(i))
        return true;
    switch (a.type) {
    case PhysicalType::ByteArray: return a.textAt(i) == b.textAt(i);
    case PhysicalType::Float:
    case PhysicalType::Double: {
        const double x = a.reals[i], y = b.reals[i];
        return x == y || (x != x && y != y); // NaN stays NaN
    }
    default: return a.ints[i] == b.ints[i];
    }
}

// The table written back through the writer and read again.
void roundTrip(const Table &t)
{
    std::vector<ColumnSpec> specs;
    std::vector<const ColumnData *> cols;
    for (const ColumnData &c : t.columns) {
        if (c.list)
            continue; // the writer writes flat columns only
        ColumnType type = ColumnType::Int64;
        if (c.type == PhysicalType::ByteArray)
            type = ColumnType::String;
        else if (c.type == PhysicalType::Float || c.type == PhysicalType::Double)
            type = ColumnType::Double;
        specs.push_back({"c" + std::to_string(specs.size()), type, c.optional});
        cols.push_back(&c);
    }
    if (specs.empty())
        return;
    const std::string path = fuzz::scratchFolder() + "-parquet.parquet";
    WriteOptions o;
    o.rowGroupRows = 1000;
    o.pageBytes = 4096;
    FileWriter w;
    std::string error;
    LANESCOPE_FUZZ_CHECK(w.open(path, specs, o, {}, &error));
    for (size_t r = 0; r < t.rows; ++r) {
        for (size_t k = 0; k < cols.size(); ++k) {
            const ColumnData &c = *cols[k];
            if (c.isNull(r))
                w.column(k).addNull();
            else if (specs[k].type == ColumnType::String)
                w.column(k).addText(c.textAt(r));
            else if (specs[k].type == ColumnType::Double)
                w.column(k).addReal(c.reals[r]);
            else
                w.column(k).addInt(c.ints[r]);
        }
        LANESCOPE_FUZZ_CHECK(w.endRow());
    }
    LANESCOPE_FUZZ_CHECK(w.close());
    Table back;
    LANESCOPE_FUZZ_CHECK(TableReader::read(path, &back, &error));
    LANESCOPE_FUZZ_CHECK(back.columnErrors.empty() && back.columns.size() == cols.size() && back.rows == t.rows);
    for (size_t k = 0; k < cols.size(); ++k)
        for (size_t r = 0; r < t.rows; ++r)
            LANESCOPE_FUZZ_CHECK(sameCell(*cols[k], back.columns[k], r));
    std::error_code ec;
    std::filesystem::remove(path, ec);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Table t;
    std::string error;
    const std::string bytes(reinterpret_cast<const char *>(data), size);
    if (!TableReader::readBytes(kName, bytes, &t, &error, kMaxRows)) {
        LANESCOPE_FUZZ_CHECK(error.rfind(kName + ": ", 0) == 0);
        return 0;
    }
    checkTable(t);
    if (size && (data[size - 1] & 3) == 0)
        roundTrip(t);
    return 0;
}
