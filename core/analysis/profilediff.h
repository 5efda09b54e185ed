#pragma once
// The numbers of two profiles side by side: operators, kernels / opcodes and NeuronCore engines of
// A and B with their deltas, plus the regression gate `lanescope-cli diff --fail-if-slower` applies.
// Every value comes from OpTable, KernelTable, DeviceSummary and EngineBreakdown, the tables the GUI
// shows for one profile, so a diff row equals the difference of the two single-profile rows.
//
// Metric (what "time" means for totals, op rows and the gate):
//   device  op rows: device self time (work launched directly by the op; the rows add up to the
//           attributed device time, nothing counted twice); total: device busy time (union of the
//           work per device, summed over devices)
//   cpu     op rows: CPU self time; total: CPU self summed over all ops
//   wall    op rows: CPU total (inclusive) time; total: the profile's span (end - start)
// Kernel rows are always device time (their total); engine rows carry active time, instruction
// count and time, and DMA bytes.
//
// Rows are matched by name ("ProfilerStep#N" folds into "ProfilerStep*"). Sorted by delta_ns,
// largest regression first, largest improvement last; rows only in A or only in B are kept.
// delta_pct is 100 x (b - a) / a; unset when a is 0 (an op new in B).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope {

class Trace;

enum class DiffMetric : uint8_t { Device, Cpu, Wall };

struct DiffRow
{
    std::string name;
    std::string kind; // kernels: "kernel", "memcpy", "opcode", ...; ops: "op" or "runtime"
    int64_t aNs = 0, bNs = 0;
    uint64_t aCalls = 0, bCalls = 0;

    int64_t deltaNs() const { return bNs - aNs; }
    std::optional<double> deltaPct() const;
};

struct EngineDiffRow
{
    std::string engine; // "Tensor", ..., or "DMA"
    int64_t aActiveNs = 0, bActiveNs = 0;
    uint64_t aInstructions = 0, bInstructions = 0;
    int64_t aInstructionNs = 0, bInstructionNs = 0;
    uint64_t aDmaBytes = 0, bDmaBytes = 0; // DMA row only

    int64_t deltaActiveNs() const { return bActiveNs - aActiveNs; }
};

struct DiffTotal
{
    int64_t aNs = 0, bNs = 0;
    int64_t deltaNs() const { return bNs - aNs; }
    std::optional<double> deltaPct() const;
};

struct ProfileDiffResult
{
    DiffMetric metric = DiffMetric::Device;
    DiffTotal total;
    std::vector<DiffRow> ops;
    std::vector<DiffRow> kernels;
    std::vector<EngineDiffRow> engines;
};

// Why a diff fails the gate: overall, or which rows.
struct DiffGateResult
{
    bool failed = false;
    bool totalSlower = false;
    std::vector<const DiffRow *> slowerRows;
};

class ProfileDiff
{
public:
    struct Options
    {
        DiffMetric metric = DiffMetric::Device;
        bool hasRange = false; // the same [t0, t1] in both profiles' own clocks
        int64_t t0 = 0, t1 = 0;
    };

    static ProfileDiffResult compute(const Trace &a, const Trace &b, const Options &options);

    // Rows of two name -> (ns, calls) lists joined by name, sorted as described above.
    static std::vector<DiffRow> join(const std::vector<DiffRow> &aRows, const std::vector<DiffRow> &bRows);

    // Slower than `percent` overall, or any row whose larger side is at least `minTimeNs` and that
    // got slower than `percent` (a row new in B counts as slower). Op rows are checked; a profile
    // pair without op rows (device-only captures) has its kernel / opcode rows checked instead.
    static DiffGateResult gate(const ProfileDiffResult &diff, double percent, int64_t minTimeNs);

    static const char *metricName(DiffMetric m);
    static std::optional<DiffMetric> metricFromName(const std::string &name);
};

} // namespace lanescope
