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
// Collectives count when they start in the analysed window.
#include "rule.h"

namespace lanescope {

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
    std::string_view id() const override { return "late-arrival"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

namespace CollectiveRules {
void addTo(RuleList &rules);
} // namespace CollectiveRules

} // namespace lanescope
