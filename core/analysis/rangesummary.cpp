#include "rangesummary.h"

#include "model/trace.h"

#include <algorithm>
#include <unordered_map>

namespace lanescope {

namespace {

struct Accumulator
{
    std::vector<RangeSummary::Row> rows;
    std::unordered_map<uint32_t, size_t> rowOfName;

    RangeSummary::Row &row(StringId name)
    {
        const auto [it, added] = rowOfName.try_emplace(name.value, rows.size());
        if (added)
            rows.push_back(RangeSummary::Row{name, 0, 0, 0});
        return rows[it->second];
    }
};

void summarizeTrack(const Trace &trace, TrackId track, int64_t t0, int64_t t1, Accumulator &acc)
{
    const auto slices = trace.slices(track);
    if (slices.empty())
        return;
    const bool nested = trace.track(track).kind != TrackKind::Async; // async depth is packing, not nesting
    const auto [first, last] = trace.sliceRange(track, t0, t1);
    // Slices are sorted by start (longer first), so the open slice of each depth is the parent of the
    // next slice one level deeper: a stack indexed by depth. A slice that starts inside the previous
    // one of its depth and outlives it (TraceBuilder places it beside it) shares the overlap with
    // it: the parent's self loses the overlap once.
    std::vector<const Slice *> open;
    for (uint32_t i = first; i < last; ++i) {
        const Slice &s = slices[i];
        if (open.size() <= s.depth)
            open.resize(size_t(s.depth) + 1, nullptr);
        const Slice *previous = open[s.depth];
        open[s.depth] = &s;
        const bool overlaps = s.duration > 0 ? (s.end() > t0 && s.start < t1) : (s.start >= t0 && s.start <= t1);
        if (!overlaps)
            continue;
        const int64_t clipped = std::max<int64_t>(0, std::min(s.end(), t1) - std::max(s.start, t0));
        RangeSummary::Row &row = acc.row(s.name);
        ++row.count;
        row.total += clipped;
        row.self += clipped;
        if (nested && s.depth > 0) {
            const Slice *parent = open[s.depth - 1];
            const int64_t shared = previous && previous->end() > s.start
                                       ? std::max<int64_t>(0, std::min({previous->end(), s.end(), t1}) - std::max(s.start, t0))
                                       : 0;
            if (parent && parent->start <= s.start && s.end() <= parent->end())
                acc.row(parent->name).self -= clipped - shared;
        }
    }
}

} // namespace

std::vector<RangeSummary::Row> RangeSummary::compute(const Trace &trace, int64_t t0, int64_t t1,
                                                     std::span<const TrackId> tracks)
{
    Accumulator acc;
    if (t1 < t0)
        return {};
    if (tracks.empty()) {
        for (uint32_t t = 0; t < trace.tracks().size(); ++t)
            summarizeTrack(trace, TrackId(t), t0, t1, acc);
    } else {
        for (TrackId t : tracks)
            summarizeTrack(trace, t, t0, t1, acc);
    }
    // A parent met only through its children (count 0) has no row of its own worth showing.
    std::erase_if(acc.rows, [](const Row &r) { return r.count == 0; });
    std::sort(acc.rows.begin(), acc.rows.end(), [](const Row &a, const Row &b) {
        return a.total != b.total ? a.total > b.total : a.name.value < b.name.value;
    });
    return acc.rows;
}

} // namespace lanescope
