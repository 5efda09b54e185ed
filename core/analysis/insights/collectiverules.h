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

namespace CollectiveRules {
RuleFunction lowOverlap, outlier, lateArrival; // low-overlap, collective-outlier, late-arrival
} // namespace CollectiveRules

} // namespace lanescope
