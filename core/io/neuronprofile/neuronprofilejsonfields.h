#pragma once
// Reading one field of a neuron-profile JSON row with simdjson On-Demand (NeuronProfileJsonParser): a
// string, an integer written as a number or a decimal string ("12") within a range, and the first
// string of nested arrays ("source": [["WEIGHT"]]). Each either stores the value (and sets its bit in
// the row's `ok` mask) or leaves everything alone.
#include "util/textutil.h"

#include <simdjson.h>

#include <cstdint>
#include <limits>
#include <string_view>

namespace lanescope::npjson {

namespace sj = simdjson::ondemand;

constexpr int64_t kMaxU32 = int64_t(std::numeric_limits<uint32_t>::max());
constexpr int64_t kMaxI64 = std::numeric_limits<int64_t>::max();

inline bool stringOf(sj::value &v, std::string_view &s)
{
    return v.get_string().get(s) == simdjson::SUCCESS;
}

// An integer written as a number or as a decimal string ("12"), within [lo, hi].
inline bool intIn(sj::value &v, int64_t lo, int64_t hi, int64_t &out)
{
    int64_t i = 0;
    const auto err = v.get_int64().get(i);
    if (err == simdjson::INCORRECT_TYPE) {
        std::string_view s;
        if (!stringOf(v, s) || !text::parseInt(s, i))
            return false;
    } else if (err) {
        return false;
    }
    if (i < lo || i > hi)
        return false;
    out = i;
    return true;
}

// An unsigned 64-bit integer written as a number or a decimal string (the instructions' "id"s use the
// whole range, beyond a double's 2^53).
inline bool u64Of(sj::value &v, uint64_t &out)
{
    const auto err = v.get_uint64().get(out);
    if (err != simdjson::INCORRECT_TYPE)
        return !err;
    std::string_view s;
    if (!stringOf(v, s) || s.empty())
        return false;
    uint64_t value = 0;
    for (const char c : s) {
        if (c < '0' || c > '9' || value > (std::numeric_limits<uint64_t>::max() - uint64_t(c - '0')) / 10)
            return false;
        value = value * 10 + uint64_t(c - '0');
    }
    out = value;
    return true;
}

// Stores an integer within [lo, hi] into `dst` and sets `bit` in `ok`; leaves both alone otherwise.
template <class T> void takeIn(sj::value &v, int64_t lo, int64_t hi, T &dst, uint32_t &ok, uint32_t bit)
{
    int64_t i = 0;
    if (intIn(v, lo, hi, i)) {
        dst = static_cast<T>(i);
        ok |= bit;
    }
}

// The same within the range of T.
template <class T> void take(sj::value &v, T &dst, uint32_t &ok, uint32_t bit)
{
    constexpr int64_t hi =
        std::numeric_limits<T>::max() > uint64_t(kMaxI64) ? kMaxI64 : int64_t(std::numeric_limits<T>::max());
    takeIn(v, int64_t(std::numeric_limits<T>::min()), hi, dst, ok, bit);
}

// The first string of a string or of nested arrays ("source": [["WEIGHT"]]); false when there is none.
inline bool firstString(sj::value val, std::string_view &out, int depth = 0)
{
    sj::json_type type;
    if (val.type().get(type))
        return false;
    if (type == sj::json_type::string)
        return !val.get_string().get(out);
    if (type != sj::json_type::array || depth > 4)
        return false;
    sj::array a;
    if (val.get_array().get(a))
        return false;
    for (auto element : a) {
        sj::value v;
        if (element.get(v))
            return false;
        return firstString(v, out, depth + 1);
    }
    return false;
}

} // namespace lanescope::npjson
