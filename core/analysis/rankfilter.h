#pragma once
// The ranks of a multi-rank trace (MultiRankLoader: one group of kind Rank per rank, externalId =
// the rank) and a filter that keeps the slices of one of them: the op, kernel and device tables'
// `rank` option (`lanescope-cli ops|kernels|devices --rank N`), the rank step table.
#include "model/ids.h"

#include <cstdint>
#include <vector>

namespace lanescope {

class Trace;

class RankFilter
{
public:
    static constexpr int64_t kAllRanks = -1;

    // Keeps slices of `rank` (kAllRanks: every slice).
    RankFilter(const Trace &trace, int64_t rank);

    bool all() const { return m_rank == kAllRanks; }
    bool accepts(SliceId slice) const;
    bool acceptsTrack(TrackId track) const { return all() || (track.value < m_tracks.size() && m_tracks[track.value]); }

    // The ranks present, ascending (empty for a trace that is not multi-rank).
    static std::vector<int64_t> ranks(const Trace &trace);
    // The rank a track belongs to (its nearest Rank group), or -1.
    static int64_t rankOfTrack(const Trace &trace, TrackId track);

private:
    const Trace &m_trace;
    int64_t m_rank;
    std::vector<uint8_t> m_tracks; // per track: belongs to the rank
};

} // namespace lanescope
