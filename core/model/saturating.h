#pragma once
// int64 time arithmetic that saturates instead of overflowing (undefined behaviour): readers see any
// int64 in hostile or corrupt files. TraceBuilder clamps the times it keeps; these keep the arithmetic
// before that defined.
#include <cstdint>

namespace lanescope {

inline int64_t saturatingAdd(int64_t a, int64_t b)
{
    int64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? (b > 0 ? INT64_MAX : INT64_MIN) : r;
}

inline int64_t saturatingSub(int64_t a, int64_t b)
{
    int64_t r = 0;
    return __builtin_sub_overflow(a, b, &r) ? (b < 0 ? INT64_MAX : INT64_MIN) : r;
}

// ts + duration, a negative duration counting as 0.
inline int64_t saturatingEnd(int64_t ts, int64_t duration) { return saturatingAdd(ts, duration > 0 ? duration : 0); }

} // namespace lanescope
