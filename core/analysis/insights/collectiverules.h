#pragma once
// Collective communication rules (docs/insights.md, "Multi-rank and collective rules"), over the
// collectives of the trace (CollectiveTable), their matching across ranks (CollectiveMatch) and the
// overlap breakdown (CommOverlap):
//   low-overlap         a GPU (per rank) where less than half of the communication time is hidden
//                       behind computation and the exposed part is >= 5 % of its step time
//   collective-outlier  instances of one collective kind, process group and message size (>= 5 of
//                       them, across ranks) taking >= 2 x their group's median and >= 50 us more
//                       (Neuron Explorer's "collective outliers against their group median")
//   late-arrival        a rank that entered matched collectives last and accounts for a dominant share
//                       of the job's lateness (>= max(25 %, 1.5 / ranks)), with the others' wait for it
//                       >= 1 % of the window
// Collectives count when they start in the analysed window. A job overview of rank summaries
// (core/job/joboverview.h) runs late-arrival on its own matching (lateRanks, lateArrivalFindings).
#include "rule.h"

#include "analysis/collectivematch.h"

#include <functional>

namespace lanescope {

struct CollectiveInstance;

namespace CollectiveRules {

RuleFunction lowOverlap, outlier, lateArrival; // low-overlap, collective-outlier, late-arrival

// A rank late-arrival names: its lateness over the matched collectives counted (RankLateness), its
// share of the job's lateness and the share needed.
struct LateRank
{
    RankLateness inWindow;
    double share = 0, minShare = 0;
};
// The ranks late-arrival names over a window of `spanNs`, counting the matched collectives whose
// first entry `counts` accepts; by rank.
std::vector<LateRank> lateRanks(const CollectiveMatchResult &match, const std::vector<CollectiveInstance> &instances, int64_t spanNs,
                                const std::function<bool(int64_t)> &counts);
// Its findings (thresholds, severity, text); ranges = the late rank's collectives (first to last
// entry); with `withEvents` the late rank's kernels (the instances' slice ids) as events.
std::vector<Finding> lateArrivalFindings(const CollectiveMatchResult &match, const std::vector<CollectiveInstance> &instances,
                                         int64_t spanNs, const std::function<bool(int64_t)> &counts, bool withEvents);

} // namespace CollectiveRules

} // namespace lanescope
