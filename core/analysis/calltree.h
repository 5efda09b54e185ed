#pragma once
// The call tree (issue 30, "from device time to the line of Python"): the nested slices of the host
// thread tracks (python_function frames, framework ops, runtime calls, user annotations), merged by
// their path of names, with the device work each subtree launched.
//
// Shape: node 0 is the root ("all"). Without mergeThreads its children are one node per thread track
// (name: Trace::trackPath, `track` set, calls 0) and the frames hang below them; with mergeThreads
// the frames of every thread merge directly below the root. A frame node's key is its parent node
// and its name, so one node is one path of names from the root. "ProfilerStep#N" folds into
// "ProfilerStep*" (OpTable::foldName) so that the steps merge.
//
// Recursion: Brendan Gregg's folded-stacks rule, nothing collapsed: a frame whose name already
// appears on its own path is still a new, deeper node (f -> f -> g is the path f;f;g), so the tree
// and its folded stacks are the same thing.
//
// Nesting: Slice::depth on one track, as the importer assigned it (TraceBuilder::computeDepths): a
// slice's parent is the innermost slice of its thread that contains it whole. A slice that starts
// inside another and outlives it (docs/diagnostics.md, "Slices overlap on one thread": Kineto's
// ProfilerStep#N starts inside the profiler's `step()` Python frame, record_function ranges inside
// `autograd/profiler.py: __enter__`) is placed beside it, under their common container; the one it
// outlives counts up to its start, and the overlap counts once, in the later slice (the one that
// holds everything starting there). Clipping the later slice to the earlier one instead would lose
// real time: on tracelens/xdit_sd35_rank0 the entire inference would count as 0. Siblings never
// overlap in what they count, so every time unit counts once per level:
//   total   sum of the occurrences' spans, clipped to the range; a thread's total is the union of
//           all its slices, clipped (so no node exceeds the thread's wall time)
//   self    total minus the children's totals; never negative (children are disjoint and inside)
//   calls   occurrences whose span meets the range (a zero-length one too); paths with none are
//           not in the tree
// Device time: the execution-level device work of LaunchIndex::work() (kernels, memcpy, memset,
// NEFF and driver executions, the work OpTable's device columns sum; instructions and DMA are inside
// those), each charged in full to the slice that launched it: its runtime call (Work::launcher), else
// its framework op (Work::op); work with neither is `unattributedDevice`.
//   deviceSelf  device work whose launching slice is an occurrence of this node
//   device      deviceSelf plus the children's device (the work launched beneath the node)
// With a range, work counts when its launching slice STARTS inside [t0, t1] (OpTable's rule: an
// occurrence launched it, wherever it ran); only launching slices on the selected tracks count.
//
// Tracks: a single track (Options::tracks), a rank (Options::rank, RankFilter), or all. With no track
// list the host tracks are taken: TrackKind::Slices tracks that hold no device work (GPU streams and
// NeuronCore lanes are not call stacks) and are not a profiler window (Kineto's "Spans" process,
// profilerspans.h: not a thread of work). One pass per track over its slices in start order with a
// stack; children are found through one hash map keyed by (parent node, name).
#include "launchindex.h"

#include "model/ids.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class Trace;

class CallTree
{
public:
    enum class Weight : uint8_t {
        Cpu,    // total time (inclusive); folded: self time per stack (the flame-graph convention)
        Self,   // self time; folded: the same as Cpu
        Device, // device time launched (inclusive); folded: deviceSelf per stack
    };

    struct Options
    {
        bool hasRange = false;
        int64_t t0 = 0, t1 = 0;      // ns, used when hasRange
        std::vector<TrackId> tracks; // these tracks only (any kind); empty: the host tracks
        int64_t rank = -1;           // a multi-rank trace: only this rank's tracks, -1 all
        bool mergeThreads = false;   // no per-thread level: the frames of all threads merge
        bool keepOccurrences = false; // fill Result::occurrences (the Flame Graph's click-to-timeline)
    };

    struct Node
    {
        std::string name;
        uint32_t parent = UINT32_MAX; // UINT32_MAX for the root
        uint32_t depth = 0;           // root 0
        TrackId track;                // thread nodes only
        uint64_t calls = 0;
        int64_t total = 0, self = 0;
        int64_t device = 0, deviceSelf = 0;
        std::vector<uint32_t> children; // by total (cpu) descending, then name

        int64_t weight(Weight w) const { return w == Weight::Device ? device : w == Weight::Self ? self : total; }
        // What one stack weighs in folded output.
        int64_t foldedWeight(Weight w) const { return w == Weight::Device ? deviceSelf : self; }
    };

    // One counted slice (an occurrence whose span met the range) and the node it counted in.
    struct Occurrence
    {
        SliceId slice;
        uint32_t node = 0;
    };

    struct Result
    {
        std::vector<Node> nodes; // nodes[0] the root; a parent before its children
        std::vector<Occurrence> occurrences; // with Options::keepOccurrences, in slice order per track
        int64_t unattributedDevice = 0; // execution-level work launched by no slice (in the range)
        uint64_t unattributedCount = 0;

        const Node &root() const { return nodes.front(); }
        // The path of names from the root's child down to `node`, joined by ';'.
        std::string path(uint32_t node) const;
        // The slices counted in `node` (empty without Options::keepOccurrences), in track then time order.
        std::vector<SliceId> occurrencesOf(uint32_t node) const;
    };

    static Result compute(const Trace &trace, const LaunchIndex &index, const Options &options);

    // The host tracks (see the header comment) of a trace.
    static std::vector<TrackId> hostTracks(const Trace &trace, const LaunchIndex &index);

    // Brendan Gregg's folded stacks: one line per node whose folded weight is positive,
    // "frame;frame;frame weight\n", the frames from the root's child down (the thread first unless
    // merged), weight an integer (ns). In a frame ';' becomes '|' and line breaks (CR, LF) become
    // spaces, so a line always splits back at ';' and at its last space.
    static std::string folded(const Result &result, Weight weight);
    static std::string foldedFrame(std::string_view name);

    static const char *weightName(Weight w); // "cpu", "self", "device"
    static bool weightFromName(std::string_view name, Weight &out);
};

} // namespace lanescope
