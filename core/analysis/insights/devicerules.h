#pragma once
// Device rules over the engine breakdown of NTFF / neuron-profile JSON data (EngineBreakdown,
// the `engines` table; docs/insights.md):
//   engine-bottleneck   one engine active >= 50 % of the window and >= 2 x the mean of the other
//                       engines with work (the core is bound by it; the others wait)
//   semaphore-wait      a working engine (active >= 10 %) waiting on semaphores longer than it
//                       computes, waits >= 25 % of the window
//   dma-bound           DMA active (all queues) >= 50 % of the window and longer than every engine
//   small-dma           average DMA transfer below 2 KiB over >= 100 packets
//   spill-reload        spill / reload queues carry > 25 % of the DMA bytes (Explorer: > 25 % of
//                       HBM reads)
//   throttling          the throttling counter below 1 for >= 5 % of the window
//   mfu-below-hfu       MFU < 50 % of HFU (Explorer)
//   tensor-transpose    transpose opcodes > 10 % of the Tensor engine's instruction time (Explorer)
#include "model/dmaqueuekind.h"
#include "rule.h"

#include <cstdint>
#include <string_view>

namespace lanescope {


namespace DeviceRules {
constexpr double kBottleneckPercent = 50.0;
constexpr double kBottleneckRatio = 2.0;
constexpr double kSemaphorePercent = 25.0;
constexpr double kSemaphoreMinActivePercent = 10.0;
constexpr double kDmaBoundPercent = 50.0;
constexpr double kSmallDmaBytes = 2048.0;
constexpr uint64_t kSmallDmaMinPackets = 100;
constexpr double kSpillPercent = 25.0;
constexpr double kThrottlePercent = 5.0;
constexpr double kMfuOfHfuPercent = 50.0;
constexpr double kTransposePercent = 10.0;

// DmaQueueKind, dmaQueueKind() and dmaQueueKindName(): model/dmaqueuekind.h

void addTo(RuleList &rules);
} // namespace DeviceRules

} // namespace lanescope
