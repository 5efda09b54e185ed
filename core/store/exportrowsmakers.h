#pragma once
// The row sources of the export's tables, one maker each (exportrows.cpp dispatches by table name):
// the model's event tables in eventrows.cpp, the args and flows in linkrows.cpp, the small tables in
// smallrows.cpp, the derived ones (an analysis' rows) in derivedrows.cpp. Internal to core/store.
#include "exportrows.h"

namespace lanescope::exportrows {

std::unique_ptr<ExportRows> meta(const Trace &t);
std::unique_ptr<ExportRows> strings(const Trace &t);
std::unique_ptr<ExportRows> files(const Trace &t);
std::unique_ptr<ExportRows> groups(const Trace &t);
std::unique_ptr<ExportRows> tracks(const Trace &t);
std::unique_ptr<ExportRows> slices(const Trace &t);
std::unique_ptr<ExportRows> instants(const Trace &t);
std::unique_ptr<ExportRows> args(const Trace &t);
std::unique_ptr<ExportRows> counters(const Trace &t);
std::unique_ptr<ExportRows> flows(const Trace &t);
std::unique_ptr<ExportRows> warnings(const Trace &t);
std::unique_ptr<ExportRows> ops(const Trace &t);
std::unique_ptr<ExportRows> engines(const Trace &t);
std::unique_ptr<ExportRows> kernels(const Trace &t);
std::unique_ptr<ExportRows> collectives(const Trace &t);
std::unique_ptr<ExportRows> devices(const Trace &t);
std::unique_ptr<ExportRows> dmaQueues(const Trace &t);
std::unique_ptr<ExportRows> tensors(const Trace &t);
std::unique_ptr<ExportRows> notes(const std::vector<Annotation> &notes);

// Rows held as cells (text lives as long as the rows): meta's facts, the derived tables.
std::unique_ptr<ExportRows> cellRows(ExportTable table, std::vector<std::vector<Cell>> rows);
// A column of a fixed-layout table (docs/sqlite-schema.md).
ExportColumn column(const char *name, CellType type, bool notNull, const char *sqlConstraint = "");
// An id column that may be absent (UINT32_MAX): NULL then.
void optionalId(CellSink &s, int column, uint32_t v);

} // namespace lanescope::exportrows
