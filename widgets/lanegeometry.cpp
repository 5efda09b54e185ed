#include "lanegeometry.h"

#include "depthindex.h"
#include "model/trace.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace lanescope {

namespace {

// Keep coordinates of slices reaching far outside the view small and finite.
float clampX(double x, double width)
{
    return float(std::clamp(x, -2.0, width + 2.0));
}

} // namespace

void LaneGeometry::clear()
{
    valid = false;
    slices.clear();
    instants.clear();
    counter.clear();
    counterEndX = 0;
}

void LaneGeometry::build(const Trace &trace, const DepthIndex &index, TrackId track, const Viewport &vp)
{
    clear();
    valid = true;
    if (vp.t1 <= vp.t0 || vp.width <= 0)
        return;
    buildSlices(trace, index, track, vp);
    buildInstants(trace, track, vp);
    buildCounter(trace, track, vp);
}

void LaneGeometry::buildSlices(const Trace &trace, const DepthIndex &index, TrackId track, const Viewport &vp)
{
    const auto all = trace.allSlices();
    const int depths = index.depthCount(track);
    const double px = vp.pxPerNs();
    for (int d = 0; d < depths; ++d) {
        const auto ids = index.slices(track, d);
        const auto [first, last] = index.range(track, d, vp.t0, vp.t1);
        SliceItem pending;
        bool hasPending = false;
        int64_t pendingLongest = -1;
        const auto flush = [&] {
            if (!hasPending)
                return;
            pending.x1 = std::max(pending.x1, pending.x0 + float(kMinSliceWidth));
            slices.push_back(pending);
            hasPending = false;
        };
        const auto consider = [&](uint32_t id) {
            if (all[id].duration > pendingLongest) {
                pendingLongest = all[id].duration;
                pending.slice = id;
            }
        };
        for (size_t i = first; i < last; ++i) {
            const uint32_t id = ids[i];
            const Slice &s = all[id];
            const double x0 = vp.toX(s.start);
            const double x1 = vp.toX(s.end());
            if (x1 - x0 >= kMinSliceWidth) {
                flush();
                slices.push_back(SliceItem{clampX(x0, vp.width), clampX(x1, vp.width), id, 1, uint16_t(d)});
                continue;
            }
            if (hasPending && x0 <= double(pending.x1) + kMinSliceWidth) {
                pending.x1 = std::max(pending.x1, clampX(x1, vp.width));
                ++pending.count;
                consider(id);
            } else {
                flush();
                pending = SliceItem{clampX(x0, vp.width), clampX(x1, vp.width), id, 1, uint16_t(d)};
                pendingLongest = s.duration;
                hasPending = true;
            }
            // Level of detail: every following slice that ends within the current pixel column is
            // sub-pixel and joins this run, so jump over them with one binary search on the ends
            // (sorted within a depth) instead of visiting each. Cost: O(columns x log n) per depth.
            const double boundaryX = std::floor(double(pending.x1)) + 1.0;
            if (boundaryX >= vp.width)
                continue;
            const int64_t boundary = vp.t0 + int64_t(boundaryX / px);
            const auto next = std::lower_bound(ids.begin() + ptrdiff_t(i) + 1, ids.begin() + ptrdiff_t(last), boundary,
                                               [&](uint32_t a, int64_t v) { return all[a].end() <= v; });
            const size_t j = size_t(next - ids.begin()); // first slice ending after the boundary
            if (j > i + 1) {
                const size_t skipped = j - i - 1;
                pending.count += uint32_t(skipped);
                pending.x1 = std::max(pending.x1, clampX(vp.toX(all[ids[j - 1]].end()), vp.width));
                // The run takes the colour of its longest member among a bounded sample.
                const size_t stride = std::max<size_t>(1, skipped / 16);
                for (size_t k = i + 1; k < j; k += stride)
                    consider(ids[k]);
                consider(ids[j - 1]);
                i = j - 1;
            }
        }
        flush();
    }
}

void LaneGeometry::buildInstants(const Trace &trace, TrackId track, const Viewport &vp)
{
    const auto all = trace.instants(track);
    if (all.empty())
        return;
    const uint32_t base = uint32_t(all.data() - trace.allInstants().data());
    auto first = std::lower_bound(all.begin(), all.end(), vp.t0, [](const Instant &a, int64_t v) { return a.ts < v; });
    auto last = std::upper_bound(first, all.end(), vp.t1, [](int64_t v, const Instant &a) { return v < a.ts; });
    for (auto it = first; it != last; ++it) {
        const float x = float(vp.toX(it->ts));
        if (!instants.empty() && x - instants.back().x < float(kInstantMergeDistance)) {
            ++instants.back().count;
            continue;
        }
        instants.push_back(InstantItem{x, base + uint32_t(it - all.begin()), 1});
    }
}

void LaneGeometry::buildCounter(const Trace &trace, TrackId track, const Viewport &vp)
{
    const auto samples = trace.counterSamples(track);
    if (samples.empty())
        return;
    // The sample in effect at t0 is the last one at or before it.
    auto it = std::upper_bound(samples.begin(), samples.end(), vp.t0,
                               [](int64_t v, const CounterSample &s) { return v < s.ts; });
    if (it != samples.begin())
        --it;
    long long column = LLONG_MIN;
    float columnX = 0;
    double columnMax = 0, columnLast = 0;
    const auto flush = [&] {
        if (column == LLONG_MIN)
            return;
        counter.push_back(CounterStep{columnX, columnMax});
        if (columnLast != columnMax)
            counter.push_back(CounterStep{float(column + 1), columnLast});
    };
    // Per pixel column, the highest value is drawn, then the column's last value carries on.
    for (; it != samples.end() && it->ts <= vp.t1; ++it) {
        const float x = clampX(vp.toX(it->ts), vp.width);
        const long long c = std::llround(std::floor(double(x)));
        if (c != column) {
            flush();
            column = c;
            columnX = x;
            columnMax = columnLast = it->value;
        } else {
            columnMax = std::max(columnMax, it->value);
            columnLast = it->value;
        }
    }
    flush();
    counterEndX = clampX(vp.toX(trace.endNs()), vp.width);
}

} // namespace lanescope
