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
    std::map<int64_t, RankSteps> byRank;
    for (int64_t r : RankFilter::ranks(trace))
        byRank[r].rank = r;
    if (byRank.empty())
        return {};
    for (uint32_t s : steps) {
        const int64_t r = RankFilter::rankOfTrack(trace, trace.trackOfSlice(SliceId(s)));
        if (r < 0)
            continue;
        const Slice &slice = trace.slice(SliceId(s));
        byRank[r].steps.push_back({s, std::string(trace.str(slice.name)), slice.start, slice.duration});
    }
    std::vector<RankSteps> records;
    for (auto &[rank, r] : byRank)
        records.push_back(std::move(r));
    return fromRecords(records);
}

RankStepTable::Result RankStepTable::fromRecords(const std::vector<RankSteps> &ranks)
{
    Result result;
    std::map<int64_t, Row> byRank;
    for (const RankSteps &r : ranks) {
        Row &row = byRank[r.rank];
        row.rank = r.rank;
        row.stepList.insert(row.stepList.end(), r.steps.begin(), r.steps.end());
    }
    std::vector<int64_t> medians;
    for (auto &[rank, row] : byRank) {
        std::sort(row.stepList.begin(), row.stepList.end(), [](const Step &a, const Step &b) {
            return a.start != b.start ? a.start < b.start : a.id < b.id;
        });
        std::vector<int64_t> durations;
        for (const Step &s : row.stepList) {
            row.stepSlices.push_back(s.id);
            durations.push_back(s.duration);
        }
        const StepStatistics::Summary st = StepStatistics::summarize(durations);
        row.steps = st.count;
        if (st.count == 0)
            continue;
        row.median = st.median;
        row.p90 = st.p90;
        row.slowest = st.slowest;
        row.slowestStep = row.stepList[st.slowestIndex].id;
        row.slowestStepName = row.stepList[st.slowestIndex].name;
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
