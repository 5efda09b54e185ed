#pragma once
// Helpers of the insights and capture-check tests: the first finding of a rule, and doubles compared
// the way the rules' figures (ratios of table numbers) are.
#include "analysis/insights/finding.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace lanescope::test {

inline const Finding *findRule(const std::vector<Finding> &all, const char *rule)
{
    for (const Finding &f : all)
        if (f.rule == rule)
            return &f;
    return nullptr;
}

inline bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

} // namespace lanescope::test
