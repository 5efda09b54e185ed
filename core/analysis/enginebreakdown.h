#pragma once
// Per-engine breakdown of NeuronCore activity, computed from a Trace (NTFF, neuron-profile JSON, or a
// profile folder holding either), for the whole trace or any time range. Definitions match what
// neuron-profile reports (checked row by row against summary / layer_summary / model_info of every
// NTFF+JSON pair in the corpus, see tests/core/analysis/tst_enginebreakdown.cpp):
//   instruction count  every instruction that overlaps the window, semaphore waits included
//                      (model_info.*_engine_instruction_count; "Tensor" = Tensor + TensorMatrix lanes)
//   instruction time   sum of instruction durations, EVENT_SEMAPHORE (semaphore wait) excluded
//   active time        length of the union of those same intervals (waits excluded)
//   active %           100 x active time / window; for the whole trace the window is the recorded
//                      execution time (NTFF total time = neuron-profile summary.total_time) when known
// DMA per queue: packets, bytes (arg transfer_size), active time (union of packet intervals),
// throughput = bytes / active time. MFU / HFU need the FLOP counts neuron-profile computed from the
// NEFF (summary.model_flops / hardware_flops of a JSON export); they are whole-trace numbers only.
// Everything is clipped to the window: an instruction half inside counts once with its inside part.
// In a profile folder every execution on one NeuronCore shares its lanes (NeuronCoreLanes): the rows are
// per core over all its executions, or, with Options::execution, for that one execution (DMA queues that
// carried none of its packets left out).
#include "model/ids.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class Trace;

enum class NeuronEngine : uint8_t { Tensor, Vector, Scalar, GpSimd, Sync };
constexpr int kNeuronEngineCount = 5;

struct EngineOpcodeTime
{
    std::string opcode;
    uint64_t count = 0;
    int64_t timeNs = 0; // clipped to the window
};

struct EngineIdleGap
{
    int64_t startNs = 0;
    int64_t durationNs = 0;
};

struct EngineBreakdownRow
{
    GroupId core;
    std::string coreName;     // group path, e.g. "Neuron device (inf2.xlarge) / NeuronCore 0 (sg00)"
    NeuronEngine engine = NeuronEngine::Tensor;
    std::vector<TrackId> tracks; // Tensor: the Tensor and TensorMatrix lanes
    uint64_t instructionCount = 0;   // semaphore waits included
    uint64_t semaphoreWaitCount = 0; // EVENT_SEMAPHORE instructions
    int64_t semaphoreWaitTimeNs = 0;
    int64_t instructionTimeNs = 0;   // waits excluded
    int64_t activeTimeNs = 0;        // union, waits excluded
    uint64_t activeIntervalCount = 0; // busy periods: the merged intervals of that union
    double activePercent = 0;        // 100 x active / EngineBreakdownResult::denominatorNs
    int64_t idleTimeNs = 0;          // window - active
    uint64_t idleGapCount = 0;       // gaps between active intervals, window edges included
    std::vector<EngineIdleGap> longestIdleGaps; // longest first
    std::vector<EngineOpcodeTime> topOpcodes;   // by time, waits excluded, longest first
    double clockGHz = 0;             // 0 = unknown
    std::vector<float> utilization;  // busy fraction per bucket (EngineBreakdownResult::bucketNs)
};

struct DmaQueueBreakdownRow
{
    GroupId core;
    std::string coreName;
    TrackId track;
    std::string queue;     // lane name, e.g. "qSyncSpillReload0-Q1-E0"
    int dmaEngine = -1;    // -1 = unknown
    int queueIndex = -1;
    uint64_t packetCount = 0;
    uint64_t bytes = 0;    // clipped packets count whole
    int64_t activeTimeNs = 0; // union of packet intervals
    uint64_t activeIntervalCount = 0;
    double activePercent = 0;
    double throughputBytesPerSec = 0; // bytes / active time
};

// Per core: all DMA queues together (neuron-profile dma_active_time) and MFU / HFU.
struct CoreBreakdown
{
    GroupId core;
    std::string coreName;
    uint64_t dmaBytes = 0;
    int64_t dmaActiveTimeNs = 0; // union over all queues
    uint64_t dmaActiveIntervalCount = 0;
    std::vector<double> dmaBytesPerBucket;
    // Utilization of the Tensor engine's FLOPs. Present only for the whole trace of a single-core
    // trace whose metadata carries the FLOP counts and a clock.
    std::optional<double> mfuPercent, hfuPercent;
    double modelFlops = 0, hardwareFlops = 0, peakFlopsPerSec = 0;
    std::string flopsNote; // why MFU is missing, or where its inputs came from
};

struct EngineBreakdownResult
{
    int64_t startNs = 0, endNs = 0; // the window
    bool wholeTrace = true;
    std::optional<size_t> execution; // Options::execution
    int64_t denominatorNs = 0;      // of the percentages
    std::string denominatorSource;  // "recorded total time" / "window"
    int64_t bucketNs = 0;
    size_t bucketCount = 0;
    std::vector<EngineBreakdownRow> engines; // per core, engine order
    std::vector<DmaQueueBreakdownRow> dma;   // per core, queue order of the trace
    std::vector<CoreBreakdown> cores;

    bool empty() const { return engines.empty() && dma.empty(); }
};

class EngineBreakdown
{
public:
    struct Options
    {
        std::optional<int64_t> startNs, endNs; // unset: the span of the NeuronCore tracks
        // One device execution (index into DeviceExecutions::all()): only its core's lanes of its lane set,
        // and the window defaults to its span. Unset: every core over the whole trace.
        std::optional<size_t> execution;
        size_t buckets = 100;
        size_t topOpcodes = 8;
        size_t longestIdleGaps = 5;
    };

    static EngineBreakdownResult compute(const Trace &trace, const Options &options);
    static EngineBreakdownResult compute(const Trace &trace) { return compute(trace, Options()); }

    // "Tensor", "TensorMatrix", "PE", "ACT", "DVE", "Pool", "SP", ... (case-insensitive, formats.md 6).
    static std::optional<NeuronEngine> engineOf(std::string_view laneName);
    static std::string_view engineName(NeuronEngine e);
    // EVENT_SEMAPHORE: the engine waits for a semaphore (AWS excludes it from instruction/active time).
    static bool isSemaphoreWait(std::string_view opcode) { return opcode == "EVENT_SEMAPHORE"; }
    // Default clocks per engine by NeuronCore generation, from the instance type (formats.md 6).
    static double defaultClockGHz(std::string_view instanceType, NeuronEngine e);
    // The clock of engine `e` of the device trace whose metadata keys start with `prefix` ("" = the
    // trace's own keys; "<file>: " = one file of a profile folder): neuron-profile's recorded
    // pe_clock_freq / pe_clock_others, else the default of its instance_type; 0 = unknown.
    static double clockGHz(const Trace &trace, NeuronEngine e, std::string_view prefix = {});
    // Peak FLOP/s of one NeuronCore's Tensor engines, the denominator of every MFU Lanescope shows:
    // physical cores x 2 x pe_num_rows x pe_num_cols (128 x 128 unless recorded) x Tensor clock
    // (formats.md 6: 91.75 TFLOP/s on Trn1 / Inf2; a trn2 logical core is two physical NeuronCore-v3 of
    // 78.6 TFLOP/s each, 157.3 TFLOP/s: AWS's NeuronCore-v3 page gives 79 BF16 TFLOPS per core's Tensor
    // engine, and neuron-profile 2.28's own mfu_estimated_percent on the corpus trn2 exports divides by
    // 157.3 TFLOP/s); 0 = clock unknown.
    static double peakFlopsPerSec(const Trace &trace, std::string_view prefix = {});
};

} // namespace lanescope
