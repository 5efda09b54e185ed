#pragma once
// One collective matched across the ranks of a multi-rank job, and who arrived last
// (`lanescope-cli collectives` "skew", the Collectives dock's Skew tab, the late-arrival insight).
//
// Matching: a collective instance (a kernel of CollectiveTable) is keyed by its process group, the
// ProfilerStep#N that launched it (StepOfWork; the same number on every rank) and its position among
// that group's instances of that step on its rank (the sequence). The ranks of a process group are the
// ranks with any instance of it. A (group, step) whose instance count differs between those ranks, or a
// position whose kind or message size differs, is not matched: its instances count as unmatched and
// are never paired with another instance. Traces with fewer than two ranks match nothing.
//
// Per matched instance, on the common clock of the job (MultiRankLoader / RankClock):
//   skew     last entry - first entry (entry: the kernel's start on the GPU)
//   last     the rank that entered last
//   late     last entry - the median entry of the other ranks (the lower middle for an even count)
//   wait     per other rank: min(last entry - its entry, its kernel's duration): the time it spent
//            inside the collective before the last rank arrived; wait_ns is their sum, max_wait_ns
//            their largest
// Per rank: matched instances, how often it was last (skew > 0), the sum of its lateness there and of
// the waits it caused, its worst instance.
//
// The matching runs on plain instance records (match): a loaded multi-rank trace gives its
// CollectiveTable instances and their steps (compute), a folder of rank summaries each summary's
// instances on the job's clock (core/job/joboverview.h); both compute every number one way.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lanescope {

class Trace;
class LaunchIndex;
struct CollectiveTableResult;

struct MatchedCollective
{
    std::string processGroup, kind;
    std::optional<uint64_t> bytes;
    int64_t step = -1;     // ProfilerStep#N
    uint32_t sequence = 0; // position among the group's instances of the step
    std::vector<uint32_t> members; // indices into CollectiveTableResult::instances, by rank
    int64_t firstEntry = 0, lastEntry = 0;
    int64_t lastRank = -1;
    int64_t lateNs = 0, waitNs = 0, maxWaitNs = 0;
    int64_t skewNs() const { return lastEntry - firstEntry; }
};

struct RankLateness
{
    int64_t rank = 0;
    uint64_t matched = 0;  // instances of this rank that were matched
    uint64_t last = 0;     // of those, how often it entered last
    int64_t lateNs = 0;    // sum of its lateness where it was last
    int64_t causedWaitNs = 0; // sum of the others' waits where it was last
    int64_t maxLateNs = 0;
    int64_t worst = -1;    // index into matched of its largest lateness, -1 when never last
};

struct CollectiveMatchResult
{
    std::vector<MatchedCollective> matched; // in time order of first entry
    uint64_t unmatched = 0;                 // instances of a multi-rank trace in no match
    std::vector<RankLateness> ranks;        // by rank
};

struct CollectiveInstance;

class CollectiveMatch
{
public:
    static CollectiveMatchResult compute(const Trace &trace, const LaunchIndex &index, const CollectiveTableResult &collectives);
    // The matching of instances (each rank's in time order) with the step number of each (`steps[i]`
    // of instances[i], -1 when no step launched it); the members index `instances`.
    static CollectiveMatchResult match(const std::vector<CollectiveInstance> &instances, const std::vector<int64_t> &steps);
    // The matched collectives, most skewed first (equal skews in time order): what `collectives` and the
    // job overview list.
    static std::vector<const MatchedCollective *> mostSkewed(const CollectiveMatchResult &result);
    // The ProfilerStep# number of every instance of `collectives` (StepOfWork; -1 when none).
    static std::vector<int64_t> stepsOf(const Trace &trace, const LaunchIndex &index, const CollectiveTableResult &collectives);
    // The per-rank figures over the matched instances `counts` accepts (compute(): all of them, its
    // `ranks`; the late-arrival insight: those entering its window), by rank; every rank in
    // `listed` appears even without any.
    static std::vector<RankLateness> lateness(const std::vector<MatchedCollective> &matched, const std::vector<CollectiveInstance> &instances,
                                              const std::function<bool(const MatchedCollective &)> &counts,
                                              const std::vector<int64_t> &listed = {});
};

} // namespace lanescope
