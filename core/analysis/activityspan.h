#pragma once
// Where the work of a trace is: the span of its slices and instants. Counters sampled over a whole
// capture session (a Neuron capture's cpu_util.pb and host_mem.pb: 600 s around 16 ms of runtime
// calls) stretch the trace far beyond it; the window opens on this span instead of a sliver at 0 s.
#include <cstdint>
#include <optional>
#include <utility>

namespace lanescope {

class Trace;

namespace activityspan {

// [start, end] of every slice and instant, or nothing when the trace has neither.
std::optional<std::pair<int64_t, int64_t>> of(const Trace &trace);

// The range a view opens on: the activity span padded by 2 % on each side when it covers less than a
// tenth of the trace's range, else the whole range.
std::pair<int64_t, int64_t> initialView(const Trace &trace);

} // namespace activityspan

} // namespace lanescope
