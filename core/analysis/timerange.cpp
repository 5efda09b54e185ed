#include "timerange.h"

#include "util/textutil.h"

#include <charconv>
#include <cmath>

namespace lanescope {

namespace {

constexpr const char *kExpected = "expected FROM:TO after the trace start with units ns, us, ms or s "
                                  "(e.g. 10ms:12.5ms, 1.5s:, :200us), or trace-clock ns as Nabs (e.g. 123456789abs)";

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool parseNumber(std::string_view s, double &out)
{
    s = text::trim(s);
    if (s.empty())
        return false;
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(v))
        return false;
    out = v;
    return true;
}

// One side; false with *error naming the side and what was expected.
bool parseEnd(std::string_view side, const char *which, TimeRange::BareNumber bare, std::optional<TimeRange::End> &out,
              bool &bareUsed, std::string *error)
{
    side = text::trim(side);
    out.reset();
    if (side.empty())
        return true;
    const auto fail = [&](const std::string &why) {
        if (error)
            *error = std::string(which) + " '" + std::string(side) + "' " + why;
        return false;
    };
    TimeRange::End end;
    if (endsWith(side, "abs")) {
        int64_t v = 0;
        if (!text::parseInt(side.substr(0, side.size() - 3), v))
            return fail("is not a trace-clock time: Nabs takes whole nanoseconds (e.g. 123456789abs)");
        end.ns = v;
        end.absolute = true;
        out = end;
        return true;
    }
    static constexpr std::pair<std::string_view, double> kUnits[] = {
        {"ns", 1}, {"us", 1e3}, {"\u00b5s", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    double scale = 0;
    std::string_view number = side;
    for (const auto &[suffix, factor] : kUnits)
        if (endsWith(side, suffix)) {
            number = side.substr(0, side.size() - suffix.size());
            scale = factor;
            break;
        }
    if (scale == 0) { // deprecated: no unit
        bareUsed = true;
        if (bare == TimeRange::BareNumber::AbsoluteNs) {
            int64_t v = 0;
            if (!text::parseInt(side, v))
                return fail("is not a time: give a unit (ns, us, ms, s) or whole trace-clock ns as Nabs");
            end.ns = v;
            end.absolute = true;
            out = end;
            return true;
        }
        scale = 1e6;
    }
    double v = 0;
    if (!parseNumber(number, v))
        return fail("is not a time: expected a number with a unit ns, us, ms or s (e.g. 12.5ms)");
    if (std::abs(v * scale) > 9e18)
        return fail("is too large");
    end.ns = int64_t(std::llround(v * scale));
    out = end;
    return true;
}

} // namespace

std::optional<TimeRange> TimeRange::parse(std::string_view text, BareNumber bare, std::string *error)
{
    const std::string quoted = "'" + std::string(text) + "': ";
    const size_t colon = text.find(':');
    if (colon == std::string_view::npos) {
        if (error)
            *error = quoted + kExpected;
        return std::nullopt;
    }
    TimeRange r;
    r.m_text = std::string(text);
    std::string why;
    if (!parseEnd(text.substr(0, colon), "FROM", bare, r.from, r.usedBareNumber, &why)
        || !parseEnd(text.substr(colon + 1), "TO", bare, r.to, r.usedBareNumber, &why)) {
        if (error)
            *error = quoted + why;
        return std::nullopt;
    }
    if (r.from && r.to && r.from->absolute == r.to->absolute && r.to->ns < r.from->ns) {
        if (error)
            *error = quoted + "TO must be after FROM";
        return std::nullopt;
    }
    return r;
}

std::optional<int64_t> TimeRange::absoluteFrom(int64_t traceStartNs) const
{
    if (!from)
        return std::nullopt;
    return from->absolute ? from->ns : traceStartNs + from->ns;
}

std::optional<int64_t> TimeRange::absoluteTo(int64_t traceStartNs) const
{
    if (!to)
        return std::nullopt;
    return to->absolute ? to->ns : traceStartNs + to->ns;
}

bool TimeRange::resolve(int64_t traceStartNs, int64_t traceEndNs, bool allowEmpty, int64_t *t0, int64_t *t1,
                        std::string *error) const
{
    const int64_t a = absoluteFrom(traceStartNs).value_or(traceStartNs);
    const int64_t b = absoluteTo(traceStartNs).value_or(traceEndNs);
    if (b < a || (b == a && !allowEmpty)) {
        if (error)
            *error = "'" + m_text + "': TO must be after FROM";
        return false;
    }
    *t0 = a;
    *t1 = b;
    return true;
}

std::string TimeRange::deprecationNote(BareNumber bare)
{
    return std::string("note: a --range number without a unit is deprecated; it is read as ")
        + (bare == BareNumber::AbsoluteNs ? "trace-clock ns (write Nabs, e.g. 123456789abs)"
                                          : "ms after the trace start (write e.g. 10ms:12.5ms)");
}

const char *TimeRange::syntaxSummary()
{
    return "FROM:TO after the trace start with units ns, us, ms, s (10ms:12.5ms, 1.5s:, :200us); Nabs = trace-clock ns";
}

} // namespace lanescope
