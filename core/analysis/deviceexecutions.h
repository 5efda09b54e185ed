#pragma once
// The device executions of a trace: the slices of the "executions" lanes a profile folder's NeuronCore
// groups carry (NeuronCoreLanes, core/io/ntff/neuroncorelanes.h), one per NEFF execution, and which execution
// an engine / DMA slice belongs to (the one of its lane set whose span holds its start). LaunchIndex,
// EngineBreakdown (one execution), `lanescope-cli engines --execution N` and the Engines dock's chooser
// read it. A single NTFF or neuron-profile JSON has no executions lane: the list is empty.
#include "model/ids.h"

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;

struct DeviceExecution
{
    SliceId slice;   // its slice on the executions lane
    GroupId core;    // the NeuronCore group
    GroupId laneSet; // the group holding its lanes: the core, or a set of overlapping executions
    int64_t start = 0, end = 0;
    std::string name; // "<network name> · <launching op>"
    StringId program; // the `program` arg (LaunchIndex's NEFF execution name), invalid when absent
    uint32_t number = 0; // 1-based, in trace order (`engines --execution N`)
};

class DeviceExecutions
{
public:
    static DeviceExecutions build(const Trace &trace);

    std::span<const DeviceExecution> all() const { return m_all; }
    bool empty() const { return m_all.empty(); }
    // Index into all() of the execution on lane set `laneSet` whose span holds t, or -1.
    int find(GroupId laneSet, int64_t t) const;
    // "3: rmsnorm_naive · aten::mul (NeuronCore 0)"
    std::string label(const Trace &trace, size_t index) const;

    static constexpr const char *kLaneName = "executions";
    static constexpr const char *kCategory = "neff_execution";

private:
    std::vector<DeviceExecution> m_all;
    std::unordered_map<uint32_t, std::vector<std::pair<int64_t, uint32_t>>> m_byLaneSet; // start, index
};

} // namespace lanescope
