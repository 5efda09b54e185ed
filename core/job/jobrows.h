#pragma once
// The job overview's table of ranks, one row per rank summary, and its row description (the
// TableRows pattern, core/analysis/tablerows.h): `lanescope-cli info DIR` prints it (JSON `ranks`),
// the viewer's Job dock shows its OutGui columns. A row puts together what the job computed for the
// rank (its step-table row, its lateness at matched collectives, its clock placement) and what its
// summary says (its findings, its trace file).
#include "joboverview.h"

#include "util/tablecolumn.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

struct JobRankRow
{
    int64_t rank = 0;
    RankStepTable::Row steps;
    RankLateness lateness;
    uint64_t findings = 0, highFindings = 0;
    std::string topFinding; // the most severe finding's title ("" without findings)
    std::string trace;      // the trace file's name
    uint64_t traceBytes = 0;
    std::string clockRule;  // RankClock::ruleName of its placement
    int64_t clockOffsetNs = 0;
    size_t summary = 0;     // index into JobOverview::ranks
};

class JobRows
{
public:
    // One row per summary of the job, by rank.
    static std::vector<JobRankRow> ranks(const JobOverview &job);
    static const RowDescription<JobRankRow> &rankColumns();
};

} // namespace lanescope
