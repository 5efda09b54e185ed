#pragma once
// One table of the file exports (docs/sqlite-schema.md) row by row: its description (name, columns,
// types) and any cell of any row, read from the trace in place. The exporters stream every row of
// every table through it (ExportTables::write); the SQL engine (core/query) reads only the rows and
// columns a query asks for, in any order, without copying the trace. So a table has one list of
// columns and one way to compute each value, whoever reads it.
//
// Rows are numbered 0..size()-1 in the export's order. The keys say which columns can find rows
// without a scan (the SQLite export's indexes): an id, a track's rows (one run per track, sorted by
// ts within it), a string-pool name, an arg set, a flow's end.
#include "annotations/annotation.h"
#include "exporttables.h"
#include "model/ids.h"

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;

struct RowKeys
{
    int id = -1;        // rowOfId()
    int track = -1;     // trackRows(): the rows of one track are one run
    int ts = -1;        // tsOf(): ascending within a track's run (when tsSorted())
    int name = -1;      // nameOf(): the string-pool id of the column's text
    int argSet = -1;    // argSetRows()
    int fromSlice = -1; // flowRows(true, ...)
    int toSlice = -1;   // flowRows(false, ...)
};

// A run of rows [begin, end).
struct RowRun
{
    uint64_t begin = 0;
    uint64_t end = 0;
};

class ExportRows
{
public:
    static constexpr uint64_t kNoRow = UINT64_MAX;

    virtual ~ExportRows() = default;
    const ExportTable &table() const { return m_table; }
    virtual uint64_t size() const = 0;
    // Cell `column` of row `row` (< size()) into `out`, at the same column index. Not thread-safe:
    // scratch text lives in the object.
    virtual void cell(uint64_t row, int column, CellSink &out) = 0;

    virtual RowKeys keys() const { return {}; }
    virtual uint64_t rowOfId(int64_t) const { return kNoRow; }
    // rowOfId of a table whose id is its row number (strings, groups, tracks, flows).
    uint64_t rowNumber(int64_t id) const { return id >= 0 && uint64_t(id) < size() ? uint64_t(id) : kNoRow; }
    virtual RowRun trackRows(uint32_t) const { return {}; }
    virtual uint32_t trackCount() const { return 0; }
    virtual int64_t tsOf(uint64_t) const { return 0; }
    // Whether every track's rows are in ts order (checked once; the ts key is unused otherwise).
    virtual bool tsSorted() const { return false; }
    virtual StringId nameOf(uint64_t) const { return {}; }
    virtual RowRun argSetRows(uint32_t) const { return {}; }
    // The rows of the flows from (or to) slice `slice`, ascending.
    virtual std::vector<uint64_t> flowRows(bool from, uint32_t slice) const;

    // The export's tables, in the export's order: meta, strings, files, groups, tracks, slices,
    // instants, args, counters, flows, warnings, ops, engines, kernels, collectives, devices,
    // dma_queues, tensors, notes.
    static const std::vector<std::string> &tableNames();
    // The rows of table `name` (null for an unknown name). The derived tables (ops, engines, kernels,
    // collectives, devices, dma_queues, tensors: derivedrows.cpp) are computed here, whole, and cannot
    // be interrupted; the others read `trace` (and `notes`) in place, which must outlive the rows.
    static std::unique_ptr<ExportRows> make(std::string_view name, const Trace &trace,
                                            const std::vector<Annotation> &notes);

protected:
    explicit ExportRows(ExportTable table) : m_table(std::move(table)) {}

private:
    ExportTable m_table;
};

} // namespace lanescope
