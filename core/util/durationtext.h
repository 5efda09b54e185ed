#pragma once
// Nanoseconds as text, the one formatter of the CLI and the GUI (widgets/style/durationformat.h wraps it
// in QString). Two forms, each for one purpose:
//   format()  short human form, unit chosen by size, up to 3 decimals, zeros trimmed:
//             "15 ns", "12.5 µs", "1.234 ms", "2.5 s" (ruler, tooltips, details, GUI tables)
//   column()  aligned table-column form, exactly 3 decimals of us / ms / s, ASCII unit so that
//             printf widths (which count bytes) line up: "12.500 us", "3.000 ms" (CLI text tables)
// Integer arithmetic keeps every digit of large timestamps (a double has only 53 bits).
#include <cstdint>
#include <string>

namespace lanescope {

class DurationText
{
public:
    // Short human form: "15 ns", "1.234 ms", "2.5 s".
    static std::string format(int64_t ns);
    // Exact form that keeps every nanosecond: "1.234567 ms", "2.000000001 s".
    static std::string formatPrecise(int64_t ns);
    // `ns` in the given unit (1, 1000, 1e6 or 1e9 ns) with exactly `decimals` (0..9) decimals: "12.50 ms".
    static std::string formatInUnit(int64_t ns, int64_t unitNs, int decimals);
    // The unit suffix of 1, 1000, 1e6 or 1e9 ns: "ns", "µs", "ms", "s" (UTF-8).
    static const char *unitName(int64_t unitNs);
    // The largest of ns/µs/ms/s that is <= |ns| (ns for 0).
    static int64_t unitFor(int64_t ns);
    // Table-column form: "%.3f" of us below 1 ms, of ms below 1 s, of s above: "0.250 us", "12.500 us".
    static std::string column(double ns);
};

} // namespace lanescope
