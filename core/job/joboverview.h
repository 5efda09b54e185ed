#pragma once
// One distributed job computed from the summaries of its ranks (docs/job-summary.md): the ranks on one
// clock (RankClock::align on each summary's clock inputs, as MultiRankLoader places the loaded
// traces), the per-rank step table (RankStepTable::fromRecords), every collective instance on that
// clock (CollectiveTable::fromInstances) and their matching across ranks (CollectiveMatch::match, with
// each instance's step from the summary), and the job's findings (the straggler-rank and late-arrival
// rules on those tables over the job's span). Each is the function the full multi-rank load runs, on
// the same inputs, so every number equals the full load's (tests/core/job/tst_joboverview.cpp). The
// ranks' own findings and tables stay in their summaries (findings by rank).
#include "ranksummary.h"

#include "analysis/collectivematch.h"
#include "io/ranks/rankclock.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lanescope {

struct JobOverview
{
    std::string label;     // "job 1 (world size 256)"
    int64_t worldSize = -1; // distributedInfo.world_size (-1: unknown)
    std::vector<RankSummary> ranks; // by rank
    std::vector<RankClock::Placement> clocks; // per ranks[i]
    std::string clockRule; // the rules used: "baseTimeNanoseconds", "first ProfilerStep# + trace start", ...
    int64_t startNs = 0, endNs = 0; // the job's span on its clock (the lowest rank's)

    RankStepTable::Result steps;
    CollectiveTableResult collectives; // instances of every rank on the job clock (slice: the rank's own slice id)
    CollectiveMatchResult match;       // members index collectives.instances
    std::vector<Finding> findings;     // straggler-rank and late-arrival over the job, ranked (Finding::rank)
    std::vector<int64_t> missingRanks; // 0 .. worldSize-1 without a summary

    int64_t spanNs() const { return endNs - startNs; }
    // The summary of a rank, nullptr when none.
    const RankSummary *summaryOf(int64_t rank) const;
    // Ranks whose median step time makes them stragglers (RankStepTable), ascending.
    std::vector<int64_t> stragglers() const;
    // Ranks the late-arrival rule names (CollectiveRules::lateRanks over the job's span), ascending.
    std::vector<int64_t> lateRanks() const;
    // Findings by rank, folded by rule: rule id -> the ranks whose own trace has a finding of it.
    std::map<std::string, std::vector<int64_t>> findingsByRule() const;

    // "0 1 2 and 5 more" (the first `named`), "none": how the CLI and the Job dock list ranks.
    static std::string rankList(const std::vector<int64_t> &ranks, size_t named = 12);

    // The job from the summaries of its ranks (one summary per rank: JobFolder keeps duplicates apart).
    static JobOverview compute(std::vector<RankSummary> ranks, std::string label = {});
};

} // namespace lanescope
