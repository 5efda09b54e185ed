// The export's derived tables: the rows of an analysis as its CLI command computes them (the same
// function, default options: the whole trace, every rank), with the columns of its row description
// (core/analysis/tablerows.h) marked for file exports, in that order. Computed whole when made, held as
// cells: the SQLite and Parquet exports make them once per export, the SQL engine (core/query) on a
// query's first use of the table, once per engine.
//   ops          OpTable                           `lanescope-cli ops`
//   engines      EngineBreakdown's engines         `lanescope-cli engines`
//   kernels      KernelTable                       `lanescope-cli kernels`
//   collectives  CollectiveTable's rows + perRank  `lanescope-cli collectives --format csv`
//   devices      DeviceSummary                     `lanescope-cli devices`
//   dma_queues   EngineBreakdown's DMA queues      `lanescope-cli engines --format csv --table dma`
//   tensors      TensorTable                       `lanescope-cli tensors`
#include "exportrowsmakers.h"

#include "analysis/collectivetable.h"
#include "analysis/devicesummary.h"
#include "analysis/enginebreakdown.h"
#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "analysis/tablerows.h"
#include "analysis/tensortable.h"
#include "model/trace.h"

#include <utility>

namespace lanescope::exportrows {

namespace {

// A table from its row description: the columns marked for file exports, computed for every row.
template <typename Row, typename Rows>
std::unique_ptr<ExportRows> described(const char *name, const RowDescription<Row> &columns, const Rows &rows)
{
    std::vector<const TableColumn<Row> *> used;
    for (const TableColumn<Row> &c : columns)
        if (c.in(OutSqlite))
            used.push_back(&c);
    std::vector<std::vector<Cell>> cells;
    cells.reserve(rows.size());
    for (const Row &r : rows) {
        std::vector<Cell> line;
        line.reserve(used.size());
        for (const TableColumn<Row> *c : used)
            line.push_back(c->get(r));
        cells.push_back(std::move(line));
    }
    return cellRows(ExportTable{name, ExportTables::columnsOf(columns)}, std::move(cells));
}

} // namespace

std::unique_ptr<ExportRows> ops(const Trace &t)
{
    return described("ops", TableRows::ops(), OpTable::compute(t, LaunchIndex::build(t), OpTable::Options()).rows);
}

std::unique_ptr<ExportRows> engines(const Trace &t)
{
    return described("engines", TableRows::engines(), EngineBreakdown::compute(t).engines);
}

std::unique_ptr<ExportRows> kernels(const Trace &t)
{
    return described("kernels", TableRows::kernels(), KernelTable::compute(t, LaunchIndex::build(t), KernelTable::Options()).rows);
}

std::unique_ptr<ExportRows> collectives(const Trace &t)
{
    return described("collectives", TableRows::collectives(), CollectiveTable::compute(t).allRows());
}

std::unique_ptr<ExportRows> devices(const Trace &t)
{
    return described("devices", TableRows::devices(), DeviceSummary::compute(t, LaunchIndex::build(t), DeviceSummary::Options()));
}

std::unique_ptr<ExportRows> dmaQueues(const Trace &t)
{
    return described("dma_queues", TableRows::dmaQueues(), EngineBreakdown::compute(t).dma);
}

std::unique_ptr<ExportRows> tensors(const Trace &t)
{
    return described("tensors", TableRows::tensors(), TensorTable::compute(t).rows);
}

} // namespace lanescope::exportrows
