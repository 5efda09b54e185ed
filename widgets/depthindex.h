#pragma once
// Per track and depth, the slices of that depth in time order. Within one depth slices never
// overlap (the builder's stack puts an overlapping slice one level deeper), so both their starts
// and their ends are sorted and a visible-range query is two binary searches per depth: O(log n)
// even when a single slice spans the whole trace, where Trace::sliceRange (which starts at
// t0 - maxDuration) would walk every slice before t0. Costs 4 bytes per slice.
#include "model/ids.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;

class DepthIndex
{
public:
    void build(const Trace *trace);
    void clear();

    // Number of depths of the track (maxDepth + 1, or 0 when it has no slices).
    int depthCount(TrackId track) const;
    // Global slice ids (SliceId values) of one depth, in time order.
    std::span<const uint32_t> slices(TrackId track, int depth) const;
    // [first, last) positions in slices(track, depth) of slices that overlap [t0, t1]
    // (end > t0 or, for zero-length slices, end >= t0; start <= t1).
    std::pair<size_t, size_t> range(TrackId track, int depth, int64_t t0, int64_t t1) const;
    // The slice of that depth containing t, else the nearest one within `tolerance` ns, else invalid.
    SliceId sliceAt(TrackId track, int depth, int64_t t, int64_t tolerance) const;

private:
    const Trace *m_trace = nullptr;
    std::vector<uint32_t> m_entries;         // slice ids grouped by track, then depth
    std::vector<uint32_t> m_depthOffsets;    // per (track, depth): begin in m_entries; one extra per track
    std::vector<uint32_t> m_trackFirstDepth; // per track: begin in m_depthOffsets
};

} // namespace lanescope
