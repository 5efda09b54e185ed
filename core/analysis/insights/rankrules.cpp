#include "rankrules.h"

#include "analysis/ranksteptable.h"
#include "insightcontext.h"
#include "insighttext.h"
#include "model/trace.h"

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
    const Trace &trace = ctx.trace();
    const RankStepTable::Result table = RankStepTable::fromSteps(trace, ctx.steps());
    if (table.medianOfRanks <= 0)
        return;
    std::string perRank;
    for (const RankStepTable::Row &r : table.rows)
        if (r.steps > 0)
            perRank += (perRank.empty() ? "" : ", ") + ("rank " + std::to_string(r.rank) + " " + insighttext::ns(r.median));
    for (const RankStepTable::Row &r : table.rows) {
        if (!r.straggler)
            continue;
        Finding f;
        f.title = "Rank " + std::to_string(r.rank) + " is a straggler: its median step takes " + insighttext::ns(r.median) + ", " +
                  ratioText(r.ratio) + " x the median of ranks (" + insighttext::ns(table.medianOfRanks) + ")";
        f.detail = "Rank " + std::to_string(r.rank) + ": " + std::to_string(r.steps) + " steps, median " + insighttext::ns(r.median) +
                   ", p90 " + insighttext::ns(r.p90) + ", slowest " + std::string(trace.str(trace.slice(SliceId(r.slowestStep)).name)) + " " +
                   insighttext::ns(r.slowest) + "; median step per rank: " + perRank + "; median of ranks " +
                   insighttext::ns(table.medianOfRanks);
        f.action = "Find what rank " + std::to_string(r.rank) +
                   " does differently (compare its slowest step with the same step on another rank): uneven data or "
                   "sequence lengths, a slower input pipeline, host or device, or extra work on that rank; every "
                   "collective makes the other ranks wait for it";
        f.value = r.ratio;
        f.threshold = RankStepTable::kStragglerRatio;
        f.recoverableNs = (r.median - table.medianOfRanks) * int64_t(r.steps);
        f.severity = Finding::severityForShare(*f.recoverableNs, ctx.spanNs());
        std::vector<uint32_t> slowest = r.stepSlices;
        std::stable_sort(slowest.begin(), slowest.end(), [&](uint32_t a, uint32_t b) {
            return trace.slice(SliceId(a)).duration > trace.slice(SliceId(b)).duration;
        });
        for (uint32_t s : slowest)
            f.addSlice(trace, s);
        out.push_back(std::move(f));
    }
}

} // namespace lanescope
