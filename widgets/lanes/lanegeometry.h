#pragma once
// What one lane draws for one visible range and width, in pixels from the left of the lane. Built
// from binary searches over the visible range only, so its cost depends on what is visible, not on
// the trace size; runs of slices narrower than a pixel, with gaps under a pixel, fold into one item
// per depth (carrying the count and the longest member, whose colour it takes), consumed through
// DepthIndex's summary levels. The view caches one per lane and rebuilds
// it only when the range, the width or the data change.
#include "model/ids.h"

#include <cstdint>
#include <vector>

namespace lanescope {

class DepthIndex;
class Trace;

class LaneGeometry
{
public:
    struct Viewport
    {
        int64_t t0 = 0;
        int64_t t1 = 1;
        double width = 1; // px
        double pxPerNs() const { return t1 > t0 ? width / double(t1 - t0) : 0; }
        // Subtract in int64 first: absolute ns (~1e18) do not fit a double's 53 bits.
        double toX(int64_t t) const { return double(t - t0) * pxPerNs(); }
    };

    struct SliceItem
    {
        float x0 = 0, x1 = 0;
        uint32_t slice = 0; // SliceId value; for a merged run, its longest member
        uint32_t count = 1; // > 1: a merged run of sub-pixel slices
        uint16_t depth = 0;
        // StringId values of `slice`'s name and category: painting picks colours without reading
        // the slice records (a random access per item into the whole trace).
        uint32_t name = 0;
        uint32_t category = 0;
    };
    struct InstantItem
    {
        float x = 0;
        uint32_t instant = 0; // index into Trace::allInstants()
        uint32_t count = 1;
    };
    struct CounterStep
    {
        float x = 0;
        double value = 0; // holds from x to the next step (the last one to counterEndX)
    };

    static constexpr double kMinSliceWidth = 1.0;        // px: narrower slices are merged
    static constexpr double kInstantMergeDistance = 6.0; // px: about one marker

    void build(const Trace &trace, const DepthIndex &index, TrackId track, const Viewport &vp);
    // The instants and the counter only, leaving `slices` empty for the caller to fill (LaneCache maps
    // them from a LaneLod from one ns per pixel up); false when the viewport is empty.
    bool buildAllButSlices(const Trace &trace, TrackId track, const Viewport &vp);
    void clear();

    bool valid = false;
    std::vector<SliceItem> slices; // by depth, then time
    std::vector<InstantItem> instants;
    std::vector<CounterStep> counter;
    float counterEndX = 0;

private:
    void buildSlices(const Trace &trace, const DepthIndex &index, TrackId track, const Viewport &vp);
    void buildInstants(const Trace &trace, TrackId track, const Viewport &vp);
    void buildCounter(const Trace &trace, TrackId track, const Viewport &vp);
};

} // namespace lanescope
