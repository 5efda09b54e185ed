#pragma once
// The operator table: one row per framework op name (optionally name + input shapes), with the
// numbers of PyTorch's `key_averages()`:
//   calls         occurrences of the op
//   CPU total     sum of the occurrences' durations (nested occurrences of the same name count
//                 again, as in PyTorch)
//   CPU self      CPU total minus the durations of each occurrence's direct children, a child being
//                 the nearest enclosed op or runtime call on the same thread (python_function and
//                 other slices in between are looked through)
//   CPU avg / min / max   over the occurrences' durations
//   device self   duration of the execution-level device work (kernels, memcpy, memset, NEFF /
//                 driver executions) launched by a runtime call whose nearest enclosing op is this
//                 occurrence (LaunchIndex), i.e. not by its children
//   device total  device self of the occurrence plus that of all its descendant ops
//   device avg    device total / calls
//   % columns     self CPU % and CPU total % of the sum of CPU self over all rows (PyTorch's "Self
//                 CPU time total"); device self % and device total % of the sum of device self over
//                 all rows plus the unattributed device time
//   device FLOPs total / self   model FLOPs of the NEFF executions charged to device total / self:
//                 each execution counts the FLOPs of one run of its program (ExecutionCost: 2 x the
//                 paired NEFF's hlo_stats.json HloMacCount, or a neuron-profile JSON's summary
//                 model_flops). Sum over the executions that carry FLOPs; null when none does (GPU
//                 kernels, NKI NEFFs without hlo_stats.json, NTFFs without their NEFF): null is
//                 "not known", never 0. 0 is a measurement (an XLA program without dots).
//   MFU           100 x device FLOPs total / (sum over those same executions of their duration x the
//                 peak FLOP/s of their core, EngineBreakdown::peakFlopsPerSec: 2 x 128 x 128 x Tensor
//                 clock). Executions without FLOPs or without a known clock stay out of numerator and
//                 denominator; null when nothing is left. For one kind of execution on one core it is
//                 device FLOPs total / (device total x peak).
//   DMA bytes total / self   sum of `transfer_size` of the DMA rows (packets) inside the NEFF executions
//                 charged to device total / self; null when the op launched no NEFF execution (a GPU
//                 trace: memcpy bytes are not DMA rows).
// Rows are framework ops and runtime calls (PyTorch lists cudaLaunchKernel & co. too; they have no
// device time of their own since their work is charged to the op that made the call). The names
// "ProfilerStep#N" fold into "ProfilerStep*" as PyTorch does. Grouped by shapes, the key adds the
// `Input Dims` arg as written in the trace ("[]" when absent, like PyTorch's empty shape list).
//
// Time range: with a range [t0, t1] only occurrences that start inside it count (whole, not
// clipped), and their device time is all the work they launched, wherever it ran.
#include "launchindex.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class ExecutionCost;
class Trace;

class OpTable
{
public:
    enum class Column : uint8_t {
        Name,
        Shapes,
        Calls,
        CpuTotal,
        CpuSelf,
        CpuAvg,
        CpuMin,
        CpuMax,
        DeviceTotal,
        DeviceSelf,
        DeviceAvg,
        CpuSelfPercent,
        CpuTotalPercent,
        DeviceSelfPercent,
        DeviceTotalPercent,
        DeviceFlopsTotal,
        DeviceFlopsSelf,
        Mfu,
        DmaBytesTotal,
        DmaBytesSelf,
        Count
    };

    struct Options
    {
        bool groupByShapes = false;
        bool hasRange = false;
        int64_t t0 = 0, t1 = 0; // ns, used when hasRange
        Column sortBy = Column::CpuTotal; // descending for numbers, ascending for text
        int64_t rank = -1; // a multi-rank trace: only this rank's slices (RankFilter), -1 all ranks
    };

    struct Row
    {
        std::string name;
        std::string shapes; // empty unless grouped by shapes
        bool runtime = false; // a runtime call row (cudaLaunchKernel, nrt_execute, ...)
        uint64_t calls = 0;
        int64_t cpuTotal = 0, cpuSelf = 0, cpuMin = 0, cpuMax = 0;
        int64_t deviceTotal = 0, deviceSelf = 0;
        double cpuSelfPercent = 0, cpuTotalPercent = 0, deviceSelfPercent = 0, deviceTotalPercent = 0;
        std::vector<uint32_t> occurrences; // slice ids, by start time
        // Neuron device side (see the header); nullopt = not known, not 0.
        std::optional<double> deviceFlopsTotal, deviceFlopsSelf, mfuPercent;
        std::optional<uint64_t> dmaBytesTotal, dmaBytesSelf;

        double cpuAvg() const { return calls ? double(cpuTotal) / double(calls) : 0.0; }
        double deviceAvg() const { return calls ? double(deviceTotal) / double(calls) : 0.0; }
        // The value of a column as a number (text columns: 0; a null FLOPs / MFU / DMA cell: -1, so it
        // sorts after every value), for sorting.
        double number(Column c) const;
    };

    struct Result
    {
        std::vector<Row> rows;
        int64_t cpuSelfTotal = 0;      // sum of CPU self over all rows
        int64_t deviceTime = 0;        // execution-level device work of the range (see header)
        int64_t unattributedDevice = 0; // of which launched by no op
        uint64_t unattributedCount = 0;
        bool deviceFlops = false; // some row has device FLOPs
        bool dmaBytes = false;    // some row has DMA bytes
    };

    // `cost`: the trace's ExecutionCost when the caller holds one (TraceAnalysis::executionCost, built
    // once per trace); null: built here for this call.
    static Result compute(const Trace &trace, const LaunchIndex &index, const Options &options,
                          const ExecutionCost *cost = nullptr);
    // The occurrences of one row, `name` as foldName gives it ("ProfilerStep*"), as compute() lists
    // them (the row's `occurrences`, in time order), without computing the table: the capture check needs only the
    // steps.
    static std::vector<uint32_t> occurrences(const Trace &trace, const LaunchIndex &index, const Options &options,
                                             std::string_view name);
    static void sort(std::vector<Row> &rows, Column column);

    static const char *columnName(Column c);  // our JSON / CLI name: "cpu_self_ns", ...
    static const char *columnTitle(Column c); // header text: "CPU self", ...
    // Our names and PyTorch's key_averages sort keys (self_cpu_time_total, cpu_time_total,
    // self_cuda_time_total, self_privateuse1_time_total, self_device_time_total, count, ...).
    static std::optional<Column> columnFromName(std::string_view name);
    // "ProfilerStep#12" -> "ProfilerStep*"; other names unchanged.
    static std::string_view foldName(std::string_view name);
};

} // namespace lanescope
