#pragma once
// Writes a valid NTFF v5 (128-byte header, protobuf metadata, contiguous sections of 16-byte records),
// or with `version` 6 the v6 shape of one physical core (the recorded window, sections at the top level
// tagged with the core of `cores[0].index`; programs stay in the metadata, which the reader accepts),
// from an NtffProfile-like description: the metadata, programs, runtime blocks, DMA queues and clock
// table come from an NtffProfile (its rows are ignored); records are added one by one with times in
// picoseconds since the clock sync point. Used for round-trip tests and to generate large inputs for
// benchmarks. Each record's time is rounded up to the next tick of its clock domain (exact for the
// engine and event clocks of the default table, whose ticks are shorter than 1 ps).
#include "io/ntff/ntffprofile.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace lanescope {

class NtffWriter
{
public:
    // `layout`: version 6 or else 5; clocks default to defaultClocks() when empty; the window
    // (windowStartPs / windowEndPs) and the physical core (cores[0].index) are written when set.
    explicit NtffWriter(const NtffProfile &layout);

    // Clock table shaped like the real files: engines, events, throttle, 16 DMA engines.
    static std::vector<NtffClock> defaultClocks();
    // A program of `opcodes` (NOTIFY hints set where given, others 0), at a default device address.
    static NtffProgram makeProgram(NtffEngine engine, std::vector<uint8_t> opcodes,
                                   std::vector<uint8_t> notifyHints = {});

    // Instruction begin + end records (engine clock). waitCycles <= 0xffff.
    void addInstruction(NtffEngine engine, uint32_t pc, int64_t beginPs, int64_t endPs, uint32_t waitCycles = 0,
                        uint16_t crcIn = 0xffff, uint16_t crcOut = 0xffff, uint8_t flags = 0);
    // Only a begin or only an end (for tests of unpaired records).
    void addInstructionRecord(NtffEngine engine, uint32_t pc, bool end, int64_t ps, uint32_t arg = 0);
    // DMA packet: start (type 1), data complete (type 5) and a later completion (type 6) at endPs.
    void addDmaPacket(uint32_t engine, uint32_t queue, int64_t startPs, int64_t endPs, uint32_t transferSize,
                      uint16_t crc, bool withLateCompletion = true);
    // Only a start (type 1) or only a data-complete (type 5) record.
    void addDmaRecord(uint32_t engine, uint32_t queue, uint32_t type, int64_t ps, uint32_t transferSize = 0,
                      uint16_t crc = 0);
    // Semaphore update (event record with bit 8 set); source 1..5 engine, 6 DMA.
    void addSemaphoreUpdate(uint8_t id, int64_t ps, uint32_t value, uint8_t source = 1, uint8_t op = 0xf3);
    // An event record that is not a semaphore update.
    void addOtherEvent(uint8_t id, int64_t ps);
    // Throttle row: type 99 = not throttled; otherwise k of n.
    void addThrottle(int64_t ps, uint32_t k, uint32_t n, uint32_t type = 0, uint8_t reason = 0x06);

    uint64_t recordCount() const;
    uint64_t fileSize() const;

    // The whole file in memory, or streamed to `path`. save() throws std::runtime_error on I/O errors.
    std::string bytes() const;
    void save(const std::string &path) const;

private:
    struct Conv
    {
        bool valid = false;
        uint64_t base = 0, mul = 1, div = 1;
    };
    enum Section { SecInstructions, SecEvents, SecEmpty, SecDma, SecThrottle, SecCount };

    Conv clock(uint32_t field, uint32_t index) const;
    uint64_t toRaw(const Conv &c, int64_t ps) const;
    void append(Section s, uint32_t hdr, uint32_t arg, uint64_t ts);
    std::string metadata() const;
    std::string header(size_t metadataSize) const;
    void writeAll(std::FILE *f, const std::string &path) const;

    NtffProfile m_layout;
    std::array<Conv, kNtffEngineCount> m_engineClock;
    std::array<uint32_t, kNtffEngineCount> m_engineBase16{};
    Conv m_eventClock, m_throttleClock;
    std::array<Conv, 16> m_dmaClock;
    std::array<std::string, SecCount> m_sections;
};

} // namespace lanescope
