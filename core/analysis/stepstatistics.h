#pragma once
// The step-time statistics every step consumer shares (the rank step table, the step and capture
// insight rules, key metrics): the durations of ProfilerStep# occurrences and their median, p90 and
// slowest, computed one way.
//   median    the lower middle for an even count (PyTorch's tables do not round)
//   p90       nearest rank: the value at rank ceil(0.9 * count)
//   slowest   the longest, and which occurrence it is
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lanescope {

class Trace;

class StepStatistics
{
public:
    struct Summary
    {
        uint64_t count = 0;
        int64_t median = 0, p90 = 0, slowest = 0;
        size_t slowestIndex = 0; // into the durations (the first of equal maxima)
    };

    // Durations of the given slices (slice ids), in the given order.
    static std::vector<int64_t> durations(const Trace &trace, const std::vector<uint32_t> &slices);
    static Summary summarize(const std::vector<int64_t> &durations);
    // 0 for no values.
    static int64_t median(std::vector<int64_t> values);
    // Nearest-rank percentile, p in [0, 1]; 0 for no values.
    static int64_t percentile(std::vector<int64_t> values, double p);
};

} // namespace lanescope
