#pragma once
// What kind of traffic each DMA queue lane carries (issue 17's key metrics and the spill-reload
// rule): from the paired NEFF's DMA queue sets where the profile folder loader recorded them
// (metadata "<ntff>: neff.dma_queue.<lane>" = "<from type>-><to type>" of the queue's blocks with
// the most bytes), else from the lane's name (dmaQueueKind).
//   input / output on either side          io
//   a constant ("file", weight)            weights
//   state buffer <-> internal DRAM (virtual) spill_reload
//   anything else                          other
#include "model/dmaqueuekind.h"

#include <string>
#include <string_view>
#include <unordered_map>

namespace lanescope {

class Trace;

class DmaQueueKinds
{
public:
    static DmaQueueKinds fromTrace(const Trace &trace);
    // "input->state-buffer" -> Io, ...
    static DmaQueueKind fromTraffic(std::string_view traffic);
    // The kind of a DMA queue lane ("qSyncIO0-Q1-E0"): the NEFF's word for its queue, else its name.
    DmaQueueKind of(std::string_view laneName) const;
    // Whether the NEFF told the kind of that lane's queue.
    bool fromNeff(std::string_view laneName) const;

private:
    static std::string queueOf(std::string_view laneName); // "qSyncIO0-Q1-E0" -> "qSyncIO0"
    std::unordered_map<std::string, DmaQueueKind> m_neff;
};

} // namespace lanescope
