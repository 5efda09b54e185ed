#pragma once
// The regions the Summary page can be restricted to (issue 17): the whole trace, each
// `ProfilerStep#N` and each NEFF / driver execution (execution-level device work of a NeuronCore),
// in time order. The step durations double as the Summary's step-time chart. Insights for a region
// are Insights::run with hasRange = true and [t0, t1], as `lanescope-cli insights --range` runs them.
#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

class LaunchIndex;
class Trace;

struct SummaryRegion
{
    enum class Kind : uint8_t { Whole, Step, Execution };
    Kind kind = Kind::Whole;
    std::string label; // "ProfilerStep#3", "neff_123 on NeuronCore 0 at +1.250 ms"
    int64_t t0 = 0, t1 = 0; // ns on the trace clock
};

class SummaryRegions
{
public:
    static constexpr size_t kMaxExecutions = 500; // the first ones; a region list is a menu, not a table

    // Whole trace first, then the steps by start, then the executions by start.
    static std::vector<SummaryRegion> list(const Trace &trace, const LaunchIndex &index);
    // The step regions of `regions` that start inside [t0, t1] (all of them without a range), as the
    // tables count occurrences; their durations are the step times.
    static std::vector<SummaryRegion> steps(const std::vector<SummaryRegion> &regions, bool hasRange, int64_t t0, int64_t t1);
};

} // namespace lanescope
