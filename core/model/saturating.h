#pragma once
// int64 time arithmetic that saturates instead of overflowing (undefined behaviour): readers see any
// int64 in hostile or corrupt files. TraceBuilder clamps the times it keeps to the trace range below;
// these keep the arithmetic before that defined.
#include <algorithm>
#include <cstdint>

namespace lanescope {

// The times a trace keeps (TraceBuilder clamps to them): [-2^60, 2^62 - 2^60] ns (1933..2079 as
// Unix-epoch ns), durations [0, 2^60] ns (36 years), so that start + duration, spans and differences of
// two times never overflow int64. The rank summaries' reader holds their times to the same range.
constexpr int64_t kTraceMinTime = -(int64_t(1) << 60);
constexpr int64_t kTraceMaxTime = (int64_t(1) << 62) - (int64_t(1) << 60);
constexpr int64_t kTraceMaxDuration = int64_t(1) << 60;

inline int64_t clampTraceTime(int64_t t) { return std::clamp(t, kTraceMinTime, kTraceMaxTime); }

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

inline int64_t saturatingMul(int64_t a, int64_t b)
{
    int64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? ((a < 0) != (b < 0) ? INT64_MIN : INT64_MAX) : r;
}

// ts + duration, a negative duration counting as 0.
inline int64_t saturatingEnd(int64_t ts, int64_t duration) { return saturatingAdd(ts, duration > 0 ? duration : 0); }

} // namespace lanescope
