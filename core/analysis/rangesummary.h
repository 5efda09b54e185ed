#pragma once
// What ran in a time range, per slice name: how many slices overlap [t0, t1], their total and self
// time clipped to the range (self = own clipped time minus the clipped time of direct children) and
// the average clipped duration. Shared by the timeline's range selection and the CLI.
#include "model/ids.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lanescope {

class Trace;

class RangeSummary
{
public:
    struct Row
    {
        StringId name;
        uint64_t count = 0;
        int64_t total = 0; // ns, clipped to the range
        int64_t self = 0;  // ns, clipped, children excluded
        double average() const { return count ? double(total) / double(count) : 0.0; }
    };

    // Slices on `tracks` (every track when empty) that overlap [t0, t1]: end > t0 and start < t1,
    // or, for zero-length slices, t0 <= start <= t1. Rows sorted by total time, longest first.
    static std::vector<Row> compute(const Trace &trace, int64_t t0, int64_t t1, std::span<const TrackId> tracks = {});
};

} // namespace lanescope
