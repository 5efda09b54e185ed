#include "lanegeometry.h"

#include "model/trace.h"
#include "model/depthindex.h"

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

bool LaneGeometry::buildAllButSlices(const Trace &trace, TrackId track, const Viewport &vp)
{
    clear();
    valid = true;
    if (vp.t1 <= vp.t0 || vp.width <= 0)
        return false;
    buildInstants(trace, track, vp);
    buildCounter(trace, track, vp);
    return true;
}

void LaneGeometry::buildSlices(const Trace &trace, const DepthIndex &index, TrackId track, const Viewport &vp)
{
    const auto all = trace.allSlices();
    const int depths = index.depthCount(track);
    const double px = vp.pxPerNs();
    // A slice narrower than kMinSliceWidth joins the run before it when the gap between them is at
    // most kMinSliceWidth too; in ns (rounded down, so a run never swallows a visible slice).
    const int64_t minWidthNs = std::max<int64_t>(1, int64_t(std::ceil(kMinSliceWidth / px)));
    const int64_t maxGapNs = int64_t(kMinSliceWidth / px);
    for (int d = 0; d < depths; ++d) {
        const auto ids = index.slices(track, d);
        const auto [first, last] = index.range(track, d, vp.t0, vp.t1);
        for (size_t i = first; i < last; ++i) {
            const uint32_t id = ids[i];
            const Slice &s = all[id];
            const double x0 = vp.toX(s.start);
            const double x1 = vp.toX(s.end());
            if (x1 - x0 >= kMinSliceWidth || s.duration >= minWidthNs) {
                slices.push_back(SliceItem{clampX(x0, vp.width), clampX(x1, vp.width), id, 1, uint16_t(d),
                                           s.name.value, s.category.value});
                continue;
            }
            // Level of detail: this sub-pixel slice starts a run that takes every following slice
            // that is sub-pixel and at most a pixel away from the run; the depth index's summary
            // consumes them a group of 16^k at a time, keeping the count, the end and the longest.
            const DepthIndex::Run run = index.consumeRun(track, d, i + 1, last, s.end(), maxGapNs, minWidthNs);
            SliceItem item{clampX(x0, vp.width), clampX(x1, vp.width), id, 1 + run.count, uint16_t(d),
                           s.name.value, s.category.value};
            if (run.count) {
                item.x1 = clampX(vp.toX(run.end), vp.width);
                if (run.longestDuration > s.duration) {
                    item.slice = run.longest;
                    item.name = all[run.longest].name.value;
                    item.category = all[run.longest].category.value;
                }
            }
            item.x1 = std::max(item.x1, item.x0 + float(kMinSliceWidth));
            slices.push_back(item);
            i = run.next - 1;
        }
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
