#pragma once
// Host / framework rules (Kineto traces of GPU and Neuron runs alike; definitions, thresholds and
// sources in docs/insights.md):
//   device-idle         device idle between dispatches: idle share of each step (of the device's
//                       span without steps) >= 20 %, with the largest gaps and what the host did; a
//                       multi-rank trace: each rank's steps on its own devices
//   sync-stall          cuda*Synchronize / Neuron synchronise and wait calls >= 5 % of the hosts' time,
//                       recoverable the device idle gaps that begin inside them
//   launch-bound        ops whose runtime calls take at least as long (outside the device work they
//                       overlap) as the device work they launch, at most the idle their calls explain
//   host-device-copy    Memcpy HtoD / DtoH and nrt_tensor_write / read >= 10 % of the hosts' time
//   launch-latency      CPU launch end to device start; > 10 % of launches wait >= 100 us with the
//                       device idle
// All but device-idle are host-side: they look at starved devices only (DeviceStarvation: busy < 95 %).
#include "rule.h"

#include <string_view>

namespace lanescope {

namespace HostRules {
// device-idle, sync-stall, launch-bound, host-device-copy, launch-latency
RuleFunction deviceIdle, syncStall, launchBound, hostDeviceCopy, launchLatency;
// cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, hip*, nrt_*wait*, ... (sync-stall)
bool isSyncCall(std::string_view name);
// Memcpy HtoD / DtoH, nrt_tensor_write / read (host-device-copy)
bool isHostDeviceCopy(std::string_view name);
} // namespace HostRules

} // namespace lanescope
