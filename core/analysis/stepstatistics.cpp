#include "stepstatistics.h"

#include "model/trace.h"

#include <algorithm>

namespace lanescope {

std::vector<int64_t> StepStatistics::durations(const Trace &trace, const std::vector<uint32_t> &slices)
{
    std::vector<int64_t> d;
    d.reserve(slices.size());
    for (uint32_t s : slices)
        d.push_back(trace.slice(SliceId(s)).duration);
    return d;
}

StepStatistics::Summary StepStatistics::summarize(const std::vector<int64_t> &durations)
{
    Summary s;
    s.count = durations.size();
    if (durations.empty())
        return s;
    const auto slowest = std::max_element(durations.begin(), durations.end());
    s.slowest = *slowest;
    s.slowestIndex = size_t(slowest - durations.begin());
    s.median = median(durations);
    s.p90 = percentile(durations, 0.9);
    return s;
}

int64_t StepStatistics::median(std::vector<int64_t> v)
{
    if (v.empty())
        return 0;
    const auto at = v.begin() + ptrdiff_t((v.size() - 1) / 2);
    std::nth_element(v.begin(), at, v.end()); // the sorted order's element, in linear time
    return *at;
}

int64_t StepStatistics::percentile(std::vector<int64_t> v, double p)
{
    if (v.empty())
        return 0;
    const double rank = std::clamp(p, 0.0, 1.0) * double(v.size());
    const size_t at = std::min(rank <= 1.0 ? 0 : size_t(rank + 0.999999) - 1, v.size() - 1);
    std::nth_element(v.begin(), v.begin() + ptrdiff_t(at), v.end());
    return v[at];
}

} // namespace lanescope
