#pragma once
// What one text of a neuron-profile JSON export adds to the NtffProfile: a window of one of its big row
// arrays (parsed on any thread, JsonWindowSplitter) or a top-level piece (the small tables and anything
// not windowed, parsed on the reading thread). NeuronProfileJsonReader merges the parts in file order;
// whatever depends on the rows before it (the code of an opcode name the built-in table lacks, the
// first name of a semaphore, the first lane name of a DMA queue) is decided there, so the profile is
// the one a single pass builds: the same rows, codes and warnings with the same first offsets.
#include "io/ntff/ntffprofile.h"

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace lanescope {

// Rows between cancel checks / progress reports of the neuron-profile JSON reader.
constexpr uint64_t kNeuronProfileCheckEvery = 4096;

struct NeuronProfileJsonPart
{
    // This text's rows (instructions, instructionSync, dma, dmaSemaphore, semaphores, throttle,
    // memoryUsage) and its warnings. An instruction whose opcode name the built-in table lacks has
    // opcode 0 and extraOpcode = 1 + its index in opcodeNames.
    NtffProfile rows;
    std::vector<std::string> opcodeNames;
    std::vector<uint64_t> opcodeOffsets; // where each was first used
    struct QueueLane                     // the first dma row of a queue with a "subgroup": its lane name
    {
        uint16_t key = 0; // engine * 16 + queue
        std::string lane;
    };
    std::vector<QueueLane> queueLanes;
    struct SemaphoreName // "S[8] (qSyncSpillReload0)" rows, one entry per (id, name) in order of first use
    {
        uint8_t id = 0;
        std::string name;
        uint64_t offset = 0; // the first such row
        uint64_t rows = 0;
        size_t warningsBefore = 0; // rows.diagnostics.warnings().size() at that first row
    };
    std::vector<SemaphoreName> semaphoreNames;
    uint64_t rowCount = 0; // row objects read, kept or skipped
    std::string lead;      // a window: JsonWindow::lead, the top-level text before it, parsed when merged
    uint64_t leadOffset = 0;
    uint64_t textBytes = 0;
    uint64_t end = 0; // a window: the file offset after its text
    std::exception_ptr error; // a window's ImportError / LoadCancelled, thrown when it is merged

    void clear();
};

// The small tables of the export and the reader's state across parts (the reading thread only).
struct NeuronProfileJsonTables
{
    struct QueueRow // one dma_queues_info row
    {
        NtffDmaQueue queue;
        uint32_t ok = 0;
        uint64_t offset = 0;
    };
    NtffProfile &profile;
    std::vector<QueueRow> queueRows;
    bool sawInstruction = false;
    bool sawTraceEvents = false;
    bool sawLastHw = false;
    std::vector<std::string> sawTables; // top-level keys of the small tables, for the notes on missing ones
};

} // namespace lanescope
