#pragma once
// Tracks that are not threads of work: Kineto's profiler-window spans. Every Kineto trace ends with one
// complete event per profiler span, written by ChromeTraceLogger::handleTraceSpan under the string
// pid "Spans" ("Traces" before mid 2021), the span's name as tid and cat "Trace":
//   {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", ...}
// (also "__cupti_profiler__ (-1)", "MTIA Activity Trace (-1)"). The span covers the whole recording
// window, so counting it as a thread doubles the host time of a one-thread trace: the call tree
// leaves such tracks out of its host threads (CallTree::hostTracks). They stay on the timeline.
#include "model/ids.h"

namespace lanescope {

class Trace;

namespace profilerspans {

// True when `track` is a slice track of a process named "Spans" or "Traces" whose slices are all of
// category "Trace" (at least one).
bool isProfilerSpanTrack(const Trace &trace, TrackId track);

} // namespace profilerspans

} // namespace lanescope
