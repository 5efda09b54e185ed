#pragma once
// Chrome trace times are microseconds written as decimal text, often with a fraction
// ("1699999999123456.789"). Going through a double loses up to ±125 ns on epoch timestamps, so the
// digits are parsed straight into int64 nanoseconds.
#include <cstdint>
#include <string_view>

namespace lanescope {

class TimestampParser
{
public:
    // Parses a JSON number token (or the text of a string) in microseconds into nanoseconds.
    // Digits beyond nanosecond precision are truncated toward zero. Exponents are accepted.
    // Returns false for anything that is not a number or does not fit in int64 nanoseconds.
    static bool microsToNs(std::string_view text, int64_t &ns);
};

} // namespace lanescope
