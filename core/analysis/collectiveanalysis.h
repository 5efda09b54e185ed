#pragma once
// The collective communication of a trace in one result: CollectiveTable (every NCCL / RCCL
// instance, grouped), CommOverlap (computation / communication overlap per GPU and step) and
// CollectiveMatch (each collective matched across ranks: skew, last rank, lateness), computed in the
// order they depend on each other. `lanescope-cli collectives` and the Collectives dock both take it
// from here.
#include "collectivematch.h"
#include "collectivetable.h"
#include "commoverlap.h"

#include <vector>

namespace lanescope {

class LaunchIndex;
class Trace;

struct CollectiveAnalysis
{
    CollectiveTableResult table; // every rank
    CommOverlapResult overlap;
    CollectiveMatchResult match;

    static CollectiveAnalysis compute(const Trace &trace, const LaunchIndex &index);

    // The instances (indices into table.instances) of a row of table.rows / table.perRank.
    std::vector<uint32_t> instancesOf(const CollectiveRow &row) const;
    // The kernels (slice ids) of a matched collective, one per rank, by rank.
    std::vector<uint32_t> slicesOf(const MatchedCollective &m) const;
};

} // namespace lanescope
