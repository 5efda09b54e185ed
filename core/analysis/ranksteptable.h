#pragma once
// Per rank of a multi-rank trace, the time of its ProfilerStep#N occurrences (the op table's
// "ProfilerStep*" row, split by rank with RankFilter):
//   steps     occurrences that start in the range
//   median    median step time (the lower middle for an even count; StepStatistics, shared with the step rules)
//   p90       nearest-rank 90th percentile
//   slowest   the longest step, and which one
//   ratio     median / the median of the ranks' medians
//   straggler ratio > kStragglerRatio (median step time more than 10 % above the median of ranks)
// Ranks without steps are listed with zeros and never stragglers. `lanescope-cli info` prints it,
// the GUI's Analysis dock shows it, the straggler-rank insight reads it.
//
// The computation runs on plain step records (fromRecords): a loaded multi-rank trace gives them from
// its slices (compute, fromSteps), a folder of rank summaries from each summary's steps
// (core/job/joboverview.h), so a job overview and the full load compute every number one way.
#include "launchindex.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

class Trace;

class RankStepTable
{
public:
    static constexpr double kStragglerRatio = 1.10;

    struct Options
    {
        bool hasRange = false;
        int64_t t0 = 0, t1 = 0;
    };

    // One ProfilerStep# occurrence of a rank.
    struct Step
    {
        uint32_t id = 0;    // slice id (in a rank summary: the slice id in the rank's own trace)
        std::string name;   // "ProfilerStep#12"
        int64_t start = 0;  // on any clock shared by the rank's steps
        int64_t duration = 0;
    };
    // The steps of one rank (any order).
    struct RankSteps
    {
        int64_t rank = 0;
        std::vector<Step> steps;
    };

    struct Row
    {
        int64_t rank = 0;
        uint64_t steps = 0;
        int64_t median = 0, p90 = 0, slowest = 0;
        uint32_t slowestStep = 0;         // step id (valid when steps > 0)
        std::string slowestStepName;      // its name ("ProfilerStep#12"), empty without steps
        double ratio = 0;                 // median / medianOfRanks (0 without steps)
        bool straggler = false;
        std::vector<uint32_t> stepSlices; // step ids by start
        std::vector<Step> stepList;       // the steps by start
    };

    struct Result
    {
        std::vector<Row> rows; // by rank
        int64_t medianOfRanks = 0; // median of the medians of ranks with steps
        bool empty() const { return rows.empty(); }
    };

    // Empty for a trace that is not multi-rank.
    static Result compute(const Trace &trace, const LaunchIndex &index, const Options &options);
    // The same from ProfilerStep# occurrences already found (the op table's "ProfilerStep*" row).
    static Result fromSteps(const Trace &trace, const std::vector<uint32_t> &steps);
    // The table of ranks given as records: one row per RankSteps (records of one rank given twice
    // are one rank), ascending by rank.
    static Result fromRecords(const std::vector<RankSteps> &ranks);
};

} // namespace lanescope
