#pragma once
// fusion-candidate: one framework op whose occurrences each launch 3 or more separate device
// executions / kernels (itself or through nested ops) with the device idle between them — the
// naive RMSNorm case (pow, mean, rsqrt, mul as four dispatches). Only the innermost such op is
// named (its enclosing module or step is not a separate finding); ProfilerStep#N is never one.
// Recoverable: the device idle time between the first and last execution of each occurrence (where
// the per-dispatch overhead of the host and the runtime shows up on the device).
#include "rule.h"

namespace lanescope {

class FusionCandidateRule : public Rule
{
public:
    static constexpr size_t kMinExecutions = 3;
    static constexpr size_t kMaxFindings = 5;

    std::string_view id() const override { return "fusion-candidate"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

} // namespace lanescope
