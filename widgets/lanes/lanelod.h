#pragma once
// One lane's level-of-detail items for one zoom level, in time (ns) instead of pixels, kept across
// frames. Levels are quarter octaves of ns per pixel: level L has a bucket b = 2^(L/4) ns, between
// 0.84 and 1 pixel. Runs of slices shorter than 2b (the house's "~2 px") with gaps under the next
// level's bucket (1 to 1.19 pixels; LaneGeometry closes gaps under a pixel) become one item (count, end, longest member). Any viewport of the same level
// (a zoom change under 19 %) whose range lies inside the built range maps
// these items to pixels in O(visible items), without touching the DepthIndex: panning, a range that
// moves by a few ns, and every repaint at whole-trace zoom reuse them. Built for the visible range and
// one visible span either side, so a pan of up to a screen reuses it too. A lane with many slices in
// that range has its depths built on all cores (they are independent; the trace and index only read).
#include "lanegeometry.h"

#include "model/ids.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace lanescope {

class DepthIndex;
class Trace;

class LaneLod
{
public:
    // The level for a viewport, or -1 below one ns per pixel (there LaneGeometry builds exactly).
    static constexpr int kStepsPerOctave = 4;
    // From this many slices in the built range, the depths are built in parallel (below, a thread
    // costs more than it saves).
    static constexpr size_t kParallelSlices = 200'000;
    static int levelFor(const LaneGeometry::Viewport &vp);
    static int64_t bucketOf(int level); // ns

    bool covers(TrackId track, int level, int64_t t0, int64_t t1) const;
    // `parallelFrom`: the slices in range from which depths are built in parallel (tests compare both ways).
    void build(const Trace &trace, const DepthIndex &index, TrackId track, int level, int64_t from, int64_t to,
               size_t parallelFrom = kParallelSlices);
    // The items overlapping the viewport, as LaneGeometry::slices (by depth, then time).
    void map(const LaneGeometry::Viewport &vp, std::vector<LaneGeometry::SliceItem> &out) const;
    void clear();
    size_t itemCount() const { return m_items.size(); }

private:
    struct Item;
    // Depth d's items, in time order: its slices [range.first, range.second) in the track being built.
    void buildDepth(const Trace &trace, const DepthIndex &index, int d, std::pair<size_t, size_t> range, int64_t fold, int64_t gap,
                    std::vector<Item> &out) const;
    struct Item
    {
        int64_t start = 0;
        int64_t end = 0;
        uint32_t slice = 0; // the slice, or a run's longest member
        uint32_t count = 1; // > 1: a folded run
        uint32_t name = 0;  // StringId values of `slice`'s name and category
        uint32_t category = 0;
    };
    bool m_valid = false;
    TrackId m_track;
    int m_level = -1;
    int64_t m_from = 0, m_to = 0;
    std::vector<Item> m_items;          // by depth, then time
    std::vector<uint32_t> m_depthBegin; // per depth: first item; one extra at the end
};

} // namespace lanescope
