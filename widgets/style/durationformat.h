#pragma once
// Nanoseconds as human text, shared by the ruler, the tooltips and the details view.
#include <QString>

#include <cstdint>

namespace lanescope {

class DurationFormat
{
public:
    // Short form with up to 3 decimals, trailing zeros trimmed: "15 ns", "1.234 ms", "2.5 s".
    static QString format(int64_t ns);
    // Exact form that keeps every nanosecond: "1.234567 ms", "2.000000001 s".
    static QString formatPrecise(int64_t ns);
    // `ns` in the given unit (1, 1000, 1e6 or 1e9 ns) with exactly `decimals` decimals: "12.50 ms".
    static QString formatInUnit(int64_t ns, int64_t unitNs, int decimals);
    // The unit suffix of 1, 1000, 1e6 or 1e9 ns: "ns", "µs", "ms", "s".
    static QString unitName(int64_t unitNs);
    // The largest of ns/µs/ms/s that is <= |ns| (ns for 0).
    static int64_t unitFor(int64_t ns);
};

} // namespace lanescope
