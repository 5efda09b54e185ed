#pragma once
// How the timeline arranges a trace's lanes beyond the trace's own groups, so that a real file opens
// on its device (issue 28). One computation for the GUI's layout, `--screenshot`'s "visible lane:"
// lines and the tests:
//
// - Device first: among sibling groups, those holding device work (GPU kernels and copies, NeuronCore
//   instructions, DMA, NEFF executions, or a Device / NeuronCore group) come before host processes.
// - Lane sets: a NeuronCore's DMA queue lanes (one per queue that moved a packet: up to 256) fold into
//   one set per queue kind (IO, weights, spill/reload, other; model/dmaqueuekind.h), each shown as one
//   summary row of DMA activity until expanded.
// - Groups of many counter lanes (a NeuronCore's semaphores: one lane per semaphore, 200+) start
//   collapsed to their summary row.
//
// A summary row shows activity(): when any of its lanes was busy (a slice ran, a counter changed).
#include "model/ids.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;

class LaneGrouping
{
public:
    struct LaneSet
    {
        GroupId group;              // the group whose lanes it folds
        std::string name;           // "DMA · IO queues"
        std::vector<TrackId> tracks; // in the trace's order
    };
    // [start, end) on the trace clock, sorted, disjoint.
    using Intervals = std::vector<std::pair<int64_t, int64_t>>;

    static LaneGrouping of(const Trace &trace);

    const std::vector<LaneSet> &sets() const { return m_sets; }
    // The set a track is shown in, or -1.
    int setOf(TrackId track) const;
    // Groups shown collapsed until the user expands them.
    const std::vector<GroupId> &collapsedByDefault() const { return m_collapsed; }
    // Whether the group or anything below it holds device work (sibling groups: these first).
    bool holdsDeviceWork(GroupId group) const;

    // When any of `tracks` was busy (slices; counter changes as instants), merged; gaps up to `mergeNs` closed.
    static Intervals activity(const Trace &trace, const std::vector<TrackId> &tracks, int64_t mergeNs = 0);

    // Sets of fewer lanes are not made (two DMA queues are two rows, not a set of two).
    static constexpr size_t kMinSetSize = 2;
    // A group with at least this many counter lanes and nothing else starts collapsed.
    static constexpr size_t kManyCounters = 8;

private:
    std::vector<LaneSet> m_sets;
    std::vector<int> m_setOfTrack;
    std::vector<GroupId> m_collapsed;
    std::vector<bool> m_device; // per group
};

} // namespace lanescope
