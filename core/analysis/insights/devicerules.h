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
#include "rule.h"

namespace lanescope {

namespace DeviceRules {
// engine-bottleneck, semaphore-wait, dma-bound, small-dma, spill-reload, throttling, mfu-below-hfu,
// tensor-transpose
EngineRuleFunction engineBottleneck, semaphoreWait, dmaBound, smallDma, spillReload, throttling, mfuBelowHfu,
    tensorTranspose;
} // namespace DeviceRules

} // namespace lanescope
