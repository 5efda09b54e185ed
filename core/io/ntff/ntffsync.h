#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace lanescope {

// The sync fields of one instruction: the semaphore it waits on before it starts and the one it updates
// when it completes. NTFF: the common sync header at bytes 4..11 of the 64-byte instruction (ntff.md
// section 6: wait-op, wait-semaphore, update-op, update-semaphore, u32 wait value); DMA_DIRECT2D names
// the queue semaphore its packets increment at byte 13. neuron-profile JSON: parsed from "operands"
// ("S[8] (qSyncSpillReload0)>=16", "S[5] (Tensor)++@complete", "semaphore=24").
struct NtffSync
{
    static constexpr uint8_t kWaitGreaterEqual = 0x05; // "S[n]>=v"
    static constexpr uint8_t kWaitEvent = 0x07;        // "$E[n]==1-": an event flag, not a semaphore
    static constexpr uint8_t kOpDmaDirect2d = 0xb8;
    static constexpr size_t kHeaderByte = 4;
    static constexpr size_t kDmaSemaphoreByte = 13;

    uint32_t waitValue = 0;
    int16_t dmaSemaphore = -1; // DMA_DIRECT2D: the semaphore its packets update, -1 = none
    uint8_t waitOp = 0;        // 0 = no wait
    uint8_t waitSemaphore = 0;
    uint8_t updateOp = 0; // 0 = no update; 0x13 "++@complete"
    uint8_t updateSemaphore = 0;

    bool waitsOnSemaphore() const { return waitOp != 0 && waitOp != kWaitEvent; }
    bool updatesSemaphore() const { return updateOp != 0; }

    // Parses neuron-profile's operand text. Only plain "S[n]" references count: "$S[n]" (the runtime's
    // preamble barrier, in the EVENT_SEMAPHORE body, not in the sync header) and "$E[n]" (event flags)
    // are left out, as the NTFF decode of bytes 4..11 leaves them out.
    static NtffSync fromOperands(std::string_view operands);
};

} // namespace lanescope
