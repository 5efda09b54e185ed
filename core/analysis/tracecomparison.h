#pragma once
// Two or more profiles on one time axis: builds a combined Trace in which the lanes of every profile
// that play the same role face each other (A's lane, then B's matching lane right below it), and
// lanes without a partner are kept and marked "only in B". The combined trace is an ordinary Trace,
// so the timeline, search, details and range summary work on it unchanged.
//
// Alignment: every profile gets an offset so that its anchor lands on time 0 of the combined trace,
// plus a hand-set nudge. Anchors: the trace start, the start of the first `ProfilerStep#N` slice, the
// first slice or instant named like a marker, or one chosen slice per profile.
//
// Lane matching, in two passes:
//  1. by key: the group path and lane name with long numbers (pids, tids, hashes: 3+ digits) made
//     generic, so "python / thread 25738 (python)" meets "python / thread 25811 (python)"; the n-th
//     lane with a key meets the n-th lane with the same key in the other profile;
//  2. by role for what is left: threads with threads, GPU streams with streams, NeuronCore engines
//     with the engine of the same name, DMA queues with DMA queues, counters with counters, each in
//     order of slice count (busiest with busiest). This pairs an H100 trace with an MI300 trace of the
//     same model, whose stream numbers and thread names differ.
#include "model/ids.h"
#include "model/trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lanescope {

struct CompareAnchor
{
    enum class Kind : uint8_t {
        Start,  // trace start
        Step,   // start of the first slice named "ProfilerStep#<step>"
        Marker, // start of the first slice or instant whose name equals `marker`
        Slices, // the slice given per profile in `slices`
        Times,  // the time given per profile in `times` (each profile's own clock)
    };
    Kind kind = Kind::Start;
    int64_t step = 0;
    std::string marker;
    std::vector<SliceId> slices; // one per profile, for Kind::Slices
    std::vector<int64_t> times;  // one per profile, for Kind::Times
};

struct CompareOptions
{
    CompareAnchor anchor;
    std::vector<int64_t> nudgeNs; // per profile, added after alignment (missing entries are 0)
    std::vector<std::string> labels; // per profile; default "A", "B", "C", ...
};

// One lane of the combined trace and where it came from.
struct ComparedLane
{
    TrackId combined;        // track in the combined trace
    uint32_t profile = 0;    // index of the input profile
    TrackId source;          // track in that profile
    int32_t matchSet = -1;   // lanes with the same matchSet face each other; -1: no partner
    bool matchedByRole = false;
};

struct ComparisonResult
{
    std::shared_ptr<const Trace> combined;
    std::vector<int64_t> offsetsNs; // per profile: combined time = source time + offset
    std::vector<std::string> labels; // per profile
    std::vector<ComparedLane> lanes;
    uint32_t matchedSets = 0;   // number of lane sets with lanes from at least two profiles
    uint32_t unmatchedLanes = 0;
};

class TraceComparison
{
public:
    // Throws std::runtime_error naming the profile when an anchor is not found (e.g. no
    // ProfilerStep#3 in B) or when fewer than two profiles are given.
    static ComparisonResult build(const std::vector<std::shared_ptr<const Trace>> &profiles,
                                  const CompareOptions &options = {});

    // The time of the anchor in `trace`, or false when it does not occur there.
    static bool anchorTime(const Trace &trace, const CompareAnchor &anchor, size_t profileIndex, int64_t &ts);

    // Aligning at a pair of matching events: `combinedSlice` (a slice of the combined trace) is the
    // k-th slice with its name in its profile; the anchor is the k-th slice of that name in every
    // profile (Kind::Times, in each profile's own clock). False when a profile has fewer than k + 1.
    static bool matchingAnchor(const ComparisonResult &comparison, SliceId combinedSlice, CompareAnchor &anchor,
                               std::string *error = nullptr);

    // The matching key of a lane (pass 1 above) and its role (pass 2), exposed for tests.
    static std::string laneKey(const Trace &trace, TrackId track);
    static std::string laneRole(const Trace &trace, TrackId track);

    static std::string defaultLabel(size_t profileIndex);
};

} // namespace lanescope
