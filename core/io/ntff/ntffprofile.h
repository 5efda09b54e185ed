#pragma once
// Plain data decoded from an NTFF (raw AWS Neuron device trace, versions 4, 5 and 6), see docs/ntff.md.
// Produced by NtffReader, consumed by NtffImporter, the CLI and NtffWriter. Times of rows are integer
// nanoseconds from the trace origin (v4/v5: the end of the start NOTIFY; v6: the window the file
// records), floored exactly as neuron-profile's JSON export does.
//
// One NTFF traces one logical NeuronCore. On Trainium2 (NeuronCore-v3) that is two physical cores, each
// with its own subgraph message, programs, DMA queues, clocks and record sections: NtffProfile::cores
// lists them, and every program, section, queue, clock and row says which one (`core`, a position in
// `cores`). inf2 / trn1 files have one.
#include "model/diagnostics.h"
#include "ntffsync.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

// Engine ids as written in instruction and event records (hdr bits 26..30).
enum class NtffEngine : uint8_t { Tensor = 1, Scalar = 2, GpSimd = 3, Vector = 4, Sync = 5 };
constexpr int kNtffEngineCount = 5;

// Lanes as neuron-profile labels them: MATMUL on the Tensor engine is "TensorMatrix". The order is
// the display order.
enum class NtffLane : uint8_t { Tensor, TensorMatrix, Vector, Scalar, GpSimd, Sync };
constexpr int kNtffLaneCount = 6;

inline std::string_view ntffEngineName(NtffEngine e)
{
    switch (e) {
    case NtffEngine::Tensor: return "Tensor";
    case NtffEngine::Scalar: return "Scalar";
    case NtffEngine::GpSimd: return "GpSimd";
    case NtffEngine::Vector: return "Vector";
    case NtffEngine::Sync: return "Sync";
    }
    return "?";
}

inline std::string_view ntffLaneName(NtffLane l)
{
    static constexpr std::array<std::string_view, kNtffLaneCount> names = {"Tensor", "TensorMatrix", "Vector",
                                                                           "Scalar", "GpSimd",       "Sync"};
    return names[static_cast<size_t>(l)];
}

inline NtffLane ntffLaneOf(NtffEngine e)
{
    switch (e) {
    case NtffEngine::Tensor: return NtffLane::Tensor;
    case NtffEngine::Scalar: return NtffLane::Scalar;
    case NtffEngine::GpSimd: return NtffLane::GpSimd;
    case NtffEngine::Vector: return NtffLane::Vector;
    case NtffEngine::Sync: return NtffLane::Sync;
    }
    return NtffLane::Tensor;
}

// Opcode byte -> name (ntff.md section 6); unknown opcodes are named "op 0x41", never dropped.
inline std::string_view ntffOpcodeName(uint8_t opcode)
{
    static const std::array<std::string, 256> names = [] {
        std::array<std::string, 256> n;
        static constexpr char hex[] = "0123456789abcdef";
        for (size_t i = 0; i < n.size(); ++i)
            n[i] = std::string("op 0x") + hex[i >> 4] + hex[i & 15];
        n[0x01] = "LDWEIGHTS";
        n[0x02] = "MATMUL";
        n[0x21] = "ACTIVATE";
        n[0x23] = "ACT_TABLE_LOAD";
        // learned from neuron-profile 2.28 exports of trn2 NTFF v6 files (docs/ntff.md, section 6)
        n[0x42] = "TENSOR_REDUCE";
        n[0x43] = "TENSOR_SCALAR";
        n[0x46] = "COPY";
        n[0x47] = "CAST";
        n[0x48] = "RECIPROCAL";
        n[0xa0] = "EVENT_SEMAPHORE";
        n[0xa2] = "DRAIN";
        n[0xa4] = "NOP";
        n[0xa5] = "WRITE";
        n[0xa6] = "NOTIFY";
        n[0xa9] = "COMPARE_BRANCH";
        n[0xaa] = "TENSOR_LOAD";
        n[0xab] = "TENSOR_STORE";
        n[0xb0] = "EVENT_SEMAPHORE_RANGE_CLEAR";
        n[0xb1] = "SET_ORDERING_MODE";
        n[0xb8] = "DMA_DIRECT2D";
        return n;
    }();
    return names[opcode];
}

// Whether the built-in table names `opcode` (otherwise it shows as "op 0x41").
inline bool ntffOpcodeKnown(uint8_t opcode)
{
    return ntffOpcodeName(opcode).substr(0, 5) != "op 0x";
}

// neuron-profile renames DMA queue prefixes: qPool -> qGpSimd, qSP -> qSync, qAct -> qScalar.
inline std::string ntffQueueDisplayName(std::string_view name)
{
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 3> renames = {
        {{"qPool", "qGpSimd"}, {"qSP", "qSync"}, {"qAct", "qScalar"}}};
    for (const auto &[from, to] : renames)
        if (name.substr(0, from.size()) == from)
            return std::string(to) + std::string(name.substr(from.size()));
    return std::string(name);
}

constexpr uint8_t kNtffOpMatmul = 0x02;
constexpr uint8_t kNtffOpNotify = 0xa6;
constexpr size_t kNtffInstructionBytes = 64; // one instruction of an embedded program
constexpr size_t kNtffNotifyHintByte = 36;   // NOTIFY: 2 = execution start, 3 = execution end
constexpr size_t kNtffRecordBytes = 16;      // u32 hdr, u32 arg, u64 ts (little-endian)
constexpr size_t kNtffMetadataOffset = 0x80; // the protobuf message starts here
constexpr size_t kNtffMaxCores = 8;          // physical cores (subgraph messages) decoded per file
// |ps| above this is treated as a corrupt timestamp (about 53 days), so differences never overflow.
constexpr int64_t kNtffMaxPs = int64_t(1) << 62;

struct NtffRuntimeBlock
{
    uint32_t pc = 0;    // first instruction (byte offset / 64)
    uint64_t count = 0; // instructions
    uint32_t kind = 0;  // 0: runtime-inserted instructions; 2: NEFF instructions elided before `pc`
};

// The executed instruction stream of one engine (pb sg.f4) and its runtime blocks (sg.f5).
struct NtffProgram
{
    uint8_t core = 0; // position in NtffProfile::cores
    NtffEngine engine = NtffEngine::Tensor;
    uint32_t streamIndex = 0; // pb index 0..4 = PE, ACT, POOL, DVE, SP
    uint64_t address = 0;     // device byte address of instruction 0
    std::vector<uint8_t> opcodes;     // per pc
    std::vector<uint8_t> notifyHints; // per pc: byte 36 (meaningful on NOTIFY only)
    std::vector<NtffSync> sync;       // per pc (may be empty: programs built by hand)
    std::vector<int32_t> neffIndex;   // per pc: NEFF instruction index (JSON compiler_pc), -1 = runtime-inserted
    std::vector<NtffRuntimeBlock> runtimeBlocks;

    size_t size() const { return opcodes.size(); }

    // Fills neffIndex from runtimeBlocks: pcs not covered by kind-0 blocks are the NEFF instructions
    // in order; a kind-2 block {pc p, count c} means c NEFF instructions were elided just before p
    // (counted when p itself is not covered). Reproduces the JSON compiler_pc (ntff.md section 2.1).
    void computeNeffIndices()
    {
        const size_t n = size();
        std::vector<uint8_t> covered(n, 0);
        std::vector<uint64_t> elided(n, 0);
        for (const auto &b : runtimeBlocks) {
            if (b.pc >= n)
                continue;
            if (b.kind == 2)
                elided[b.pc] = std::min<uint64_t>(elided[b.pc] + b.count, uint64_t(1) << 40);
            else
                std::fill_n(covered.begin() + b.pc, std::min<uint64_t>(b.count, n - b.pc), uint8_t(1));
        }
        neffIndex.assign(n, -1);
        uint64_t index = 0;
        for (size_t pc = 0; pc < n; ++pc) {
            if (covered[pc])
                continue;
            index += elided[pc];
            if (index <= uint64_t(INT32_MAX))
                neffIndex[pc] = static_cast<int32_t>(index);
            ++index;
        }
    }
};

struct NtffSection
{
    uint32_t kind = 0;   // 0 instructions, 1 events, 2 (unknown, empty), 4 DMA, 5 throttle
    uint32_t flag = 0;
    uint64_t offset = 0; // from the start of the payload
    uint64_t size = 0;   // bytes as declared
    uint64_t available = 0; // bytes present in the file (< size when truncated)
    uint64_t descriptorOffset = 0; // file byte of the section's metadata entry (for errors)
    uint8_t core = 0; // position in NtffProfile::cores (last: positional initialisers stay valid)
};

struct NtffDmaQueue
{
    uint32_t engine = 0; // DMA engine as neuron-profile numbers it: 0..15; 64.. on trn2 (16 x physical core + 0..15)
    uint32_t queue = 0;  // queue index 0..15
    uint32_t type = 0;   // queue-type enum (meaning unknown)
    std::string name;        // as in the file, e.g. qSPSpillReload0
    std::string displayName; // as neuron-profile shows it, e.g. qSyncSpillReload0
    uint8_t core = 0; // position in NtffProfile::cores (last: positional initialisers stay valid)
};

struct NtffClock
{
    uint32_t field = 0; // sg.f10 field number (1..5 engines, 6 events, 7 throttle, 8 DMA, 9 unknown)
    uint32_t index = 0; // repetition index (DMA engine for field 8)
    uint64_t base = 0;
    uint64_t div = 1;
    uint64_t mul = 1;
    uint8_t core = 0; // position in NtffProfile::cores (last: positional initialisers stay valid)
};

struct NtffMemoryUsage
{
    uint64_t index = 0;
    uint64_t bytes = 0;
    std::string category; // v5 only
    uint8_t core = 0; // position in NtffProfile::cores (last: positional initialisers stay valid)
};

struct NtffInstructionRow
{
    int64_t timestamp = 0; // ns from the origin
    int64_t duration = 0;  // ns
    uint32_t pc = 0;
    int32_t compilerPc = -1;   // NEFF instruction index, -1 = none (runtime-inserted)
    uint32_t evtWaitTime = 0;  // semaphore/event wait in ns: cycles / the clock (1.4 GHz inf2/trn1, 1.2 GHz trn2)
    uint16_t crcIn = 0xffff;
    uint16_t crcOut = 0xffff;
    NtffEngine engine = NtffEngine::Tensor; // JSON subgroup
    NtffLane lane = NtffLane::Tensor;       // JSON label
    uint8_t opcode = 0;
    uint8_t flags = 0; // hdr bits 16..23 of the begin record; 0x20 = branch taken
    uint8_t core = 0;  // physical core: position in NtffProfile::cores (JSON "subgraph")
    // 0: `opcode` names the instruction. n > 0: the name is NtffProfile::extraOpcodeNames[n - 1] (a name
    // read from neuron-profile JSON that ntffOpcodeName does not know; `opcode` is then 0), or the name a
    // neuron-profile JSON of the same program gives an NTFF row's unknown byte (OpcodeNameTable; `opcode`
    // keeps the byte).
    uint16_t extraOpcode = 0;

    // The name of the opcode byte; NtffProfile::opcodeName(row) also knows extra names.
    std::string_view opcodeName() const { return ntffOpcodeName(opcode); }
    bool hasCompilerPc() const { return compilerPc >= 0; }
};
static_assert(sizeof(NtffInstructionRow) <= 40);

struct NtffDmaRow
{
    int64_t timestamp = 0; // ns, packet start
    int64_t duration = 0;  // ns, data-complete minus start
    uint32_t transferSize = 0;
    uint16_t crc = 0;
    uint8_t engine = 0; // DMA engine (JSON dma_engine, as a decimal string): 0..15; trn2 64..95 (16 x physical core + 0..15)
    uint8_t queue = 0;  // queue 0..15 (JSON dma_queue, as a decimal string)
    uint8_t core = 0;   // physical core: position in NtffProfile::cores
};
static_assert(sizeof(NtffDmaRow) <= 32);

struct NtffSemaphoreRow
{
    int64_t timestamp = 0; // ns
    uint32_t value = 0;
    uint8_t id = 0;     // JSON id (a decimal string, or "S[n] (name)" with NEFF names)
    uint8_t op = 0;     // hdr bits 16..23 (meaning uncertain)
    uint8_t source = 0; // 1..5 engines, 6 DMA side
    uint8_t flags = 0;  // bit 0: produced by EVENT_SEMAPHORE_RANGE_CLEAR (hdr bit 30)
    uint8_t core = 0;   // physical core: position in NtffProfile::cores
};
static_assert(sizeof(NtffSemaphoreRow) <= 24);

struct NtffThrottleRow // JSON "ham"
{
    int64_t timestamp = 0; // ns
    int64_t duration = 0;  // ns: to the next row, the last row to last_hw_timestamp
    uint32_t k = 0;
    uint32_t n = 0;
    uint32_t type = 0; // 99 = not throttled (k = n = 1); trn2: arg bits 8..15
    uint8_t reason = 0; // hdr bits 0..7 (meaning unknown)
    uint8_t core = 0;   // physical core: position in NtffProfile::cores
};

// Where an instruction sits in the compiled model: its framework layer and its HLO op (neuron-profile
// JSON "layer" / "hlo_name"). 1-based indices into NtffProfile::names, 0 = none.
struct NtffInstructionOp
{
    uint32_t layer = 0;
    uint32_t hlo = 0;
};

// What a DMA row moves: the tensor (JSON "variable") and the memories it reads and writes ("source"
// [["WEIGHT"]], "dest" ["SB"]), and its queue's type as the export names it ("queue_type":
// "hardware_dynamic", "software_dynamic", "instruction", "data"). 1-based indices into
// NtffProfile::names, 0 = none or "unknown".
struct NtffDmaTag
{
    uint32_t variable = 0;
    uint32_t source = 0;
    uint32_t dest = 0;
    uint32_t queueType = 0;
};

// A DMA transfer as neuron-profile summarises it (JSON "dma" rows with "aggregated": "yes"): one block of
// packets, its total size, on its queue; the packets themselves are NtffProfile::dma rows.
struct NtffDmaBlock
{
    int64_t timestamp = 0; // ns
    int64_t duration = 0;
    uint64_t transferSize = 0;
    std::string queue; // the row's "subgroup": "qSyncSpillReload0"
    NtffDmaTag tag;
};

// A counter neuron-profile computed over time (JSON instruction_usage, dma_throughput): "SBUF usage
// (average)" in "fraction", "HBM throughput" in "bytes/s"; samples (ns, value) in file order.
struct NtffCounterSeries
{
    std::string name;
    std::string unit;
    std::vector<std::pair<int64_t, double>> samples;
    uint8_t core = 0; // physical core (2.28 "subgraph"): position in NtffProfile::cores
};

// Rows neither an NTFF nor its JSON export carries, read from a processed Neuron Explorer profile
// (core/io/explorer/): each on a lane of its own in the lane set of its physical core, or of the logical
// NeuronCore (kNtffLogicalCore: CcOp and CcInstruction name no physical core). The lanes:
//   "collective ops"        CcOp, category "cc_op", named as the operation ("AllGather")
//   "CC-Core N"             CcInstruction of collective core N, category "cc_instruction" (the firmware name)
//   "core barriers"         CoreBarriers, category "core_barrier" (the compiler opcode)
//   "errors"                Error as instants (duration -1), category "hardware_error" (the description)
constexpr uint8_t kNtffLogicalCore = 255;

struct NtffEventLane
{
    std::string name;     // "collective ops"
    std::string category; // of its slices: "cc_op"
    uint8_t core = kNtffLogicalCore;
    int64_t sortIndex = 0; // among the lanes of its lane set (engine lanes 0..5, DMA queues 100..)
};

// One arg of a lane event: key and text are indices into NtffProfile::names (1-based); numbers as read.
struct NtffEventArg
{
    enum class Kind : uint8_t { Int, Real, Text };
    uint32_t key = 0;
    Kind kind = Kind::Int;
    int64_t integer = 0;
    double real = 0;
    uint32_t text = 0;
};

struct NtffLaneEvent
{
    int64_t timestamp = 0; // ns
    int64_t duration = 0;  // ns; -1: an instant
    uint32_t lane = 0;     // position in NtffProfile::eventLanes
    uint32_t name = 0;     // NtffProfile::names (1-based; 0: the lane's category)
    uint32_t firstArg = 0; // NtffProfile::eventArgs[firstArg, firstArg + argCount)
    uint32_t argCount = 0;
};

// A dependency edge the profile names (Neuron Explorer's Flow table; the compiler's dependencies between
// instructions, and between instructions and DMA transfers): a flow of category "dependency" named as
// its dependency type ("FLOW_DEPENDENCE"), from `from` (the input event) to `to`.
struct NtffDependency
{
    enum class End : uint8_t { Instruction, DmaBlock };
    uint32_t from = 0, to = 0; // positions in `instructions` / `dmaBlocks`
    End fromKind = End::Instruction, toKind = End::Instruction;
    uint32_t type = 0; // NtffProfile::names (1-based), 0 = none
};

// One physical core of the traced logical NeuronCore (pb f4.f4.f1, a subgraph message each).
struct NtffCore
{
    std::string subgraphName;            // "sg00" (JSON "subgraph")
    std::optional<uint32_t> index;       // physical core number (pb sg.f3: 4 and 5 on trn2; absent on inf2/trn1)
    std::optional<uint64_t> totalTimePs; // as recorded by the runtime (pb sg.f14)
    // v4/v5 only: picoseconds of this core's own start NOTIFY end. neuron-profile 2.25's summary-text
    // counts a trn2 core's instructions from the common origin but times them from this (docs/ntff.md).
    std::optional<int64_t> startNotifyEndPs;

    // "pcore 4": the lane-set name of this core under its logical NeuronCore
    std::string label() const { return index ? "pcore " + std::to_string(*index) : subgraphName; }
};

struct NtffProfile
{
    // header and metadata
    uint8_t version = 0;
    std::string uuid; // 32 lowercase hex digits
    std::string neffName;
    std::string runtimeVersion;     // "2.29.40 (f954c)"
    std::string driverVersion;      // "2.25.0 ()"
    std::string collectivesVersion; // "2.29.41 ()"
    std::string instanceType;
    std::string instanceId;                  // v6: the EC2 instance id (pb f17)
    std::string subgraphName; // "sg00": the first core's (as neuron-profile's model_info names it)
    std::optional<uint64_t> captureUnixTime; // v4 only
    std::optional<uint64_t> totalTimePs;     // the first core's, as recorded by the runtime (pb sg.f14)
    std::optional<int64_t> decodedTotalTimePs; // latest hint-3 NOTIFY begin - earliest hint-2 NOTIFY begin
    // v6: the trace window the runtime recorded (pb f15.2, f15.3), ps on the device clock
    std::optional<int64_t> windowStartPs, windowEndPs;

    std::vector<NtffCore> cores; // at least one after NtffReader::read
    uint64_t programBytesInPayload = 0; // v6: program bytes stored in the payload, before the sections

    // structure
    std::vector<NtffProgram> programs;
    std::vector<NtffSection> sections;
    std::vector<NtffDmaQueue> dmaQueues;
    std::vector<NtffClock> clocks;
    std::vector<NtffMemoryUsage> memoryUsage;

    // trace window
    int64_t originPs = 0;          // picoseconds since the clock sync point of time 0
    bool originFromNotify = false; // false: no start NOTIFY nor recorded window found, time 0 is the first instruction
    int64_t lastHwTimestamp = 0;   // ns: floor of the latest instruction end (v6: the end of the recorded window)

    // rows, in record order (not sorted by time)
    std::vector<NtffInstructionRow> instructions;
    std::vector<NtffDmaRow> dma;
    std::vector<NtffSemaphoreRow> semaphores;
    std::vector<NtffThrottleRow> throttle;

    // counts
    uint64_t fileSize = 0;         // bytes of the input
    uint64_t recordsRead = 0;      // 16-byte records decoded
    uint64_t eventRecordCount = 0; // section kind 1 records (JSON model_info.event_count)
    uint64_t otherEventCount = 0;  // event records that are not semaphore updates (not exported)
    Diagnostics diagnostics;       // everything skipped, counted

    // Set when the rows come from neuron-profile's JSON export (NeuronProfileJsonReader) instead of an NTFF.
    std::string sourceFormat = "ntff";            // TraceMetadata::format of the built trace
    std::vector<std::string> extraOpcodeNames;    // see NtffInstructionRow::extraOpcode
    std::vector<NtffSync> instructionSync; // parallel to `instructions` (JSON only; NTFF rows use program sync)
    std::vector<int16_t> dmaSemaphore;     // parallel to `dma` (JSON "semaphore_id", -1 = none; empty for NTFF)
    // core * 256 + id -> the name neuron-profile shows: "S[8] (qSpIO0)" -> "qSpIO0" (semaphores are per
    // physical core; on a one-core profile the key is the id)
    std::map<uint32_t, std::string> semaphoreNames;
    std::vector<std::string> names;                // layer, HLO op, tensor and memory names, each once (1-based)
    std::vector<NtffInstructionOp> instructionOps; // parallel to `instructions`, or empty: none known
    // NTFF only, parallel to `instructions` (empty for a JSON export, whose rows are whole ns): the
    // picoseconds the ns row drops, start remainder x 1000 + duration remainder (0..999,999). Exact
    // begin = timestamp x 1000 + v / 1000 ps, exact duration = duration x 1000 + v % 1000 ps.
    // neuron-profile sums times in ps and floors the total (docs/ntff.md, "Engine and layer times").
    std::vector<uint32_t> instructionSubNsPs;
    std::vector<NtffDmaTag> dmaTags;               // parallel to `dma`, or empty: none known
    std::vector<NtffDmaBlock> dmaBlocks;           // JSON only
    std::vector<NtffCounterSeries> counters;       // JSON only
    // Neuron Explorer only: the lanes the NTFF and JSON lack (collectives, core barriers, errors), and
    // the profile's own dependency edges
    std::vector<NtffEventLane> eventLanes;
    std::vector<NtffLaneEvent> laneEvents;
    std::vector<NtffEventArg> eventArgs;
    std::vector<NtffDependency> dependencies;
    // What neuron-profile itself reported ("neuron_profile.summary.total_time" -> "0.0018"), copied
    // verbatim into TraceMetadata::entries.
    std::vector<std::pair<std::string, std::string>> reportedMetadata;

    // The name neuron-profile shows for semaphore `id` of physical core `core` ("" = none).
    std::string_view semaphoreName(uint8_t core, uint8_t id) const
    {
        const auto it = semaphoreNames.find(uint32_t(core) * 256u + id);
        return it == semaphoreNames.end() ? std::string_view() : std::string_view(it->second);
    }

    // The layer / HLO op name of instruction row i ("" = none).
    std::string_view layerOf(size_t i) const { return name(i < instructionOps.size() ? instructionOps[i].layer : 0); }
    std::string_view hloOf(size_t i) const { return name(i < instructionOps.size() ? instructionOps[i].hlo : 0); }
    std::string_view name(uint32_t index) const
    {
        return index && index <= names.size() ? std::string_view(names[index - 1u]) : std::string_view();
    }

    std::string_view opcodeName(const NtffInstructionRow &r) const
    {
        if (r.extraOpcode && r.extraOpcode <= extraOpcodeNames.size())
            return extraOpcodeNames[r.extraOpcode - 1u];
        return r.opcodeName();
    }

    // Trainium2 (NeuronCore-v3): a logical core of physical cores numbered in the metadata, or a trn2
    // instance. Its engines (but the Tensor engine) run at 1.2 GHz, v2's at 1.4 GHz.
    bool isNeuronCoreV3() const
    {
        if (std::string_view(instanceType).substr(0, 4) == "trn2" || cores.size() > 1)
            return true;
        return std::any_of(cores.begin(), cores.end(), [](const NtffCore &c) { return c.index.has_value(); });
    }

    // The program of engine `e` on physical core `core` (a position in `cores`).
    const NtffProgram *program(NtffEngine e, uint8_t core = 0) const
    {
        for (const auto &p : programs)
            if (p.engine == e && p.core == core)
                return &p;
        return nullptr;
    }
    // The physical core of row data: its label ("pcore 4"), "" when the profile has one core.
    std::string coreLabel(uint8_t core) const
    {
        return cores.size() > 1 && core < cores.size() ? cores[core].label() : std::string();
    }
    // The sync fields of instruction row i: from the JSON operands, else from the executed program.
    NtffSync syncOf(size_t i) const
    {
        if (i < instructionSync.size())
            return instructionSync[i];
        const NtffInstructionRow &r = instructions[i];
        const NtffProgram *p = program(r.engine, r.core);
        return p && r.pc < p->sync.size() ? p->sync[r.pc] : NtffSync{};
    }
    const NtffDmaQueue *dmaQueue(uint32_t engine, uint32_t queue) const
    {
        for (const auto &q : dmaQueues)
            if (q.engine == engine && q.queue == queue)
                return &q;
        return nullptr;
    }
    uint64_t instructionCount(NtffEngine e) const
    {
        uint64_t n = 0;
        for (const auto &r : instructions)
            n += r.engine == e;
        return n;
    }
};

} // namespace lanescope
