#pragma once
// One insights rule (docs/insights.md): reads the tables of an InsightContext and appends the
// findings it concludes. Rules are stateless, cheap (they read tables computed once per context)
// and must not fail on traces without steps, device work or framework ops: they simply find
// nothing there. Every rule Lanescope ships is a RuleFunction, registered with its id in
// RuleRegistry::defaults(); the Rule interface is for rules that carry state of their own.
#include "finding.h"

#include <string_view>
#include <vector>

namespace lanescope {

class InsightContext;
struct EngineBreakdownResult;

// A rule as a function: appends what it concludes to `out` (RuleRegistry::add stamps the rule's id on
// those findings). A family header declares its rules with it: `RuleFunction deviceIdle, syncStall;`.
using RuleFunction = void(InsightContext &context, std::vector<Finding> &out);
// A rule over the window's engine breakdown (the device rules); the registry runs it only when the
// breakdown measured something (engine lanes, a window of some length).
using EngineRuleFunction = void(InsightContext &context, const EngineBreakdownResult &engines, std::vector<Finding> &out);

class Rule
{
public:
    virtual ~Rule() = default;
    virtual std::string_view id() const = 0;
    virtual void evaluate(InsightContext &context, std::vector<Finding> &out) const = 0;
};

} // namespace lanescope
