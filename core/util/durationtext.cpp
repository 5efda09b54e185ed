#include "durationtext.h"

#include <algorithm>
#include <cstdio>

namespace lanescope {

namespace {

std::string trimZeros(std::string s)
{
    if (s.find('.') == std::string::npos)
        return s;
    while (!s.empty() && s.back() == '0')
        s.pop_back();
    if (!s.empty() && s.back() == '.')
        s.pop_back();
    return s;
}

std::string fixedPoint(int64_t ns, int64_t unitNs, int decimals)
{
    const bool negative = ns < 0;
    const uint64_t mag = negative ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    const uint64_t unit = uint64_t(unitNs);
    uint64_t whole = mag / unit;
    const uint64_t frac = mag % unit; // in ns, < unit
    // Round `frac` (out of `unit`) to `decimals` digits.
    uint64_t scale = 1;
    for (int i = 0; i < decimals; ++i)
        scale *= 10;
    // frac * scale fits: unit <= 1e9 and scale <= 1e9 for decimals <= 9.
    uint64_t fracDigits = (frac * scale + unit / 2) / unit;
    if (fracDigits >= scale) {
        fracDigits -= scale;
        ++whole;
    }
    std::string out = negative && (whole || fracDigits) ? "-" : "";
    out += std::to_string(whole);
    if (decimals > 0) {
        std::string digits = std::to_string(fracDigits);
        out += '.' + std::string(size_t(decimals) - std::min(digits.size(), size_t(decimals)), '0') + digits;
    }
    return out;
}

int unitDigits(int64_t unitNs)
{
    int d = 0;
    for (int64_t u = unitNs; u > 1; u /= 10)
        ++d;
    return d;
}

} // namespace

int64_t DurationText::unitFor(int64_t ns)
{
    const uint64_t mag = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    if (mag >= 1000000000ull)
        return 1000000000;
    if (mag >= 1000000ull)
        return 1000000;
    if (mag >= 1000ull)
        return 1000;
    return 1;
}

const char *DurationText::unitName(int64_t unitNs)
{
    switch (unitNs) {
    case 1000000000: return "s";
    case 1000000: return "ms";
    case 1000: return "\u00b5s";
    default: return "ns";
    }
}

std::string DurationText::formatInUnit(int64_t ns, int64_t unitNs, int decimals)
{
    if (unitNs <= 0)
        unitNs = 1;
    decimals = std::clamp(decimals, 0, 9);
    return fixedPoint(ns, unitNs, decimals) + ' ' + unitName(unitNs);
}

std::string DurationText::format(int64_t ns)
{
    int64_t unit = unitFor(ns);
    std::string num = trimZeros(fixedPoint(ns, unit, unit == 1 ? 0 : 3));
    // 999.9996 µs rounds to "1000 µs": say "1 ms" instead.
    if (unit < 1000000000 && (num == "1000" || num == "-1000")) {
        unit *= 1000;
        num = trimZeros(fixedPoint(ns, unit, 3));
    }
    return num + ' ' + unitName(unit);
}

std::string DurationText::formatPrecise(int64_t ns)
{
    const int64_t unit = unitFor(ns);
    return trimZeros(fixedPoint(ns, unit, unitDigits(unit))) + ' ' + unitName(unit);
}

std::string DurationText::column(double ns)
{
    char buf[64];
    if (ns >= 1e9)
        std::snprintf(buf, sizeof buf, "%.3f s", ns / 1e9);
    else if (ns >= 1e6)
        std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.3f us", ns / 1e3);
    return buf;
}

} // namespace lanescope
