#pragma once
// Per track and depth, the slices of that depth in time order. Within one depth both their starts
// and their ends are sorted (slices of one depth follow each other; one that starts inside another
// and outlives it is placed beside it, so it also ends after it), and a visible-range query is two
// binary searches per depth: O(log n)
// even when a single slice spans the whole trace, where Trace::sliceRange (which starts at
// t0 - maxDuration) would walk every slice before t0. Costs 4 bytes per slice.
//
// On top, a multi-resolution summary for level of detail (Perfetto's mipmap, Tracy's folding):
// levels of 16^k consecutive entries of one depth keep their first start, last end, largest
// inner gap and longest member. A run of sub-pixel slices with sub-pixel gaps is then consumed a
// whole group at a time, so a frame reads a few summaries per folded run instead of every slice
// (or every pixel column) under it. Costs about 2.7 bytes per slice.
//
// The arrays (DepthTables) belong to the trace: built once on first use (Trace::depthTables), kept in
// the trace cache's model file beside the slices and viewed in place on reopen, so a reopened trace
// draws its first frame without walking its slices. DepthIndex is the queries over them.
#include "column.h"
#include "ids.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;

// One summary of 16^k consecutive entries (see above). A plain record: the model file keeps it as is.
struct DepthNode
{
    int64_t firstStart = 0;
    int64_t lastEnd = 0;
    int64_t maxGap = 0; // largest start - previous end between consecutive members
    int64_t longestDuration = -1;
    uint32_t longest = 0; // SliceId value
    uint32_t reserved = 0;
};

struct DepthTables
{
    static constexpr int kFanoutBits = 4; // 16 entries per group

    Column<uint32_t> entries;         // slice ids grouped by track, then depth
    Column<uint32_t> depthOffsets;    // per (track, depth): begin in entries; one extra per track
    Column<uint32_t> trackFirstDepth; // per track: begin in depthOffsets; one extra at the end
    Column<DepthNode> nodes;          // level 1 (groups of 16 entries), then level 2 (256), ...

    static DepthTables build(const Trace &trace);
    // Nodes of level k (1-based) over n entries: n / 16^k; the levels end at the first empty one.
    static std::vector<size_t> levelSizes(size_t entryCount);
    // Empty when these tables can serve `trace` (every size as build() makes it, every id and offset
    // in range, offsets ordered), else what does not fit. O(entries); for tables read from a file.
    std::string check(const Trace &trace) const;
    size_t bytes() const;
};

class DepthIndex
{
public:
    // Uses the trace's tables (Trace::depthTables: built on first use, or read from the cache).
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

    struct Run
    {
        size_t next = 0;      // first position not consumed
        uint32_t count = 0;   // slices consumed
        int64_t end = 0;      // end of the last consumed slice (the run's end when count is 0)
        uint32_t longest = 0; // SliceId value of the longest consumed slice (when count > 0)
        int64_t longestDuration = -1;
    };
    // From position `from` of slices(track, depth), consumes the slices before `last` that
    // continue a run ending at `runEnd`: each starts at most `maxGap` ns after the previous end and
    // lasts less than `maxDuration` ns. Exact (count, end and longest member), in O(levels x 16)
    // summary reads plus at most ~30 slice reads per call.
    Run consumeRun(TrackId track, int depth, size_t from, size_t last, int64_t runEnd, int64_t maxGap,
                   int64_t maxDuration) const;

    static constexpr int kFanoutBits = DepthTables::kFanoutBits;
    int levelCount() const { return int(m_levels.size()); }

private:
    const Trace *m_trace = nullptr;
    std::shared_ptr<const DepthTables> m_tables;
    std::vector<std::span<const DepthNode>> m_levels; // level k + 1: nodes over 16^(k+1) entries
};

} // namespace lanescope
