#include "insights.h"

#include "findingsource.h"

#include "analysis/launchindex.h"
#include "insightcontext.h"
#include "ruleregistry.h"

#include <algorithm>

namespace lanescope {

Insights::Result Insights::run(const Trace &trace, const LaunchIndex &index, const Options &options)
{
    InsightContext::Range range;
    range.has = options.hasRange;
    range.t0 = options.t0;
    range.t1 = options.t1;
    InsightContext ctx(trace, index, range, options.cost);
    Result r;
    r.metrics = KeyMetrics::compute(ctx);
    const RuleRegistry &rules = options.rules ? *options.rules : RuleRegistry::defaults();
    for (const auto &rule : rules.rules())
        rule->evaluate(ctx, r.findings);
    r.findings.erase(std::remove_if(r.findings.begin(), r.findings.end(),
                                    [&](const Finding &f) { return f.severity < options.minSeverity; }),
                     r.findings.end());
    FindingSource::attach(trace, index, r.findings);
    Finding::rank(r.findings);
    return r;
}

Insights::Result Insights::run(const Trace &trace, const Options &options)
{
    const LaunchIndex index = LaunchIndex::build(trace);
    return run(trace, index, options);
}

} // namespace lanescope
