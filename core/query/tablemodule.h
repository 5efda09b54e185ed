#pragma once
// The export's tables as SQLite virtual tables over the loaded trace: one eponymous module per table
// (`SELECT ... FROM slices` needs no CREATE), read-only (no xUpdate), reading rows in place through
// QueryTables. xBestIndex offers what the SQLite export indexes, and a little more:
//   id = ?                       one row (slices, instants, flows, tracks, groups, strings)
//   track_id = ? [AND ts range]  one track's run, narrowed by binary search (slices, instants, counters)
//   ts range                     every track's run narrowed by binary search
//   name = ?                     the string-pool id, then its rows from the name index (slices, instants)
//   arg_set_id = ?               one arg set's run (args)
//   from_slice_id / to_slice_id  the model's flow lookups (flows)
//   ORDER BY name / GROUP BY name   read in name order from the name index: no sorter, no copy
// SQLite re-checks every constraint on the rows it gets (none is omitted), so a value a key cannot use
// (text for an id, a non-BINARY collation) falls back to a scan and still gives the right rows.
#include <string>

struct sqlite3;

namespace lanescope {

class QueryTables;

namespace tablemodule {

// Registers every table of ExportRows::tableNames(); `tables` must outlive `db`'s statements.
// `*declaring` is true while a table declares its columns (the authorizer must let that through).
bool registerAll(sqlite3 *db, QueryTables &tables, bool *declaring, std::string *error);

} // namespace tablemodule
} // namespace lanescope
