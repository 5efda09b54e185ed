#pragma once
// What each NEFF execution of a trace did on its core, as the operator table charges it to the op
// that launched it (OpTable's device FLOPs, MFU and DMA bytes columns): its model FLOPs, the peak
// FLOP/s of the core it ran on and the bytes of its DMA rows. Range-independent, so built once per
// trace (TraceAnalysis::executionCost) and shared by every recomputation of the table.
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
// DMA bytes: the sum of `transfer_size` of the DMA rows (packets) LaunchIndex placed inside the
// execution.
#include "launchindex.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace lanescope {

class Trace;

class ExecutionCost
{
public:
    static ExecutionCost build(const Trace &trace, const LaunchIndex &index);

    struct Entry
    {
        std::optional<double> flops; // model FLOPs of one execution, none = not known
        double peakFlopsPerSec = 0;  // 0 = unknown
        uint64_t dmaBytes = 0;       // transfer_size of its DMA rows
    };
    // Of a work item of the index; NEFF executions only (anything else: none, 0 bytes).
    const Entry &of(size_t work) const { return work < m_entries.size() ? m_entries[work] : m_none; }
    // Whether any work item carries FLOPs.
    bool any() const { return m_any; }

private:
    std::vector<Entry> m_entries; // per LaunchIndex work item; empty when the trace has no NEFF execution
    Entry m_none;
    bool m_any = false;
};

} // namespace lanescope
