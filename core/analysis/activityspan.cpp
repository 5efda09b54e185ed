#include "activityspan.h"

#include "model/saturating.h"
#include "model/trace.h"

#include <algorithm>

namespace lanescope::activityspan {

std::optional<std::pair<int64_t, int64_t>> of(const Trace &trace)
{
    std::optional<std::pair<int64_t, int64_t>> span;
    const auto add = [&span](int64_t start, int64_t end) {
        span = span ? std::make_pair(std::min(span->first, start), std::max(span->second, end)) : std::make_pair(start, end);
    };
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track &track = trace.tracks()[t];
        if (track.sliceCount) { // slices come sorted by start; the latest end is at most last start + longest
            const auto slices = trace.slices(TrackId(t));
            add(slices.front().start, saturatingEnd(slices.back().start, track.maxDuration));
        }
        if (track.instantCount) {
            const auto instants = trace.instants(TrackId(t));
            add(instants.front().ts, instants.back().ts);
        }
    }
    return span;
}

std::pair<int64_t, int64_t> initialView(const Trace &trace)
{
    const int64_t start = trace.startNs(), end = trace.endNs();
    const auto span = of(trace);
    if (!span || end <= start || span->second - span->first >= (end - start) / 10)
        return {start, end};
    const int64_t pad = std::max<int64_t>(1, (span->second - span->first) / 50);
    return {std::max(start, span->first - pad), std::min(end, saturatingEnd(span->second, pad))};
}

} // namespace lanescope::activityspan
