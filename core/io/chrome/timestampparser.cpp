#include "timestampparser.h"

#include "io/input/int128.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace lanescope {

bool TimestampParser::microsToNs(std::string_view t, int64_t &ns)
{
    size_t i = 0;
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        ++i;
    bool negative = false;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) {
        negative = t[i] == '-';
        ++i;
    }
    // up to 18 digits fit in int64 even after the * 1000 below would not: the sum is done in 128 bits
    uint64_t whole = 0;
    size_t digits = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
        whole = whole * 10 + uint64_t(t[i] - '0');
        if (++digits > 18)
            return false;
        ++i;
    }
    int64_t frac = 0; // in ns, 3 digits
    int fracDigits = 0;
    bool anyFrac = false;
    if (i < t.size() && t[i] == '.') {
        ++i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
            anyFrac = true;
            if (fracDigits < 3) {
                frac = frac * 10 + (t[i] - '0');
                ++fracDigits;
            }
            ++i;
        }
    }
    if (digits == 0 && !anyFrac)
        return false;
    while (fracDigits < 3) {
        frac *= 10;
        ++fracDigits;
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        // Rare: fall back to long double arithmetic on the whole token.
        std::string copy(t.substr(0, t.size()));
        char *end = nullptr;
        const long double us = std::strtold(copy.c_str(), &end);
        if (!std::isfinite(us))
            return false;
        const long double v = std::trunc(us * 1000.0L);
        if (v > static_cast<long double>(std::numeric_limits<int64_t>::max())
            || v < static_cast<long double>(std::numeric_limits<int64_t>::min()))
            return false;
        ns = static_cast<int64_t>(v);
        return true;
    }
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        ++i;
    if (i != t.size())
        return false;
    Int128 v = Int128(whole) * 1000 + frac;
    if (negative)
        v = -v;
    if (v > std::numeric_limits<int64_t>::max() || v < std::numeric_limits<int64_t>::min())
        return false;
    ns = static_cast<int64_t>(v);
    return true;
}

} // namespace lanescope
