#pragma once
// Writes a loaded trace as a plain SQLite database for users' own queries (sqlite3, pandas): the
// documented, stable schema in docs/sqlite-schema.md (tracks, slices, args, instants, counters, flows,
// strings, files, groups, warnings, meta, the ops (OpTable) and engines (EngineBreakdown) tables, and
// the user's notes (AnnotationStore) in `notes`).
// Row counts equal what `lanescope-cli info` reports. The tables and their rows are ExportTables'
// (exporttables.h), which the Parquet export writes too.
// The database is written to a temporary file next to the output and renamed when complete.
#include "annotations/annotation.h"
#include "exporttables.h"
#include "io/input/loadoptions.h"

#include <string>
#include <vector>

namespace lanescope {

class SqliteExporter
{
public:
    // meta('schema_version'): bumped only for incompatible changes; columns may be added (ExportTables).
    static constexpr int kSchemaVersion = ExportTables::kSchemaVersion;

    // Progress 0..1000 and cancel from `options`. Returns false with a message naming the file.
    // `notes` (resolved against `trace`) become the rows of the `notes` table, which is always there.
    static bool exportTo(const Trace &trace, const std::string &outPath, const LoadOptions &options, std::string *error,
                         const std::vector<Annotation> &notes = {});
};

} // namespace lanescope
