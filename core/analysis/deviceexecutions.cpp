#include "deviceexecutions.h"

#include "model/trace.h"

#include <algorithm>

namespace lanescope {

DeviceExecutions DeviceExecutions::build(const Trace &trace)
{
    DeviceExecutions d;
    const StringId lane = trace.strings().find(kLaneName), category = trace.strings().find(kCategory);
    const StringId program = trace.strings().find("program");
    if (!lane.isValid() || !category.isValid())
        return d;
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track &tr = trace.tracks()[t];
        const auto slices = trace.slices(TrackId(t));
        if (tr.name != lane || slices.empty() || slices.front().category != category)
            continue;
        GroupId core = tr.group;
        for (GroupId g = tr.group; g.isValid(); g = trace.group(g).parent)
            if (trace.group(g).kind == GroupKind::NeuronCore)
                core = g;
        for (uint32_t i = 0; i < slices.size(); ++i) {
            const Slice &s = slices[i];
            DeviceExecution e;
            e.slice = trace.sliceId(TrackId(t), i);
            e.core = core;
            e.laneSet = tr.group;
            e.start = s.start;
            e.end = s.end();
            e.name = std::string(trace.str(s.name));
            if (program.isValid() && s.args.isValid())
                for (const Arg &a : trace.args().args(s.args))
                    if (a.key == program && a.type == ArgType::String)
                        e.program = a.stringValue();
            d.m_all.push_back(std::move(e));
        }
    }
    std::stable_sort(d.m_all.begin(), d.m_all.end(),
                     [](const DeviceExecution &a, const DeviceExecution &b) { return a.start < b.start; });
    for (uint32_t i = 0; i < d.m_all.size(); ++i) {
        d.m_all[i].number = i + 1;
        d.m_byLaneSet[d.m_all[i].laneSet.value].emplace_back(d.m_all[i].start, i);
    }
    // A trn2 core's lanes sit one level down, in a group per physical core: they belong to the lane set's
    // executions too.
    for (uint32_t g = 0; g < trace.groups().size(); ++g) {
        const TrackGroup &grp = trace.group(GroupId(g));
        if (grp.kind != GroupKind::PhysicalCore || !grp.parent.isValid())
            continue;
        if (const auto it = d.m_byLaneSet.find(grp.parent.value); it != d.m_byLaneSet.end()) {
            auto copy = it->second;
            d.m_byLaneSet[g] = std::move(copy);
        }
    }
    return d;
}

int DeviceExecutions::find(GroupId laneSet, int64_t t) const
{
    const auto it = m_byLaneSet.find(laneSet.value);
    if (it == m_byLaneSet.end())
        return -1;
    const auto &list = it->second; // by start; executions on one lane set do not overlap
    auto at = std::upper_bound(list.begin(), list.end(), std::make_pair(t, UINT32_MAX));
    if (at == list.begin())
        return -1;
    --at;
    return t <= m_all[at->second].end ? int(at->second) : -1;
}

std::string DeviceExecutions::label(const Trace &trace, size_t index) const
{
    const DeviceExecution &e = m_all[index];
    return std::to_string(e.number) + ": " + e.name + " (" + std::string(trace.str(trace.group(e.core).name)) + ")";
}

} // namespace lanescope
