#pragma once
// The ranks of a trace as the insights rules count them: per rank, its own span inside the analysed
// window (first start to last end of its slices there) and its devices. A multi-rank trace
// (MultiRankLoader: one Rank group per rank) shares one clock, but each rank's steps run on its own
// GPUs and hosts: a rule measures each rank against its own span and devices and adds the ranks up in
// units that add up (device time summed over devices, host time summed over hosts, totalNs()). A
// trace without ranks is one scope, rank -1, spanning the whole window with every device.
#include "launchindex.h"

#include <cstdint>
#include <vector>

namespace lanescope {

class Trace;

class RankScopes
{
public:
    struct Scope
    {
        int64_t rank = -1;            // -1: the trace is not multi-rank
        int64_t start = 0, end = 0;   // its span inside the window (start == end: no slice there)
        std::vector<uint32_t> devices; // indices into LaunchIndex::devices()
        int64_t spanNs() const { return end - start; }
    };

    // [t0, t1]: the analysed window.
    static RankScopes compute(const Trace &trace, const LaunchIndex &index, int64_t t0, int64_t t1);

    const std::vector<Scope> &scopes() const { return m_scopes; }
    bool multiRank() const { return m_multi; }
    // The ranks' own time: their spans summed (the window for a trace without ranks).
    int64_t totalNs() const { return m_totalNs; }
    // The rank a device, a track or a slice belongs to (-1: none, or not multi-rank).
    int64_t rankOfDevice(uint32_t device) const { return device < m_deviceRank.size() ? m_deviceRank[device] : -1; }
    int64_t rankOfTrack(TrackId track) const { return track.value < m_trackRank.size() ? m_trackRank[track.value] : -1; }
    int64_t rankOfSlice(const Trace &trace, SliceId slice) const;
    // The scope of a rank (-1: the whole trace when not multi-rank), nullptr when absent.
    const Scope *scopeOf(int64_t rank) const;

private:
    std::vector<Scope> m_scopes;
    std::vector<int64_t> m_deviceRank, m_trackRank;
    int64_t m_totalNs = 0;
    bool m_multi = false;
};

} // namespace lanescope
