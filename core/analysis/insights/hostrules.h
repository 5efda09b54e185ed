#pragma once
// Host / framework rules (Kineto traces of GPU and Neuron runs alike; definitions, thresholds and
// sources in docs/insights.md):
//   device-idle         device idle between dispatches: idle share of each step (of the device's
//                       span without steps) >= 20 %, with the largest gaps and what the host did
//   sync-stall          cuda*Synchronize / Neuron synchronise and wait calls >= 5 % of the window
//   launch-bound        ops whose runtime calls take at least as long (outside the device work they
//                       overlap) as the device work they launch
//   host-device-copy    Memcpy HtoD / DtoH and nrt_tensor_write / read >= 10 % of the window
//   launch-latency      CPU launch end to device start; > 10 % of launches queued >= 100 us
#include "rule.h"

namespace lanescope {


class DeviceIdleRule : public Rule
{
public:
    static constexpr double kThresholdPercent = 20.0;
    static constexpr size_t kLargestGaps = 5;
    std::string_view id() const override { return "device-idle"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

class SyncStallRule : public Rule
{
public:
    static constexpr double kThresholdPercent = 5.0;
    std::string_view id() const override { return "sync-stall"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
    // cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, hip*, nrt_*wait*, ...
    static bool isSyncCall(std::string_view name);
};

class LaunchBoundRule : public Rule
{
public:
    static constexpr double kThresholdRatio = 1.0;
    std::string_view id() const override { return "launch-bound"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

class HostDeviceCopyRule : public Rule
{
public:
    static constexpr double kThresholdPercent = 10.0;
    std::string_view id() const override { return "host-device-copy"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
    static bool isHostDeviceCopy(std::string_view name); // Memcpy HtoD / DtoH, nrt_tensor_write / read
};

class LaunchLatencyRule : public Rule
{
public:
    static constexpr int64_t kQueuedNs = 100000; // HTA's launch_delay_cutoff
    static constexpr double kThresholdPercent = 10.0;
    std::string_view id() const override { return "launch-latency"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

namespace HostRules {
void addTo(RuleList &rules);
}

} // namespace lanescope
