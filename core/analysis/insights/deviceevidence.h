#pragma once
// What a device finding points at (docs/insights.md): the slices of the engine or DMA queue lanes
// it is about, inside the analysed window, as `events` (the longest first, at most
// Finding::kMaxEvents) and the sections they cover as `ranges` (their intervals merged across
// gaps shorter than kBridgePercent of the window, the longest first, at most kMaxEvents), so that
// "Show" selects them in the timeline.
#include "finding.h"
#include "model/ids.h"

#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;
struct Slice;
struct EngineBreakdownResult;

namespace DeviceEvidence {

constexpr double kBridgePercent = 0.5;

using Keep = std::function<bool(const Slice &)>;
using Ranges = std::vector<std::pair<int64_t, int64_t>>;

// Events and ranges from the slices on `tracks` inside the window of `e` that `keep` accepts.
// With `withRanges` false only the events are set (the caller knows the sections better).
void attach(Finding &f, const Trace &trace, const EngineBreakdownResult &e, std::span<const TrackId> tracks, const Keep &keep,
            bool withRanges = true);
// The `limit` longest of sorted, merged intervals, longest first.
Ranges longest(Ranges merged, size_t limit = Finding::kMaxEvents);

} // namespace DeviceEvidence

} // namespace lanescope
