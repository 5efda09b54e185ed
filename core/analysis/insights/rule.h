#pragma once
// One insights rule (docs/insights.md): reads the tables of an InsightContext and appends the
// findings it concludes. Rules are stateless, cheap (they read tables computed once per context)
// and must not fail on traces without steps, device work or framework ops: they simply find
// nothing there.
#include "finding.h"

#include <memory>
#include <string_view>
#include <vector>

namespace lanescope {

class InsightContext;

class Rule
{
public:
    virtual ~Rule() = default;
    virtual std::string_view id() const = 0;
    virtual void evaluate(InsightContext &context, std::vector<Finding> &out) const = 0;
};

// What a rule family hands to the registry (HostRules::addTo, ...).
using RuleList = std::vector<std::unique_ptr<Rule>>;

} // namespace lanescope
