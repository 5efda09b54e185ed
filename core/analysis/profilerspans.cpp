#include "profilerspans.h"

#include "model/trace.h"

namespace lanescope::profilerspans {

bool isProfilerSpanTrack(const Trace &trace, TrackId track)
{
    if (!track.isValid() || track.value >= trace.tracks().size())
        return false;
    const Track &t = trace.track(track);
    if (t.kind != TrackKind::Slices || t.sliceCount == 0 || !t.group.isValid())
        return false;
    const std::string_view process = trace.str(trace.group(t.group).name);
    if (process != "Spans" && process != "Traces")
        return false;
    for (const Slice &s : trace.slices(track))
        if (trace.str(s.category) != "Trace")
            return false;
    return true;
}

} // namespace lanescope::profilerspans
