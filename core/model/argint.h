#pragma once
// An event argument read as an integer, the one rule every reader of integer args uses (sort indexes,
// byte counts, correlation ids).
#include "argstore.h"
#include "util/textutil.h"

#include <cstdint>
#include <optional>

namespace lanescope {

// Int as it is, UInt saturated at INT64_MAX, Double truncated when it is a number inside int64's range
// (a file may hold NaN or 1e300, whose conversion is undefined); nothing for those and the other types.
inline std::optional<int64_t> argInt(const Arg &a)
{
    switch (a.type) {
    case ArgType::Int: return a.value.i;
    case ArgType::UInt: return a.value.u > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(a.value.u);
    case ArgType::Double:
        // -2^63 <= d < 2^63 (NaN fails both): what int64 holds after truncation
        if (a.value.d >= -0x1p63 && a.value.d < 0x1p63)
            return int64_t(a.value.d);
        return std::nullopt;
    default: return std::nullopt;
    }
}

// The same, and a String whose whole text is a decimal integer ("7", "-3"): producers that write
// numbers as strings (rocprof v1: every field), read as Perfetto reads them. `text` gives a StringId's text.
template <typename Text> std::optional<int64_t> argInt(const Arg &a, Text &&text)
{
    if (a.type != ArgType::String)
        return argInt(a);
    int64_t v = 0;
    if (text::parseInt(text::trim(text(a.stringValue())), v))
        return v;
    return std::nullopt;
}

} // namespace lanescope
