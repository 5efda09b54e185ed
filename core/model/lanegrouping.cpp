#include "lanegrouping.h"

#include "model/dmaqueuekind.h"
#include "model/trace.h"
#include "util/textutil.h"

#include <algorithm>
#include <array>
#include <limits>

namespace lanescope {

namespace {

constexpr size_t kDmaQueueKinds = size_t(DmaQueueKind::Other) + 1;

// Slice categories of device work: Kineto's GPU kernels, copies, sets and GPU annotations, NeuronCore
// instructions and DMA packets, NEFF executions (neuroncorelanes.h), system_profile's hardware lanes.
bool isDeviceCategory(const std::string &c)
{
    return c == "kernel" || c == "gpu_memcpy" || c == "memcpy" || c == "gpu_memset" || c == "memset" ||
           c == "gpu_user_annotation" || c == "instruction" || c == "dma" || c == "neff_execution" || c == "mtia_ccp_events" ||
           c == "hardware";
}

// A track's kind of work: the category of its first slice, lower case ("" for counters).
std::string categoryOf(const Trace &trace, TrackId t)
{
    const auto slices = trace.slices(t);
    return slices.empty() ? std::string() : text::lower(trace.str(slices.front().category));
}

const char *setName(DmaQueueKind k)
{
    switch (k) {
    case DmaQueueKind::Io: return "DMA · IO queues";
    case DmaQueueKind::Weights: return "DMA · weight queues";
    case DmaQueueKind::SpillReload: return "DMA · spill/reload queues";
    case DmaQueueKind::Other: return "DMA · other queues";
    }
    return "DMA · other queues";
}

bool hasEvents(const Track &t) { return t.sliceCount || t.instantCount || t.counterCount; }

} // namespace

LaneGrouping LaneGrouping::of(const Trace &trace)
{
    LaneGrouping g;
    const auto groups = trace.groups();
    const auto tracks = trace.tracks();
    g.m_setOfTrack.assign(tracks.size(), -1);
    g.m_device.assign(groups.size(), false);

    // A group with device work, and every group above it (marking stops at a marked one: its parents are).
    const auto markDevice = [&](GroupId up) {
        for (; up.isValid() && up.value < groups.size() && !g.m_device[up.value]; up = groups[up.value].parent)
            g.m_device[up.value] = true;
    };
    // DMA queue lanes directly in a NeuronCore group (or one of its lane sets of overlapping executions).
    std::vector<std::array<std::vector<TrackId>, kDmaQueueKinds>> dma(groups.size());
    std::vector<size_t> counters(groups.size()), others(groups.size());
    for (uint32_t t = 0; t < tracks.size(); ++t) {
        const Track &tr = tracks[t];
        if (!tr.group.isValid() || tr.group.value >= groups.size() || !hasEvents(tr))
            continue;
        const uint32_t grp = tr.group.value;
        if (tr.kind == TrackKind::Counter || (tr.counterCount && !tr.sliceCount))
            ++counters[grp];
        else
            ++others[grp];
        const std::string category = categoryOf(trace, TrackId(t));
        if (!isDeviceCategory(category))
            continue;
        markDevice(tr.group);
        const GroupKind kind = groups[grp].kind;
        if ((kind == GroupKind::NeuronCore || kind == GroupKind::Device) && category == "dma")
            dma[grp][size_t(dmaQueueKind(trace.str(tr.name)))].push_back(TrackId(t));
    }
    for (uint32_t grp = 0; grp < groups.size(); ++grp) {
        const GroupKind kind = groups[grp].kind;
        if (kind == GroupKind::NeuronCore || kind == GroupKind::Device)
            markDevice(GroupId(grp));
        for (size_t k = 0; k < kDmaQueueKinds; ++k) {
            std::vector<TrackId> &lanes = dma[grp][k];
            if (lanes.size() < kMinSetSize)
                continue;
            for (TrackId t : lanes)
                g.m_setOfTrack[t.value] = int(g.m_sets.size());
            g.m_sets.push_back(LaneSet{GroupId(grp), setName(DmaQueueKind(k)), std::move(lanes)});
        }
        if (counters[grp] >= kManyCounters && others[grp] == 0)
            g.m_collapsed.push_back(GroupId(grp));
    }
    return g;
}

int LaneGrouping::setOf(TrackId track) const
{
    return track.value < m_setOfTrack.size() ? m_setOfTrack[track.value] : -1;
}

bool LaneGrouping::holdsDeviceWork(GroupId group) const
{
    return group.value < m_device.size() && m_device[group.value];
}

LaneGrouping::Intervals LaneGrouping::activity(const Trace &trace, const std::vector<TrackId> &tracks, int64_t mergeNs)
{
    Intervals all;
    for (TrackId t : tracks) {
        // A track's slices come in start order: one that ends before the furthest end so far adds nothing
        // to the union (a deep Python stack's children, most packets of a busy queue).
        int64_t reach = std::numeric_limits<int64_t>::min();
        for (const Slice &s : trace.slices(t))
            if (s.end() > reach) {
                all.emplace_back(s.start, s.end());
                reach = s.end();
            }
        const auto samples = trace.counterSamples(t);
        for (size_t i = 0; i < samples.size(); ++i) // a counter is busy when its value changes
            if (i == 0 || samples[i].value != samples[i - 1].value)
                all.emplace_back(samples[i].ts, samples[i].ts);
    }
    std::sort(all.begin(), all.end());
    Intervals merged;
    for (const auto &[a, b] : all) {
        if (!merged.empty() && a <= merged.back().second + mergeNs)
            merged.back().second = std::max(merged.back().second, b);
        else
            merged.emplace_back(a, b);
    }
    return merged;
}

} // namespace lanescope
