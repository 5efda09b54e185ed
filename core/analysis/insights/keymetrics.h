#pragma once
// The key metrics shown beside the findings (issue 17): device total / busy / idle, per-core and
// per-engine active %, DMA bytes and throughput by queue kind, average DMA size, MFU / HFU, framework
// CPU time vs device time, step count and median step time; MBU and HBM traffic by category where
// neuron-profile reported them (MemoryReport). Each is read from the device, engine
// and op tables of an InsightContext (no recount).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope {

class InsightContext;

struct KeyMetrics
{
    struct Device
    {
        std::string name;
        int64_t totalNs = 0, busyNs = 0, idleNs = 0;
        double busyPercent = 0;
    };
    struct Engine
    {
        std::string core, engine;
        int64_t activeNs = 0;
        double activePercent = 0;
    };
    struct DmaKind
    {
        std::string kind; // "io", "weights", "spill_reload", "other"
        uint64_t bytes = 0, packets = 0;
        int64_t activeNs = 0;             // summed over the kind's queues
        double throughputBytesPerSec = 0; // bytes / active time
    };

    int64_t spanNs = 0; // the analysed window
    std::vector<Device> devices;
    int64_t deviceTotalNs = 0, deviceBusyNs = 0, deviceIdleNs = 0; // summed over devices
    std::vector<Engine> engines;
    std::vector<DmaKind> dma;
    uint64_t dmaBytes = 0, dmaPackets = 0;
    double averageDmaBytes = 0;
    std::optional<double> mfuPercent, hfuPercent;
    // As neuron-profile reported them (MemoryReport): MBU, and HBM traffic by category
    // ("hbm_read_bytes", "hbm_write_bytes", "spill_reload_bytes", "spill_save_bytes"; those present).
    std::optional<double> mbuPercent;
    struct Traffic
    {
        std::string key, label;
        double bytes = 0;
    };
    std::vector<Traffic> hbmTraffic;
    int64_t frameworkCpuNs = 0; // CPU self summed over framework ops and runtime calls (op table)
    int64_t deviceNs = 0;       // execution-level device time (op table)
    uint64_t steps = 0;
    int64_t medianStepNs = 0;

    static KeyMetrics compute(InsightContext &context);
};

} // namespace lanescope
