#pragma once
// Step rules over the ProfilerStep#N occurrences of the op table (docs/insights.md):
//   step-warmup    the first profiled step takes >= 1.5 x the median of the others (warm-up,
//                  compilation or caching inside the profiled window)
//   step-outlier   later steps taking >= 1.5 x the median step (median, p90 and the slowest named)
// Both need at least 3 steps.
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
// Median of durations (the lower middle for an even count, as PyTorch's tables do not round).
int64_t median(std::vector<int64_t> durations);
// Nearest-rank percentile, p in [0, 1].
int64_t percentile(std::vector<int64_t> durations, double p);
} // namespace StepRules

} // namespace lanescope
