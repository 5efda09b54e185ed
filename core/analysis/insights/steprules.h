#pragma once
// Step rules over the ProfilerStep#N occurrences of the op table (docs/insights.md):
//   step-warmup    the first profiled step takes >= 1.5 x the median of the others (warm-up,
//                  compilation or caching inside the profiled window)
//   step-outlier   later steps taking >= 1.5 x the median step (median, p90 and the slowest named)
// Both need at least 3 steps. Medians and percentiles: analysis/stepstatistics.h.
#include "rule.h"

#include <cstddef>

namespace lanescope {

namespace StepRules {
constexpr size_t kMinSteps = 3; // both need this many; so does capture-no-warmup's ratio
RuleFunction warmup, outlier; // step-warmup, step-outlier
} // namespace StepRules

} // namespace lanescope
