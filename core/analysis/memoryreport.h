#pragma once
// Device memory of a NeuronCore profile (`lanescope-cli memory`, the Memory dock, the Summary's key
// metrics): what neuron-profile reported, read from the trace, never estimated here:
//   static memory      nc_mem_usage: bytes per usage type (Weights, Tensors, DMA Rings Spill, ...; "Total"
//                      as neuron-profile lists it), the NTFF's memory-usage table likewise
//   traffic            summary: HBM read / write, spill reload / save, SBUF and PSUM read / write bytes
//   MBU                summary.mbu_estimated_percent (neuron-profile's *_percent fields are fractions;
//                      here they are percent), beside MFU / HFU (mfu_ / hfu_estimated_percent)
//   counters           the SBUF / PSUM usage and DMA / HBM throughput lanes (instruction_usage,
//                      dma_throughput): peak and time-weighted mean of each, over its samples
// Checked equal to the JSON's own fields on every corpus export (tests/core/analysis/tst_memoryreport.cpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope {

class Trace;

struct MemoryReport
{
    struct Usage
    {
        std::string category;
        uint64_t bytes = 0;
    };
    struct Traffic
    {
        const char *key;   // "hbm_read_bytes": the summary field, the JSON key
        const char *label; // "HBM read"
        std::optional<double> bytes;
    };
    struct Counter
    {
        std::string name; // "SBUF usage (average)"
        std::string unit; // "fraction", "bytes/s"
        double peak = 0, mean = 0;
        int64_t peakAtNs = 0;
        uint64_t samples = 0;
    };
    std::vector<Usage> staticMemory;
    std::vector<Traffic> traffic; // always the eight fields, in this order
    std::optional<double> mbuPercent, mfuPercent, hfuPercent;
    std::vector<Counter> counters;

    bool hasTraffic() const;
    bool empty() const { return staticMemory.empty() && !hasTraffic() && counters.empty() && !mbuPercent; }
    const Traffic *trafficOf(const char *key) const;

    static MemoryReport compute(const Trace &trace);
    // The counter lanes this report reads (by name prefix), for views that draw them.
    static bool isMemoryCounter(const std::string &laneName);
};

} // namespace lanescope
