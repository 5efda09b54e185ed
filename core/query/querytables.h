#pragma once
// The export's tables of one loaded trace as a query engine reads them: each table's rows
// (store/exportrows.h, reading the trace in place) and its name index, both made on first use and kept
// for the engine's life, so the derived tables (ops, engines, kernels, collectives, devices, dma_queues,
// tensors) are computed once per engine, when a statement first names them.
#include "annotations/annotation.h"
#include "nameindex.h"
#include "store/exportrows.h"

#include <memory>
#include <vector>

namespace lanescope {

class Trace;

class QueryTables
{
public:
    QueryTables(std::shared_ptr<const Trace> trace, std::vector<Annotation> notes);
    ~QueryTables();

    const Trace &trace() const { return *m_trace; }
    // ExportRows::tableNames()'s order.
    static size_t count();
    ExportRows &rows(size_t table);
    const NameIndex &names(size_t table);
    // Bytes of what was made so far beyond the trace (the name indexes).
    size_t memoryUsage() const;

private:
    std::shared_ptr<const Trace> m_trace;
    std::vector<Annotation> m_notes;
    std::vector<std::unique_ptr<ExportRows>> m_rows;
    std::vector<std::unique_ptr<NameIndex>> m_names;
};

} // namespace lanescope
