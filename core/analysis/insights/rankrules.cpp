#include "rankrules.h"

#include "analysis/ranksteptable.h"
#include "insightcontext.h"
#include "insighttext.h"
#include "model/saturating.h"

#include <algorithm>
#include <cstdio>

namespace lanescope {

namespace {

std::string ratioText(double r)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", r);
    return buf;
}

} // namespace

void RankRules::straggler(InsightContext &ctx, std::vector<Finding> &out)
{
    for (Finding &f : stragglerFindings(RankStepTable::fromSteps(ctx.trace(), ctx.steps()), ctx.spanNs(), true))
        out.push_back(std::move(f));
}

std::vector<Finding> RankRules::stragglerFindings(const RankStepTable::Result &table, int64_t spanNs, bool withEvents)
{
    std::vector<Finding> out;
    if (table.medianOfRanks <= 0)
        return out;
    // The ranks' medians, the first kListed of them (a job of hundreds of ranks would fill pages).
    constexpr size_t kListed = 16;
    std::string perRank;
    size_t listed = 0, withSteps = 0;
    for (const RankStepTable::Row &r : table.rows)
        if (r.steps > 0 && withSteps++ < kListed) {
            perRank += (perRank.empty() ? "" : ", ") + ("rank " + std::to_string(r.rank) + " " + insighttext::ns(r.median));
            ++listed;
        }
    if (withSteps > listed)
        perRank += " and " + std::to_string(withSteps - listed) + " more ranks";
    for (const RankStepTable::Row &r : table.rows) {
        if (!r.straggler)
            continue;
        Finding f;
        f.rule = "straggler-rank"; // the registry stamps it too; a job overview has no registry
        f.title = "Rank " + std::to_string(r.rank) + " is a straggler: its median step takes " + insighttext::ns(r.median) + ", " +
                  ratioText(r.ratio) + " x the median of ranks (" + insighttext::ns(table.medianOfRanks) + ")";
        f.detail = "Rank " + std::to_string(r.rank) + ": " + std::to_string(r.steps) + " steps, median " + insighttext::ns(r.median) +
                   ", p90 " + insighttext::ns(r.p90) + ", slowest " + r.slowestStepName + " " + insighttext::ns(r.slowest) +
                   "; median step per rank: " + perRank + "; median of ranks " + insighttext::ns(table.medianOfRanks);
        f.action = "Find what rank " + std::to_string(r.rank) +
                   " does differently (compare its slowest step with the same step on another rank): uneven data or "
                   "sequence lengths, a slower input pipeline, host or device, or extra work on that rank; every "
                   "collective makes the other ranks wait for it";
        f.value = r.ratio;
        f.threshold = RankStepTable::kStragglerRatio;
        f.recoverableNs = saturatingMul(r.median - table.medianOfRanks, int64_t(r.steps));
        f.severity = Finding::severityForShare(*f.recoverableNs, spanNs);
        std::vector<RankStepTable::Step> slowest = r.stepList;
        std::stable_sort(slowest.begin(), slowest.end(),
                         [](const RankStepTable::Step &a, const RankStepTable::Step &b) { return a.duration > b.duration; });
        for (const RankStepTable::Step &s : slowest) {
            if (withEvents)
                f.addEvent(s.id);
            f.addRange(s.start, s.start + s.duration);
        }
        out.push_back(std::move(f));
    }
    return out;
}

} // namespace lanescope
