#pragma once
// One NeuronCore, one set of lanes. The device timelines of a profile folder (NTFFs, neuron-profile JSON
// exports: one device execution each) that ran on the same (instance, NeuronCore) share one group
// "NeuronCore <n>[ · <instance>]": ProfileFolderLoader merges every execution's engine, DMA-queue,
// counter and semaphore lanes into it (TraceMerger, MergeOptions::shareLanes), so they hold every
// execution's events in time order. Its first lane, "executions", has one slice per device execution
// (category "neff_execution"), named "<NEFF network name> · <framework op that launched it>" (without a
// known op "<network name> (<program>)"), with args
//   program       the execution's program name ("neff_<hash>", the NEFF's stem): LaunchIndex's NEFF name
//   network_name  the NEFF's network name;  launched_by  the framework op;  ntff, neff  the files
//   alignment     how it was placed on the host clock (ClockAlignment's note)
// LaunchIndex and EngineBreakdown take one execution as the slices of its lane set inside that slice.
//
// Executions that overlap in time on one core cannot both have run (a core runs one NEFF at a time): it is
// a clock-alignment problem, so they are never merged silently. Each execution, in start order, takes the
// first lane set whose executions have all ended: the core's own lanes, else a child group
// "overlapping executions (set <k>)" with a set of lanes of its own; every execution put on a second set
// is counted in one warning naming the core.
#include "model/tracebuilder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

class NeuronCoreLanes
{
public:
    struct Execution
    {
        int instance = 0;          // process folder / instance (FolderScan group)
        std::string instanceLabel; // appended to the group name when not empty: " · i-0abc (pid 7)"
        int64_t core = 0;
        int64_t start = 0, end = 0; // on the merged clock
        std::string program;        // see the header comment
        std::string networkName;
        std::string launchedBy;
        std::string ntff, neff, alignment;
    };
    struct Placement
    {
        GroupId parent;     // merge the execution's lanes below it with MergeOptions::shareLanes
        int set = 0;        // 0: the core's own lanes; k: the k-th set of overlapping executions
        uint32_t slice = 0; // provisional index of its slice on the executions lane
    };

    // Makes the core groups, lane sets, executions lanes and slices in `b`, warns about overlaps, and
    // returns one placement per execution (same order). Core groups get sortIndex sortBase + k.
    static std::vector<Placement> place(TraceBuilder &b, const std::vector<Execution> &executions, int64_t sortBase);

    static std::string sliceName(const Execution &e);
    static std::string coreGroupName(int64_t core, const std::string &instanceLabel);

    static constexpr const char *kLaneName = "executions";
    static constexpr const char *kCategory = "neff_execution";
    static constexpr int64_t kLaneSortIndex = -1000; // above the engine lanes
};

} // namespace lanescope
