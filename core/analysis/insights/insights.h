#pragma once
// Insights: key metrics and ranked findings for a loaded trace (any input), restricted to a time
// range when given. Runs every rule of a RuleRegistry (default: RuleRegistry::defaults()) over one
// InsightContext, so the tables are computed once. `lanescope-cli insights`, the findings section of
// `diff` and the GUI's Summary page call this.
#include "finding.h"
#include "keymetrics.h"

#include <cstdint>
#include <vector>

namespace lanescope {

class ExecutionCost;
class LaunchIndex;
class RuleRegistry;
class Trace;

class Insights
{
public:
    struct Options
    {
        bool hasRange = false;
        int64_t t0 = 0, t1 = 0; // ns on the trace clock (as `info` prints start_ns / end_ns)
        Severity minSeverity = Severity::Low;
        const RuleRegistry *rules = nullptr; // nullptr: RuleRegistry::defaults()
        // The trace's FLOPs and DMA bytes per NEFF execution when the caller holds them
        // (TraceAnalysis::executionCost); nullptr: the op table builds its own.
        const ExecutionCost *cost = nullptr;
    };

    struct Result
    {
        KeyMetrics metrics;
        std::vector<Finding> findings; // most severe first (Finding::rank)
    };

    static Result run(const Trace &trace, const LaunchIndex &index, const Options &options);
    static Result run(const Trace &trace, const Options &options); // builds the LaunchIndex
};

} // namespace lanescope
