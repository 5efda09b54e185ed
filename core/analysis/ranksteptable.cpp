#include "ranksteptable.h"

#include "model/trace.h"
#include "optable.h"
#include "rankfilter.h"
#include "stepstatistics.h"

#include <algorithm>
#include <map>

namespace lanescope {

RankStepTable::Result RankStepTable::compute(const Trace &trace, const LaunchIndex &index, const Options &options)
{
    if (RankFilter::ranks(trace).empty())
        return {};
    OpTable::Options o;
    o.hasRange = options.hasRange;
    o.t0 = options.t0;
    o.t1 = options.t1;
    const OpTable::Result ops = OpTable::compute(trace, index, o);
    const auto row = std::find_if(ops.rows.begin(), ops.rows.end(), [](const OpTable::Row &r) { return r.name == "ProfilerStep*"; });
    return fromSteps(trace, row == ops.rows.end() ? std::vector<uint32_t>() : row->occurrences);
}

RankStepTable::Result RankStepTable::fromSteps(const Trace &trace, const std::vector<uint32_t> &steps)
{
    Result result;
    std::map<int64_t, Row> byRank;
    for (int64_t r : RankFilter::ranks(trace))
        byRank[r].rank = r;
    if (byRank.empty())
        return result;
    for (uint32_t s : steps) {
        const int64_t r = RankFilter::rankOfTrack(trace, trace.trackOfSlice(SliceId(s)));
        if (r >= 0)
            byRank[r].stepSlices.push_back(s);
    }
    std::vector<int64_t> medians;
    for (auto &[rank, row] : byRank) {
        std::sort(row.stepSlices.begin(), row.stepSlices.end(), [&](uint32_t a, uint32_t b) {
            const int64_t x = trace.slice(SliceId(a)).start, y = trace.slice(SliceId(b)).start;
            return x != y ? x < y : a < b;
        });
        const StepStatistics::Summary st = StepStatistics::summarize(StepStatistics::durations(trace, row.stepSlices));
        row.steps = st.count;
        if (st.count == 0)
            continue;
        row.median = st.median;
        row.p90 = st.p90;
        row.slowest = st.slowest;
        row.slowestStep = row.stepSlices[st.slowestIndex];
        medians.push_back(row.median);
    }
    result.medianOfRanks = StepStatistics::median(medians);
    for (auto &[rank, row] : byRank) {
        if (row.steps > 0 && result.medianOfRanks > 0) {
            row.ratio = double(row.median) / double(result.medianOfRanks);
            row.straggler = medians.size() >= 2 && row.ratio > kStragglerRatio;
        }
        result.rows.push_back(std::move(row));
    }
    return result;
}

} // namespace lanescope
