#include "executionneff.h"

#include "deviceexecutions.h"

#include "model/trace.h"

#include <set>

namespace lanescope {

namespace {

constexpr std::string_view kNeffFileSuffix = ": neff.file"; // "<ntff>: neff.file" = "<neff>" (ProfileFolderLoader)

GroupId topGroupOf(const Trace &trace, SliceId slice)
{
    const TrackId track = trace.trackOfSlice(slice);
    if (!track.isValid())
        return {};
    GroupId g = trace.track(track).group;
    while (g.isValid() && trace.group(g).parent.isValid())
        g = trace.group(g).parent;
    return g.isValid() && trace.group(g).kind == GroupKind::NeuronCore ? g : GroupId();
}

std::string stemOf(std::string_view path)
{
    const size_t slash = path.rfind('/');
    std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const size_t dot = base.find('.');
    return std::string(dot == std::string_view::npos || dot == 0 ? base : base.substr(0, dot));
}

// The device timeline's group is named "NeuronCore N · <program>[ · ...]", <program> the stem of its NEFF.
bool namesProgram(std::string_view group, const std::string &program)
{
    const std::string token = "\xc2\xb7 " + program; // "· program"
    for (size_t at = group.find(token); at != std::string_view::npos; at = group.find(token, at + 1)) {
        const size_t end = at + token.size();
        if (end == group.size() || group[end] == ' ')
            return true;
    }
    return false;
}

// The slice itself when it is on a device timeline, else (a host execution event) the first device
// slice its flow leads to.
SliceId deviceSliceOf(const Trace &trace, SliceId slice)
{
    if (!slice.isValid() || slice.value >= trace.allSlices().size())
        return {};
    if (topGroupOf(trace, slice).isValid())
        return slice;
    for (const FlowId f : trace.flowsFrom(slice)) {
        const Flow &flow = trace.flows()[f.value];
        const std::string_view name = trace.str(flow.name);
        if ((name == "device execution" || name == "device instructions") && flow.to.isValid()
            && topGroupOf(trace, flow.to).isValid())
            return flow.to;
    }
    return {};
}

// One set of lanes per NeuronCore (NeuronCoreLanes): the execution whose span holds the slice names
// its program; empty when the trace has no executions lane.
std::string executionProgram(const Trace &trace, SliceId device)
{
    const DeviceExecutions executions = DeviceExecutions::build(trace);
    if (executions.empty())
        return {};
    const int e = executions.find(trace.track(trace.trackOfSlice(device)).group, trace.slice(device).start);
    if (e < 0 || !executions.all()[size_t(e)].program.isValid())
        return {};
    return std::string(trace.str(executions.all()[size_t(e)].program));
}

} // namespace

GroupId ExecutionNeff::deviceGroup(const Trace &trace, SliceId slice)
{
    const SliceId device = deviceSliceOf(trace, slice);
    return device.isValid() ? topGroupOf(trace, device) : GroupId();
}

std::string ExecutionNeff::find(const Trace &trace, SliceId slice)
{
    const SliceId device = deviceSliceOf(trace, slice);
    if (!device.isValid())
        return {};
    const std::string_view groupName = trace.str(trace.group(topGroupOf(trace, device)).name);
    const std::string program = executionProgram(trace, device);
    std::set<std::string> neffs;
    for (const auto &[key, value] : trace.metadata().entries)
        if (key.size() > kNeffFileSuffix.size() && key.ends_with(kNeffFileSuffix) && !value.empty()
            && (namesProgram(groupName, stemOf(value)) || (!program.empty() && program == stemOf(value))))
            neffs.insert(value);
    if (neffs.size() != 1) // none, or two programs with one stem: do not guess
        return {};
    const std::string &root = trace.metadata().sourcePath;
    return root.empty() ? *neffs.begin() : root + (root.back() == '/' ? "" : "/") + *neffs.begin();
}

} // namespace lanescope
