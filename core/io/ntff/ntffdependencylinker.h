#pragma once
// Device-side dependencies of an NTFF (or its neuron-profile JSON export), turned into flows of the
// trace model so that the dependency graph (core/analysis/dependencygraph.h) and the flow arrows see them:
//
//  * category "semaphore": producer -> waiter. An instruction that waits on semaphore S for value v
//    ("S[8]>=16", NtffSync) was released by the semaphore update that last made the condition true at
//    or before its start: the earliest update of the final run of values >= v ending at the start.
//    That update was made by its producer: the latest instruction that updates S (NtffSync update
//    fields; on the engine the event record names, when it names one) and started at or before the
//    update (an "++@complete" update lands up to ~30 ns before the row's end, so the end cannot be the
//    test); for DMA-side updates (record source 6, or no instruction updates S), taken in time order,
//    the latest DMA packet that completed at or before the update and is not yet credited with another
//    update (one completion, one increment), among the packets of S's queue when the rows name it (JSON
//    "semaphore_id"), among all packets otherwise (NTFF: the packet-to-semaphore map is in the NEFF; the
//    DGE queues have none in the JSON either). On the corpus pairs the NTFF and its JSON export give
//    identical links (tests/core/io/ntff/tst_ntffdependencylinker.cpp).
//    The flow's name names the semaphore and the released condition: "S[8] >= 16"; externalId = 8.
//    Semaphore updates are counter samples, not slices: a chain references one by its producer, with
//    the semaphore named on the edge.
//  * category "dma_queue": DMA_DIRECT2D (which names the semaphore its packets increment) -> each DMA
//    packet that produced an update of that semaphore from the trigger's start up to the next trigger
//    naming the same semaphore. Which packets fed which DGE semaphore is a timing inference where two
//    DGE queues run at once (the NTFF has no packet-to-semaphore field).
// A 1 ns tolerance covers the flooring of row times to whole ns. Semaphores belong to a physical core:
// on a trn2 file both cores' "S[8]" are different semaphores, linked within their core only.
#include "ntffprofile.h"

#include <cstdint>
#include <span>

namespace lanescope {

class TraceBuilder;

class NtffDependencyLinker
{
public:
    struct Result
    {
        uint64_t semaphoreLinks = 0;   // waiter edges made
        uint64_t unresolvedWaits = 0;  // waits on a semaphore with no releasing update or no known producer
        uint64_t dmaQueueLinks = 0;
        // increments (event op 0xf3) whose value is more than one above the update before it: the
        // updates between them are missing from the trace (event records lost by the capture)
        uint64_t incrementSkips = 0;
    };

    // instructionSlice[i] / dmaSlice[i]: the provisional slice index of profile.instructions[i] / dma[i].
    static Result link(const NtffProfile &profile, std::span<const uint32_t> instructionSlice,
                       std::span<const uint32_t> dmaSlice, TraceBuilder &builder);
};

} // namespace lanescope
