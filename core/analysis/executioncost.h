#pragma once
// The model FLOPs of each device execution of a trace and the peak FLOP/s of the core it ran on: the
// inputs of the operator table's device FLOPs and MFU columns (OpTable).
//
// Where an execution's FLOPs come from (the executions lane of a profile folder, DeviceExecutions;
// its `ntff` arg names the device file the loader placed there):
//   an NTFF paired with an XLA-built NEFF   "<ntff>: neff.model_flops", 2 x the NEFF's hlo_stats.json
//                                           HloMacCount (docs/neff.md), recorded by ProfileFolderLoader
//   a neuron-profile JSON export            "<json>: neuron_profile.summary.model_flops" (its summary)
//   anything else                           none: NKI NEFFs (no hlo_stats.json), NTFFs without a NEFF,
//                                           GPU kernels. None is not 0: the columns stay null.
// The peak: EngineBreakdown::peakFlopsPerSec of that file's metadata (recorded clock, else the
// default of its instance_type), the same function as the `engines --table cores` MFU.
#include "launchindex.h"

#include <optional>
#include <vector>

namespace lanescope {

class Trace;

class ExecutionFlops
{
public:
    static ExecutionFlops build(const Trace &trace, const LaunchIndex &index);

    struct Entry
    {
        std::optional<double> flops; // model FLOPs of one execution, none = not known
        double peakFlopsPerSec = 0;  // 0 = unknown
    };
    // Of a work item of the index; execution-level NEFF executions only (anything else: none).
    const Entry &of(size_t work) const { return work < m_entries.size() ? m_entries[work] : m_none; }
    // Whether any work item carries FLOPs.
    bool any() const { return m_any; }

private:
    std::vector<Entry> m_entries; // per LaunchIndex work item
    Entry m_none;
    bool m_any = false;
};

} // namespace lanescope
