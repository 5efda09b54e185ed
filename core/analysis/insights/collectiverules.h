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
// (core/job/joboverview.h) calls LateArrivalRule::findings on its own matching.
#include "rule.h"

#include "analysis/collectivematch.h"

#include <functional>

namespace lanescope {

struct CollectiveInstance;

class LowOverlapRule : public Rule
{
public:
    static constexpr double kMaxOverlap = 0.5;
    static constexpr double kMinExposedShare = 0.05;
    std::string_view id() const override { return "low-overlap"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

class CollectiveOutlierRule : public Rule
{
public:
    static constexpr double kRatio = 2.0;
    static constexpr int64_t kMinExcessNs = 50'000;
    static constexpr uint64_t kMinGroup = 5;
    std::string_view id() const override { return "collective-outlier"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

class LateArrivalRule : public Rule
{
public:
    static constexpr double kMinShare = 0.25;
    static constexpr double kMinWaitShare = 0.01;
    static constexpr std::string_view kId = "late-arrival";
    std::string_view id() const override { return kId; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
    // The ranks the rule names, by rank: their lateness in the window (RankLateness of the matched
    // collectives counted), share of the job's lateness and the share needed.
    struct LateRank
    {
        RankLateness inWindow;
        double share = 0, minShare = 0;
    };
    static std::vector<LateRank> lateRanks(const CollectiveMatchResult &match, int64_t spanNs, const std::function<bool(int64_t)> &counts);
    // The findings of a matching over a window of `spanNs` (thresholds and severity), counting the
    // matched collectives whose first entry `counts` accepts; ranges = the late rank's collectives
    // (first to last entry). With `withEvents`, the late rank's kernels (the instances' slice ids) as events.
    static std::vector<Finding> findings(const CollectiveMatchResult &match, const std::vector<CollectiveInstance> &instances,
                                         int64_t spanNs, const std::function<bool(int64_t)> &counts, bool withEvents);
};

namespace CollectiveRules {
void addTo(RuleList &rules);
} // namespace CollectiveRules

} // namespace lanescope
