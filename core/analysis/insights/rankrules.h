#pragma once
// Multi-rank rules (docs/insights.md), over the rank step table (core/analysis/ranksteptable.h):
//   straggler-rank  a rank whose median ProfilerStep# time is more than 10 % above the median of the
//                   ranks' medians (RankStepTable::kStragglerRatio): the other ranks wait for it at
//                   every collective. One finding per straggler: its median vs the median of ranks,
//                   events = its slowest steps, ranges = those steps.
// Needs a multi-rank trace (MultiRankLoader) with steps on at least two ranks.
#include "rule.h"

namespace lanescope {

namespace RankRules {
RuleFunction straggler; // straggler-rank
} // namespace RankRules

} // namespace lanescope
