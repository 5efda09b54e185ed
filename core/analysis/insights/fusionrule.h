#pragma once
// fusion-candidate: device executions / kernels dispatched one by one where one would do — the
// naive RMSNorm case (pow, mean, rsqrt, mul as four dispatches). Two shapes:
//   one op    a framework op whose occurrences each launch 3 or more separate executions (itself
//             or through nested ops). Only the innermost such op is named (its enclosing module or
//             step is not a separate finding); ProfilerStep#N is never one.
//   a run     adjacent sibling ops under one parent (an op, a ProfilerStep#N or the thread's top
//             level), none launching 3 itself, that together launch 3 or more (2 to 16
//             launching ops; ops without device work between them do not break the run). Runs
//             inside a qualifying op are that op's finding. Repeated runs (same parent name, same op
//             names) are one finding. A run of every launching op of a ProfilerStep#N is the step's
//             idle time (device-idle), not a candidate.
// An occurrence counts when the device is idle between its first and last execution, and that idle
// time is at most the host time of its ops and no gap exceeds 10 ms (longer gaps are the host
// doing something else: autotuning, loading data, synchronising). Recoverable:
// that idle time (where the per-dispatch overhead of the host and the runtime shows up on the
// device). Candidates below 0.5 % of the window are dropped; the 5 largest
// remain.
#include "rule.h"

namespace lanescope {

namespace FusionRule {
RuleFunction candidate; // fusion-candidate
} // namespace FusionRule

} // namespace lanescope
