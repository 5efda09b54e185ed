#include "steprules.h"

#include "analysis/stepstatistics.h"
#include "insightcontext.h"
#include "insighttext.h"
#include "model/trace.h"

#include <algorithm>

namespace lanescope {

namespace {

std::string stepsSummary(InsightContext &ctx, const std::vector<int64_t> &d)
{
    const OpTable::Row *row = ctx.opRow("ProfilerStep*");
    const StepStatistics::Summary s = StepStatistics::summarize(d);
    return std::to_string(row ? row->calls : d.size()) + " steps, " + insighttext::ns(row ? row->cpuTotal : 0) +
           " in total (op table ProfilerStep*), median " + insighttext::ns(s.median) + ", p90 " + insighttext::ns(s.p90) + ", slowest " +
           insighttext::ns(row ? row->cpuMax : s.slowest);
}

} // namespace

void StepRules::warmup(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kWarmupRatio = 1.5;
    const Trace &trace = ctx.trace();
    const std::vector<uint32_t> steps = ctx.steps();
    if (steps.size() < StepRules::kMinSteps)
        return;
    const std::vector<int64_t> d = StepStatistics::durations(trace, steps);
    const int64_t rest = StepStatistics::median(std::vector<int64_t>(d.begin() + 1, d.end()));
    if (rest <= 0 || double(d.front()) < kWarmupRatio * double(rest))
        return;
    const Slice &first = trace.slice(SliceId(steps.front()));
    Finding f;
    f.title = "The first step (" + std::string(trace.str(first.name)) + ") takes " + insighttext::ns(d.front()) + ", " +
              std::to_string(double(d.front()) / double(rest)).substr(0, 4) + " x the other steps' median";
    f.detail = stepsSummary(ctx, d) + "; first step " + insighttext::ns(d.front()) + " vs median of the others " + insighttext::ns(rest);
    f.action = "Leave warm-up out of the measurement: torch.profiler.schedule(wait=1, warmup=1, active=N), or run a few "
               "iterations before profiling (compilation, caching allocator, lazy init)";
    f.value = double(d.front()) / double(rest);
    f.threshold = kWarmupRatio;
    f.recoverableNs = d.front() - rest;
    f.severity = Severity::Low; // a measurement artefact more than lost time in production
    f.addSlice(trace, steps.front());
    out.push_back(std::move(f));
}

void StepRules::outlier(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kOutlierRatio = 1.5;
    const Trace &trace = ctx.trace();
    const std::vector<uint32_t> steps = ctx.steps();
    if (steps.size() < StepRules::kMinSteps)
        return;
    const std::vector<int64_t> d = StepStatistics::durations(trace, steps);
    const int64_t med = StepStatistics::median(d);
    if (med <= 0)
        return;
    std::vector<size_t> slow; // later steps only: the first one is step-warmup's
    int64_t excess = 0;
    for (size_t i = 1; i < d.size(); ++i)
        if (double(d[i]) >= kOutlierRatio * double(med)) {
            slow.push_back(i);
            excess += d[i] - med;
        }
    if (slow.empty())
        return;
    std::sort(slow.begin(), slow.end(), [&](size_t a, size_t b) { return d[a] > d[b]; });
    Finding f;
    f.title = std::to_string(slow.size()) + " step(s) take >= " + std::to_string(kOutlierRatio).substr(0, 3) + " x the median step";
    std::vector<std::string> names;
    for (size_t i = 0; i < slow.size() && i < 5; ++i)
        names.push_back(std::string(trace.str(trace.slice(SliceId(steps[slow[i]])).name)) + " " + insighttext::ns(d[slow[i]]));
    f.detail = stepsSummary(ctx, d) + "; slow: " + insighttext::join(names, ", ");
    f.action = "Compare a slow step with a median one (select both, Range Summary / diff): data loading, garbage "
               "collection, recompilation or a collective waiting for a straggler";
    f.value = double(d[slow.front()]) / double(med);
    f.threshold = kOutlierRatio;
    f.recoverableNs = excess;
    f.severity = Finding::severityForShare(excess, ctx.rankTimeNs()); // the steps of every rank: the ranks' time
    for (size_t i : slow)
        f.addSlice(trace, steps[i]);
    out.push_back(std::move(f));
}

} // namespace lanescope
