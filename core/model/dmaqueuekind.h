#pragma once
// The kinds of traffic a NeuronCore DMA queue carries, told from the queue's lane name
// ("qSyncSpillReload0-Q1-E0", "qSPIO0", "qWeight...", "Q0-E15"): the importer groups the DMA lanes
// by it, the insights' key metrics and spill-reload rule count by it (DmaQueueKinds prefers what
// the paired NEFF says a queue moves).
#include <cstdint>
#include <string_view>

namespace lanescope {

enum class DmaQueueKind : uint8_t { Io, Weights, SpillReload, Other };

DmaQueueKind dmaQueueKind(std::string_view queueName);
const char *dmaQueueKindName(DmaQueueKind k); // "io", "weights", "spill_reload", "other"

} // namespace lanescope
