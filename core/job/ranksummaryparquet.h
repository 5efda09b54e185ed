#pragma once
// A rank summary as one Parquet row (`lanescope-cli summarize --parquet`, docs/job-summary.md "Parquet"):
// every rank's file has the same flat columns, so a job's summaries are one
// `SELECT ... FROM read_parquet('summaries/*.parquet')` away in DuckDB, Spark or pandas. The numbers are
// those of the JSON summary (RankSummaryJson), computed by the same functions: the step statistics by
// StepStatistics (nearest-rank), the key metrics by Insights. Times in ns, sizes in bytes; a number the
// rank does not have (no steps, no device) is null.
#include "io/parquet/parquetcolumnwriter.h"
#include "ranksummary.h"

#include <string>
#include <vector>

namespace lanescope {

class RankSummaryParquet
{
public:
    // The columns, in file order.
    static std::vector<parquet::ColumnSpec> columns();
    // Writes `s` as PATH (through PATH.partial, renamed when complete). False with `error` naming the file.
    static bool write(const RankSummary &s, const std::string &path, std::string *error,
                      const parquet::WriteOptions &options = parquet::WriteOptions());
};

} // namespace lanescope
