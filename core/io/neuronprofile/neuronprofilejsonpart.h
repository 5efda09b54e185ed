#pragma once
// What one text of a neuron-profile JSON export adds to the NtffProfile: a window of one of its big row
// arrays (parsed on any thread, JsonWindowSplitter) or a top-level piece (the small tables and anything
// not windowed, parsed on the reading thread). NeuronProfileJsonReader merges the parts in file order;
// whatever depends on the rows before it (the code of an opcode name the built-in table lacks, the
// first name of a semaphore, the first lane name of a DMA queue) is decided there, so the profile is
// the one a single pass builds: the same rows, codes and warnings with the same first offsets.
#include "io/ntff/ntffprofile.h"

#include <array>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lanescope {

// Rows between cancel checks / progress reports of the neuron-profile JSON reader.
constexpr uint64_t kNeuronProfileCheckEvery = 4096;
// A DMA queue as the JSON reader keys it: engine (0..255, trn2 64..95) x 16 + queue.
constexpr size_t kNeuronProfileQueueKeys = 256 * 16;
// The `core` of a part's row before the merge: a part-local subgraph index (a position in
// NeuronProfileJsonPart::subgraphs), or one of these.
constexpr uint8_t kNoSubgraph = 255;        // the row has no "subgraph" (2.27 exports: the one core)
constexpr uint8_t kSubgraphOverflow = 254;  // the 255th and later distinct names of one part

struct NeuronProfileJsonPart
{
    // This text's rows (instructions, instructionSync, dma, dmaSemaphore, semaphores, throttle,
    // memoryUsage) and its warnings. An instruction whose opcode name the built-in table lacks has
    // opcode 0 and extraOpcode = 1 + its index in opcodeNames. Every row's `core` is a part-local
    // subgraph index (kNoSubgraph, kSubgraphOverflow), the profile's position in `cores` after the merge.
    NtffProfile rows;
    std::vector<std::string> subgraphs; // 2.28+ "subgraph" of the rows ("sg00", "sg01"), in order of first use
    std::vector<uint64_t> subgraphFirst; // parallel: file offset of the first row naming each
    struct Unplaced                     // rows of one table without a "subgraph"
    {
        uint64_t rows = 0;
        uint64_t first = 0; // file offset of the first
    };
    std::array<Unplaced, 4> withoutSubgraph; // instruction, dma, semaphore_update, ham
    std::vector<std::pair<int64_t, uint64_t>> memoryNc; // parallel to rows.memoryUsage: nc_mem_usage "nc" (-1: none), offset
    std::vector<std::string> opcodeNames;
    std::vector<uint64_t> opcodeOffsets; // where each was first used
    struct QueueLane                     // the first dma row of a queue with a "subgroup": its lane name
    {
        uint16_t key = 0; // engine * 16 + queue
        std::string lane;
        uint8_t core = kNoSubgraph; // part-local subgraph of that row
    };
    std::vector<QueueLane> queueLanes;
    struct SemaphoreName // "S[8] (qSyncSpillReload0)" rows, one entry per (id, name) in order of first use
    {
        uint8_t id = 0;
        uint8_t core = kNoSubgraph; // part-local subgraph: semaphores are per physical core
        std::string name;
        uint64_t offset = 0; // the first such row
        uint64_t rows = 0;
        size_t warningsBefore = 0; // rows.diagnostics.warnings().size() at that first row
    };
    std::vector<SemaphoreName> semaphoreNames;
    // Instruction "id"s (parallel to rows.instructions; 0 = none) and the "predecessors" that name them
    // (the compiler's dependencies), resolved to NtffProfile::dependencies once every part is merged.
    struct Predecessor
    {
        uint32_t instruction = 0; // position in rows.instructions (after the merge: in the profile's)
        uint32_t type = 0;        // "type" ("FLOW_DEPENDENCE"): rows.names (1-based), 0 = none
        uint64_t id = 0;          // the predecessor's "id"
    };
    std::vector<uint64_t> instructionIds;
    std::vector<Predecessor> predecessors;
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
        std::string subgraph; // its physical core ("sg00"; both versions write it)
        uint32_t ok = 0;
        uint64_t offset = 0;
    };
    struct ModelInfoRow // one model_info row: one physical core (2.28: sg00 nc_idx 4, sg01 nc_idx 5)
    {
        std::string subgraph;              // sg_name
        std::optional<uint32_t> index;     // nc_idx: the physical core number
        std::array<std::optional<uint64_t>, kNtffEngineCount> instructions; // by NtffEngine - 1
        std::optional<uint64_t> events;    // event_count
        uint64_t offset = 0;
    };
    NtffProfile &profile;
    std::vector<QueueRow> queueRows;
    std::vector<ModelInfoRow> modelInfo;
    std::optional<int64_t> physicalCores; // metadata num_physical_cores
    bool sawInstruction = false;
    bool sawTraceEvents = false;
    bool sawLastHw = false;
    std::vector<std::string> sawTables; // top-level keys of the small tables, for the notes on missing ones
};

} // namespace lanescope
