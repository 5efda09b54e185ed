#include "neuroncorelanes.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

namespace lanescope {

std::string NeuronCoreLanes::coreGroupName(int64_t core, const std::string &instanceLabel)
{
    return "NeuronCore " + std::to_string(core) + instanceLabel;
}

std::string NeuronCoreLanes::sliceName(const Execution &e)
{
    std::string name = e.networkName.empty() ? e.program : e.networkName;
    if (!e.launchedBy.empty())
        name += " \xC2\xB7 " + e.launchedBy;
    else if (!e.networkName.empty() && e.networkName != e.program)
        name += " (" + e.program + ")"; // no launching op: which device profile it is ("file.neff" is common)
    return name;
}

std::vector<NeuronCoreLanes::Placement> NeuronCoreLanes::place(TraceBuilder &b, const std::vector<Execution> &executions,
                                                               int64_t sortBase)
{
    std::vector<Placement> out(executions.size());
    // Executions in start order (ties: the order given), then per core the first lane set that is free.
    std::vector<size_t> order(executions.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return executions[x].start < executions[y].start; });

    struct LaneSet
    {
        GroupId group;
        TrackId lane;
        int64_t end = INT64_MIN;
    };
    struct Core
    {
        std::vector<LaneSet> sets;
        uint64_t overlapping = 0;
        std::string firstOverlap;
    };
    std::map<std::pair<int, int64_t>, Core> cores;
    std::vector<std::pair<int, int64_t>> coreOrder;
    const StringId laneName = b.intern(kLaneName), category = b.intern(kCategory);
    const StringId kProgram = b.intern("program"), kNetwork = b.intern("network_name"), kLaunched = b.intern("launched_by"),
                   kNtff = b.intern("ntff"), kNeff = b.intern("neff"), kAlignment = b.intern("alignment"),
                   kIndex = b.intern("execution"), kSet = b.intern("lane_set");
    auto addLane = [&](GroupId g) {
        const TrackId t = b.addTrack(g, TrackKind::Async, laneName, 0);
        b.track(t).sortIndex = kLaneSortIndex;
        return t;
    };
    std::map<std::pair<int, int64_t>, int64_t> counted; // executions per core so far
    for (size_t i : order) {
        const Execution &e = executions[i];
        const auto key = std::make_pair(e.instance, e.core);
        Core &c = cores[key];
        if (c.sets.empty()) {
            const GroupId g = b.addGroup(GroupKind::NeuronCore, b.intern(coreGroupName(e.core, e.instanceLabel)), {}, e.core);
            b.group(g).sortIndex = sortBase + int64_t(coreOrder.size());
            coreOrder.push_back(key);
            c.sets.push_back({g, addLane(g)});
        }
        size_t set = 0;
        while (set < c.sets.size() && c.sets[set].end > e.start)
            ++set;
        if (set == c.sets.size()) {
            const GroupId g = b.addGroup(GroupKind::Device, b.intern("overlapping executions (set " + std::to_string(set + 1) + ")"),
                                         c.sets.front().group, e.core);
            b.group(g).sortIndex = int64_t(set);
            c.sets.push_back({g, addLane(g)});
        }
        if (set > 0 && c.overlapping++ == 0)
            c.firstOverlap = e.ntff;
        LaneSet &s = c.sets[set];
        s.end = std::max(s.end, e.end);
        const int64_t index = ++counted[key];
        std::vector<Arg> args = {Arg::makeString(kProgram, b.intern(e.program)), Arg::makeInt(kIndex, index)};
        if (!e.networkName.empty())
            args.push_back(Arg::makeString(kNetwork, b.intern(e.networkName)));
        if (!e.launchedBy.empty())
            args.push_back(Arg::makeString(kLaunched, b.intern(e.launchedBy)));
        args.push_back(Arg::makeString(kNtff, b.intern(e.ntff)));
        if (!e.neff.empty())
            args.push_back(Arg::makeString(kNeff, b.intern(e.neff)));
        if (!e.alignment.empty())
            args.push_back(Arg::makeString(kAlignment, b.intern(e.alignment)));
        if (set > 0)
            args.push_back(Arg::makeInt(kSet, int64_t(set + 1)));
        out[i].parent = s.group;
        out[i].set = int(set);
        out[i].slice = b.addSlice(s.lane, e.start, std::max<int64_t>(0, e.end - e.start), b.intern(sliceName(e)), category,
                                  b.addArgs(args));
    }
    for (const auto &key : coreOrder) {
        const Core &c = cores[key];
        if (c.overlapping)
            b.diagnostics().warn("device executions overlap in time on " + coreGroupName(key.second, std::string()) +
                                     " (a clock-alignment problem: a core runs one NEFF at a time); kept on separate lane sets, "
                                     "not merged",
                                 c.firstOverlap, c.overlapping);
    }
    return out;
}

} // namespace lanescope
