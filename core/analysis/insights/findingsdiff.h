#pragma once
// Findings of two profiles compared (the findings section of `lanescope-cli diff`): a finding of A
// with no match in B is resolved, one of B with no match in A is new, a match whose severity
// changed or whose value moved by more than 5 % is changed. Findings match by rule and subject
// (the title with its numbers taken out: "Fusion candidate: rmsnorm naive makes N separate ...").
#include "finding.h"

#include <string>
#include <utility>
#include <vector>

namespace lanescope {

struct FindingsDiffResult
{
    std::vector<Finding> resolved; // in A only
    std::vector<Finding> added;    // in B only
    std::vector<std::pair<Finding, Finding>> changed; // (A, B)
};

class FindingsDiff
{
public:
    static constexpr double kChangedPercent = 5.0;
    static FindingsDiffResult compare(const std::vector<Finding> &a, const std::vector<Finding> &b);
    // Rule id + title without digits, '.', '%' and repeated spaces.
    static std::string key(const Finding &f);
};

} // namespace lanescope
