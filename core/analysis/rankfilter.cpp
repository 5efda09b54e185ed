#include "rankfilter.h"

#include "model/trace.h"

#include <algorithm>

namespace lanescope {

RankFilter::RankFilter(const Trace &trace, int64_t rank) : m_trace(trace), m_rank(rank)
{
    if (all())
        return;
    m_tracks.resize(trace.tracks().size());
    for (uint32_t t = 0; t < m_tracks.size(); ++t)
        m_tracks[t] = rankOfTrack(trace, TrackId(t)) == rank;
}

bool RankFilter::accepts(SliceId slice) const
{
    return all() || acceptsTrack(m_trace.trackOfSlice(slice));
}

int64_t RankFilter::rankOfTrack(const Trace &trace, TrackId track)
{
    for (GroupId g = trace.track(track).group; g.isValid(); g = trace.group(g).parent)
        if (trace.group(g).kind == GroupKind::Rank)
            return trace.group(g).externalId;
    return -1;
}

std::vector<int64_t> RankFilter::ranks(const Trace &trace)
{
    std::vector<int64_t> out;
    for (const TrackGroup &g : trace.groups())
        if (g.kind == GroupKind::Rank)
            out.push_back(g.externalId);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace lanescope
