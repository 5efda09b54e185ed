#include "finding.h"

#include "model/trace.h"

#include <algorithm>

namespace lanescope {

void Finding::addEvent(uint32_t slice)
{
    if (events.size() >= kMaxEvents || std::find(events.begin(), events.end(), slice) != events.end())
        return;
    events.push_back(slice);
}

void Finding::addRange(int64_t start, int64_t end)
{
    if (ranges.size() < kMaxEvents)
        ranges.emplace_back(start, end);
}

void Finding::addSlice(const Trace &trace, uint32_t slice)
{
    addEvent(slice);
    const Slice &s = trace.slice(SliceId(slice));
    addRange(s.start, s.end());
}

const char *Finding::severityName(Severity s)
{
    switch (s) {
    case Severity::High: return "high";
    case Severity::Medium: return "medium";
    case Severity::Low: return "low";
    }
    return "low";
}

std::optional<Severity> Finding::severityFromName(std::string_view name)
{
    if (name == "high")
        return Severity::High;
    if (name == "medium")
        return Severity::Medium;
    if (name == "low")
        return Severity::Low;
    return std::nullopt;
}

Severity Finding::severityForShare(int64_t recoverableNs, int64_t spanNs)
{
    if (spanNs <= 0)
        return Severity::Low;
    const double share = double(recoverableNs) / double(spanNs);
    if (share >= 0.10)
        return Severity::High;
    if (share >= 0.03)
        return Severity::Medium;
    return Severity::Low;
}

void Finding::rank(std::vector<Finding> &findings)
{
    std::stable_sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
        if (a.severity != b.severity)
            return a.severity > b.severity;
        const int64_t ra = a.recoverableNs.value_or(-1), rb = b.recoverableNs.value_or(-1);
        if (ra != rb)
            return ra > rb;
        return a.rule < b.rule;
    });
}

} // namespace lanescope
