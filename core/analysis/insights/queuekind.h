#pragma once
// The kinds of DMA traffic the insights tell apart (issue 17's key metrics and the spill-reload rule),
// and the kind a DMA queue's lane name suggests. DmaQueueKinds prefers what the paired NEFF says.
#include <cstdint>
#include <string_view>

namespace lanescope {

namespace DeviceRules {

enum class QueueKind : uint8_t { Io, Weights, SpillReload, Other };
// From the DMA queue's lane name ("qSyncSpillReload0-Q1-E0", "qIO...", "qWeight...").
QueueKind queueKind(std::string_view queueName);
const char *queueKindName(QueueKind k); // "io", "weights", "spill_reload", "other"

} // namespace DeviceRules

} // namespace lanescope
