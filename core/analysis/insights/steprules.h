#pragma once
// Step rules over the ProfilerStep#N occurrences of the op table (docs/insights.md):
//   step-warmup    the first profiled step takes >= 1.5 x the median of the others (warm-up,
//                  compilation or caching inside the profiled window)
//   step-outlier   later steps taking >= 1.5 x the median step (median, p90 and the slowest named)
// Both need at least 3 steps.
#include "analysis/stepstatistics.h"
#include "rule.h"

#include <cstdint>
#include <vector>

namespace lanescope {

class StepWarmupRule : public Rule
{
public:
    static constexpr double kThresholdRatio = 1.5;
    std::string_view id() const override { return "step-warmup"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

class StepOutlierRule : public Rule
{
public:
    static constexpr double kThresholdRatio = 1.5;
    std::string_view id() const override { return "step-outlier"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

namespace StepRules {
constexpr size_t kMinSteps = 3;
void addTo(RuleList &rules);
// The shared step statistics (analysis/stepstatistics.h), for the rules that use them.
inline int64_t median(std::vector<int64_t> durations) { return StepStatistics::median(std::move(durations)); }
inline int64_t percentile(std::vector<int64_t> durations, double p) { return StepStatistics::percentile(std::move(durations), p); }
} // namespace StepRules

} // namespace lanescope
