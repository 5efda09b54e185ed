#pragma once
// Device memory per NeuronCore and usage type from ntrace.pb's nrt_dma_mem_alloc / nrt_dma_mem_dealloc
// calls (docs/ntrace.md "Device memory"): + allocated_bytes when an allocation returns (its end
// record), - freed_bytes when a deallocation returns; the usage type is the `usage_type` name on the
// begin. A deallocation pairs with its allocation by (nc_idx, physical_address) (the address is on the
// allocation's end and the deallocation's begin), which also gives its usage type and size when its own
// records leave them out.
//
// The counters are the net bytes the trace saw allocated: memory allocated before tracing began (a
// tensor of 402 MB in the real capture) is not in them, and a deallocation of such memory can take a
// counter below 0 (a counted note). The runtime's own totals (`usage_type_total_bytes`, `total_bytes`)
// are kept as args: they run as one series per physical core that no record names.
#include "model/diagnostics.h"
#include "ntracecalls.h"
#include "ntracereader.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

struct NtraceMemorySeries
{
    int64_t nc = -1;
    std::string usage;
    std::vector<std::pair<int64_t, double>> samples; // (host ns, net bytes) in time order
};

struct NtraceMemoryCounters
{
    std::vector<NtraceMemorySeries> series; // by (nc, usage)
    uint64_t allocations = 0, deallocations = 0, paired = 0;
};

class NtraceMemory
{
public:
    static constexpr const char *kAlloc = "nrt_dma_mem_alloc";
    static constexpr const char *kDealloc = "nrt_dma_mem_dealloc";

    // `names[i]` is the type name of calls[i] (resolved through trace_info's table).
    static NtraceMemoryCounters build(const NtraceRecords &records, const std::vector<NtraceCall> &calls,
                                      const std::vector<std::string_view> &names, const std::string &file,
                                      Diagnostics &diagnostics);
};

} // namespace lanescope
