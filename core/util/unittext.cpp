#include "unittext.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace lanescope {

namespace {

// Below this a number reads with at most three digits before the point (999.5 would round to 1000).
constexpr double kThreeDigits = 999.5;

std::string nonFinite(double v)
{
    if (std::isnan(v))
        return "nan";
    return v < 0 ? "-inf" : "inf";
}

std::string trimZeros(std::string s)
{
    if (s.find('.') == std::string::npos)
        return s;
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.')
        s.pop_back();
    return s;
}

// About three significant digits: two decimals below 10, one below 100, none above; trailing zeros
// trimmed. Below 1 three significant digits (0.00123), so a small value never reads as 0.
std::string threeDigits(double v)
{
    const double a = std::fabs(v);
    char buf[64];
    if (a > 0 && a < 0.995)
        std::snprintf(buf, sizeof buf, "%.3g", v);
    else
        std::snprintf(buf, sizeof buf, "%.*f", a < 9.995 ? 2 : a < 99.95 ? 1 : 0, v);
    std::string s = buf;
    if (s.find('e') == std::string::npos)
        s = trimZeros(std::move(s));
    return s == "-0" ? "0" : s;
}

// `v` divided by `step` until it reads with at most three digits, then the unit it reached.
template <size_t N>
std::string scaled(double v, double step, const std::array<const char *, N> &units, const char *suffix)
{
    if (!std::isfinite(v))
        return nonFinite(v);
    size_t i = 0;
    while (std::fabs(v) >= kThreeDigits && i + 1 < N) {
        v /= step;
        ++i;
    }
    return threeDigits(v) + ' ' + units[i] + suffix;
}

constexpr std::array<const char *, 7> kBinary = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

bool equalsLower(std::string_view a, std::string_view lower)
{
    if (a.size() != lower.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        const char c = a[i] >= 'A' && a[i] <= 'Z' ? char(a[i] - 'A' + 'a') : a[i];
        if (c != lower[i])
            return false;
    }
    return true;
}

} // namespace

std::string UnitText::bytes(double bytes)
{
    return scaled(bytes, 1024.0, kBinary, "");
}

std::string UnitText::byteRate(double bytesPerSecond)
{
    return scaled(bytesPerSecond, 1024.0, kBinary, "/s");
}

std::string UnitText::percent(double percent)
{
    if (!std::isfinite(percent))
        return nonFinite(percent) + " %";
    return (std::fabs(percent) < kThreeDigits ? threeDigits(percent) : thousands(percent)) + " %";
}

std::string UnitText::thousands(double value)
{
    if (!std::isfinite(value))
        return nonFinite(value);
    char buf[400]; // the integer part of the largest double has 309 digits
    std::snprintf(buf, sizeof buf, "%.0f", std::fabs(value));
    const std::string digits = buf;
    std::string out = value < 0 && digits != "0" ? "-" : "";
    for (size_t i = 0; i < digits.size(); ++i) {
        out.push_back(digits[i]);
        if ((digits.size() - i - 1) % 3 == 0 && i + 1 < digits.size())
            out.push_back(',');
    }
    return out;
}

std::string UnitText::count(double value)
{
    if (!std::isfinite(value))
        return nonFinite(value);
    const double a = std::fabs(value);
    if (a < kThreeDigits)
        return threeDigits(value);
    if (a < 999'999.5)
        return thousands(value);
    static constexpr std::array<const char *, 7> kSi = {"", "k", "M", "G", "T", "P", "E"};
    size_t i = 0;
    double v = value;
    while (std::fabs(v) >= kThreeDigits && i + 1 < kSi.size()) {
        v /= 1000.0;
        ++i;
    }
    return threeDigits(v) + ' ' + kSi[i];
}

std::string UnitText::value(double value, std::string_view unit)
{
    if (unit == "B" || equalsLower(unit, "bytes") || equalsLower(unit, "byte"))
        return bytes(value);
    if (unit == "B/s" || equalsLower(unit, "bytes/s") || equalsLower(unit, "byte/s"))
        return byteRate(value);
    if (unit == "%" || equalsLower(unit, "percent"))
        return percent(value);
    std::string text = count(value);
    if (!unit.empty())
        text.append(" ").append(unit);
    return text;
}

} // namespace lanescope
