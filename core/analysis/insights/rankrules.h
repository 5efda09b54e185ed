#pragma once
// Multi-rank rules (docs/insights.md), over the rank step table (core/analysis/ranksteptable.h):
//   straggler-rank  a rank whose median ProfilerStep# time is more than 10 % above the median of the
//                   ranks' medians (RankStepTable::kStragglerRatio): the other ranks wait for it at
//                   every collective. One finding per straggler: its median vs the median of ranks,
//                   events = its slowest steps, ranges = those steps.
// Needs a multi-rank trace (MultiRankLoader) with steps on at least two ranks, or a job overview of
// rank summaries (core/job/joboverview.h), which calls stragglerFindings() on the same table.
#include "rule.h"

#include "analysis/ranksteptable.h"

namespace lanescope {

namespace RankRules {
RuleFunction straggler; // straggler-rank
// The straggler findings of a rank step table over a window of `spanNs` (severity), ranges = each
// straggler's slowest steps on the table's clock; with `withEvents` their step ids as events (slice
// ids of the trace the table was computed on).
std::vector<Finding> stragglerFindings(const RankStepTable::Result &table, int64_t spanNs, bool withEvents);
} // namespace RankRules

} // namespace lanescope
