#include "deviceevidence.h"

#include "analysis/enginebreakdown.h"
#include "model/trace.h"

#include <algorithm>

namespace lanescope {

namespace {

// Appends [s, e) to sorted intervals, joining it to the last one across a gap below `bridge`.
void extend(DeviceEvidence::Ranges &merged, int64_t s, int64_t e, int64_t bridge)
{
    if (!merged.empty() && s <= merged.back().second + bridge)
        merged.back().second = std::max(merged.back().second, e);
    else
        merged.emplace_back(s, e);
}

} // namespace

DeviceEvidence::Ranges DeviceEvidence::longest(Ranges merged, size_t limit)
{
    std::stable_sort(merged.begin(), merged.end(), [](const auto &a, const auto &b) { return a.second - a.first > b.second - b.first; });
    if (merged.size() > limit)
        merged.resize(limit);
    return merged;
}

void DeviceEvidence::attach(Finding &f, const Trace &trace, const EngineBreakdownResult &e, std::span<const TrackId> tracks,
                            const Keep &keep, bool withRanges)
{
    const int64_t t0 = e.startNs, t1 = e.endNs;
    const int64_t bridge = int64_t(double(std::max<int64_t>(0, t1 - t0)) * kBridgePercent / 100.0);
    using Event = std::pair<int64_t, uint32_t>;
    std::vector<Event> events; // (duration, slice), a min-heap of the longest
    auto later = [](const Event &a, const Event &b) { return a.first != b.first ? a.first > b.first : a.second < b.second; };
    Ranges all;
    for (TrackId t : tracks) {
        const auto slices = trace.slices(t);
        const auto [first, last] = trace.sliceRange(t, t0, t1);
        Ranges merged; // slices of one lane are by start
        for (uint32_t i = first; i < last; ++i) {
            const Slice &s = slices[i];
            if (s.end() < t0 || s.start > t1 || !keep(s))
                continue;
            const uint32_t id = trace.sliceId(t, i).value;
            if (events.size() < Finding::kMaxEvents) {
                events.emplace_back(s.duration, id);
                std::push_heap(events.begin(), events.end(), later);
            } else if (later(Event(s.duration, id), events.front())) {
                std::pop_heap(events.begin(), events.end(), later);
                events.back() = {s.duration, id};
                std::push_heap(events.begin(), events.end(), later);
            }
            if (withRanges)
                extend(merged, std::max(s.start, t0), std::min(s.end(), t1), bridge);
        }
        all.insert(all.end(), merged.begin(), merged.end());
    }
    std::sort(events.begin(), events.end(), later);
    for (const auto &[d, id] : events)
        f.addEvent(id);
    if (!withRanges)
        return;
    std::sort(all.begin(), all.end());
    Ranges merged;
    for (const auto &[s, en] : all)
        extend(merged, s, en, bridge);
    f.ranges = longest(std::move(merged));
}

} // namespace lanescope
