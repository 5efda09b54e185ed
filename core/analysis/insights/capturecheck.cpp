#include "capturecheck.h"

#include "analysis/launchindex.h"
#include "insightcontext.h"
#include "ruleregistry.h"

namespace lanescope {

const RuleRegistry &CaptureCheck::rules()
{
    static const RuleRegistry registry = RuleRegistry::defaults().subset(Finding::isCapture);
    return registry;
}

std::vector<Finding> CaptureCheck::run(const Trace &trace, const LaunchIndex &index)
{
    // Only the rules, not the key metrics Insights::run computes beside them: `info` stays quick.
    InsightContext ctx(trace, index, InsightContext::Range());
    std::vector<Finding> findings;
    for (const auto &rule : rules().rules())
        rule->evaluate(ctx, findings);
    Finding::rank(findings);
    return findings;
}

std::vector<Finding> CaptureCheck::run(const Trace &trace)
{
    const LaunchIndex index = LaunchIndex::build(trace);
    return run(trace, index);
}

std::string CaptureCheck::verdict(const std::vector<Finding> &findings)
{
    const Finding *first = nullptr;
    size_t count = 0;
    for (const Finding &f : findings)
        if (Finding::isCapture(f.rule)) {
            first = first ? first : &f;
            ++count;
        }
    if (!first)
        return "ok";
    std::string v = first->title + " (" + first->rule + ")";
    if (count > 1)
        v += "; " + std::to_string(count - 1) + " more";
    return v;
}

} // namespace lanescope
