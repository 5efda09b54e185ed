#include "rankscopes.h"

#include "model/trace.h"
#include "rankfilter.h"

#include <algorithm>

namespace lanescope {

RankScopes RankScopes::compute(const Trace &trace, const LaunchIndex &index, int64_t t0, int64_t t1)
{
    RankScopes r;
    const std::vector<int64_t> ranks = RankFilter::ranks(trace);
    r.m_multi = !ranks.empty();
    r.m_deviceRank.assign(index.devices().size(), -1);
    if (!r.m_multi) {
        Scope s;
        s.start = t0;
        s.end = std::max(t0, t1);
        for (uint32_t d = 0; d < index.devices().size(); ++d)
            s.devices.push_back(d);
        r.m_totalNs = s.spanNs();
        r.m_scopes.push_back(std::move(s));
        return r;
    }
    r.m_trackRank.resize(trace.tracks().size());
    for (uint32_t t = 0; t < r.m_trackRank.size(); ++t)
        r.m_trackRank[t] = RankFilter::rankOfTrack(trace, TrackId(t));
    // A device belongs to the rank of its work (LaunchIndex names it "Rank N · GPU 0").
    std::vector<uint8_t> seen(index.devices().size(), 0);
    for (const LaunchIndex::Work &w : index.work())
        if (!seen[w.device]) {
            seen[w.device] = 1;
            r.m_deviceRank[w.device] = r.rankOfSlice(trace, w.slice);
        }
    for (int64_t rank : ranks) {
        Scope s;
        s.rank = rank;
        s.start = INT64_MAX;
        s.end = INT64_MIN;
        r.m_scopes.push_back(std::move(s));
    }
    const auto scopeIndex = [&](int64_t rank) -> Scope * {
        const auto it = std::lower_bound(ranks.begin(), ranks.end(), rank);
        return it != ranks.end() && *it == rank ? &r.m_scopes[size_t(it - ranks.begin())] : nullptr;
    };
    // Each rank's span: its slices inside the window, clipped to it.
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        Scope *s = scopeIndex(r.m_trackRank[t]);
        if (!s)
            continue;
        for (const Slice &x : trace.slices(TrackId(t))) {
            if (x.end() < t0 || x.start > t1)
                continue;
            s->start = std::min(s->start, std::max(x.start, t0));
            s->end = std::max(s->end, std::min(x.end(), t1));
        }
    }
    for (uint32_t d = 0; d < r.m_deviceRank.size(); ++d)
        if (Scope *s = scopeIndex(r.m_deviceRank[d]))
            s->devices.push_back(d);
    for (Scope &s : r.m_scopes) {
        if (s.start > s.end)
            s.start = s.end = t0;
        r.m_totalNs += s.spanNs();
    }
    return r;
}

int64_t RankScopes::rankOfSlice(const Trace &trace, SliceId slice) const
{
    return m_multi ? rankOfTrack(trace.trackOfSlice(slice)) : -1;
}

const RankScopes::Scope *RankScopes::scopeOf(int64_t rank) const
{
    for (const Scope &s : m_scopes)
        if (s.rank == rank)
            return &s;
    return nullptr;
}

} // namespace lanescope
