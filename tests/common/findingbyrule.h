#pragma once
// The finding of one rule in a list of insights findings, or nullptr.
#include "analysis/insights/finding.h"

#include <vector>

namespace lanescope::test {

inline const Finding *findingByRule(const std::vector<Finding> &all, const char *rule)
{
    for (const Finding &f : all)
        if (f.rule == rule)
            return &f;
    return nullptr;
}

} // namespace lanescope::test
