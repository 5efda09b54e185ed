#include "tablerows.h"

#include "launchindex.h"

#include <cctype>
#include <cmath>
#include <deque>

namespace lanescope {

namespace {

constexpr unsigned kJsonCsv = OutJson | OutCsv;
constexpr unsigned kShown = OutJson | OutCsv | OutGui; // the CLI's and a column of the GUI's table
constexpr unsigned kShownFile = kShown | OutSqlite;     // ... and a column of the file exports' table too

Cell i64(uint64_t v) { return int64_t(v); }

template <typename Row> TableColumn<Row> integer(const char *key, const char *header, const char *unit,
                                                 std::function<Cell(const Row &)> get, unsigned out = kJsonCsv)
{
    return {key, header, CellType::Integer, unit, out, true, std::move(get)};
}
template <typename Row> TableColumn<Row> real(const char *key, const char *header, const char *unit,
                                              std::function<Cell(const Row &)> get, unsigned out = kJsonCsv)
{
    return {key, header, CellType::Real, unit, out, true, std::move(get)};
}
template <typename Row> TableColumn<Row> text(const char *key, const char *header, std::function<Cell(const Row &)> get,
                                              unsigned out = kJsonCsv)
{
    return {key, header, CellType::Text, "", out, true, std::move(get)};
}
// A column that may have no value (NULL in SQLite).
template <typename Row> TableColumn<Row> nullable(TableColumn<Row> c)
{
    c.notNull = false;
    return c;
}

RowDescription<OpTable::Row> makeOps(bool withShapes)
{
    using R = OpTable::Row;
    using C = OpTable::Column;
    RowDescription<R> d;
    d.push_back(text<R>("name", "Name", [](const R &r) { return r.name; }, OutAll | OutGui));
    if (withShapes) // the GUI shows the column hidden unless grouped by shapes
        d.push_back(text<R>(OpTable::columnName(C::Shapes), OpTable::columnTitle(C::Shapes), [](const R &r) { return r.shapes; },
                            kShown));
    d.push_back(text<R>("kind", "Kind", [](const R &r) { return std::string(r.runtime ? "runtime" : "op"); }));
    d.push_back(integer<R>("runtime", "Runtime call", "", [](const R &r) { return Cell(int64_t(r.runtime ? 1 : 0)); }, OutSqlite));
    // Every number of OpTable: the averages and percentages are reals, the rest whole ns or counts.
    for (auto c = size_t(C::Calls); c <= size_t(C::DeviceTotalPercent); ++c) {
        const C col = C(c);
        const std::string_view key = OpTable::columnName(col);
        const bool isReal = key.find("percent") != std::string_view::npos || key.find("avg") != std::string_view::npos;
        const char *unit = key.find("percent") != std::string_view::npos ? "%" : col == C::Calls ? "count" : "ns";
        TableColumn<R> column = isReal
            ? real<R>(OpTable::columnName(col), OpTable::columnTitle(col), unit, [col](const R &r) { return Cell(r.number(col)); },
                      OutAll | OutGui)
            : integer<R>(OpTable::columnName(col), OpTable::columnTitle(col), unit,
                         [col](const R &r) { return Cell(int64_t(std::llround(r.number(col)))); }, OutAll | OutGui);
        column.notNull = false; // as the schema has always declared them
        d.push_back(std::move(column));
    }
    // The Neuron device side (OpTable header): null when nothing measured it, never 0 instead.
    const auto key = [](C c) { return OpTable::columnName(c); };
    const auto title = [](C c) { return OpTable::columnTitle(c); };
    const auto opt = [](const std::optional<double> &v) { return v ? Cell(*v) : Cell(nullptr); };
    const auto bytes = [](const std::optional<uint64_t> &v) { return v ? Cell(int64_t(*v)) : Cell(nullptr); };
    d.push_back(nullable(real<R>(key(C::DeviceFlopsTotal), title(C::DeviceFlopsTotal), "FLOP",
                                 [opt](const R &r) { return opt(r.deviceFlopsTotal); }, OutAll | OutGui)));
    d.push_back(nullable(real<R>(key(C::DeviceFlopsSelf), title(C::DeviceFlopsSelf), "FLOP",
                                 [opt](const R &r) { return opt(r.deviceFlopsSelf); }, OutAll | OutGui)));
    d.push_back(nullable(real<R>(key(C::Mfu), title(C::Mfu), "%", [opt](const R &r) { return opt(r.mfuPercent); }, OutAll | OutGui)));
    d.push_back(nullable(integer<R>(key(C::DmaBytesTotal), title(C::DmaBytesTotal), "bytes",
                                    [bytes](const R &r) { return bytes(r.dmaBytesTotal); }, OutAll | OutGui)));
    d.push_back(nullable(integer<R>(key(C::DmaBytesSelf), title(C::DmaBytesSelf), "bytes",
                                    [bytes](const R &r) { return bytes(r.dmaBytesSelf); }, OutAll | OutGui)));
    return d;
}

} // namespace

const RowDescription<OpTable::Row> &TableRows::ops(bool withShapes)
{
    static const RowDescription<OpTable::Row> plain = makeOps(false), shapes = makeOps(true);
    return withShapes ? shapes : plain;
}

const RowDescription<KernelTable::Row> &TableRows::kernels()
{
    using R = KernelTable::Row;
    // The GUI leaves out launchers and unattributed (its "Launched by" says "(+N more)").
    static const RowDescription<R> d = {
        text<R>("name", "Name", [](const R &r) { return r.name; }, kShownFile),
        text<R>("kind", "Kind", [](const R &r) { return std::string(LaunchIndex::kindName(r.kind)); }, kShownFile),
        integer<R>("count", "Count", "count", [](const R &r) { return i64(r.count); }, kShownFile),
        integer<R>("total_ns", "Total", "ns", [](const R &r) { return Cell(r.total); }, kShownFile),
        real<R>("mean_ns", "Mean", "ns", [](const R &r) { return Cell(r.mean()); }, kShownFile),
        integer<R>("min_ns", "Min", "ns", [](const R &r) { return Cell(r.min); }, kShownFile),
        integer<R>("max_ns", "Max", "ns", [](const R &r) { return Cell(r.max); }, kShownFile),
        real<R>("percent", "% of device", "%", [](const R &r) { return Cell(r.percent); }, kShownFile),
        text<R>("launched_by", "Launched by", [](const R &r) { return r.launchedBy; }, kShownFile),
        integer<R>("launchers", "Launchers", "count", [](const R &r) { return i64(r.launchers); }, OutAll),
        integer<R>("unattributed", "Unattributed", "count", [](const R &r) { return i64(r.unattributed); }, OutAll),
    };
    return d;
}

const RowDescription<DeviceSummary::Row> &TableRows::devices()
{
    using R = DeviceSummary::Row;
    static const RowDescription<R> d = {
        text<R>("device", "Device", [](const R &r) { return r.device; }, kShownFile),
        integer<R>("total_ns", "Total", "ns", [](const R &r) { return Cell(r.total); }, kShownFile),
        integer<R>("busy_ns", "Busy", "ns", [](const R &r) { return Cell(r.busy); }, kShownFile),
        integer<R>("idle_ns", "Idle", "ns", [](const R &r) { return Cell(r.idle); }, kShownFile),
        integer<R>("compute_ns", "Compute", "ns", [](const R &r) { return Cell(r.compute); }, kShownFile),
        integer<R>("memcpy_ns", "Memcpy / DMA", "ns", [](const R &r) { return Cell(r.memcpy); }, kShownFile),
        real<R>("busy_percent", "Busy %", "%", [](const R &r) { return Cell(r.busyPercent()); }, kShownFile),
        integer<R>("work", "Work items", "count", [](const R &r) { return i64(r.work); }, kShownFile),
    };
    return d;
}

const RowDescription<RankStepTable::Row> &TableRows::rankSteps()
{
    using R = RankStepTable::Row;
    static const RowDescription<R> d = {
        integer<R>("rank", "Rank", "", [](const R &r) { return Cell(r.rank); }),
        integer<R>("steps", "Steps", "count", [](const R &r) { return i64(r.steps); }),
        integer<R>("median_step_ns", "Median step", "ns", [](const R &r) { return Cell(r.median); }),
        integer<R>("p90_step_ns", "p90", "ns", [](const R &r) { return Cell(r.p90); }),
        integer<R>("slowest_step_ns", "Slowest", "ns", [](const R &r) { return Cell(r.slowest); }),
        nullable(integer<R>("slowest_step_id", "Slowest step id", "",
                            [](const R &r) { return r.steps ? Cell(int64_t(r.slowestStep)) : Cell(); })),
        real<R>("ratio_to_median_of_ranks", "x median of ranks", "", [](const R &r) { return Cell(r.ratio); }),
        integer<R>("straggler", "Straggler", "bool", [](const R &r) { return Cell(int64_t(r.straggler)); }),
    };
    return d;
}

const RowDescription<EngineBreakdownRow> &TableRows::engines()
{
    using R = EngineBreakdownRow;
    // In the SQLite table's column order; core_group_id and active_interval_count are SQLite only,
    // as they always were.
    static const RowDescription<R> d = {
        nullable(integer<R>("core_group_id", "Core group id", "",
                            [](const R &r) { return r.core.value == UINT32_MAX ? Cell() : Cell(int64_t(r.core.value)); }, OutSqlite)),
        text<R>("core", "Core", [](const R &r) { return r.coreName; }, OutAll),
        text<R>("engine", "Engine", [](const R &r) { return std::string(EngineBreakdown::engineName(r.engine)); }, OutAll),
        integer<R>("instruction_count", "Instructions", "count", [](const R &r) { return i64(r.instructionCount); }, OutAll),
        integer<R>("semaphore_wait_count", "Waits", "count", [](const R &r) { return i64(r.semaphoreWaitCount); }, OutAll),
        integer<R>("semaphore_wait_time_ns", "Wait time", "ns", [](const R &r) { return Cell(r.semaphoreWaitTimeNs); }, OutAll),
        integer<R>("instruction_time_ns", "Instruction time", "ns", [](const R &r) { return Cell(r.instructionTimeNs); }, OutAll),
        integer<R>("active_time_ns", "Active time", "ns", [](const R &r) { return Cell(r.activeTimeNs); }, OutAll),
        integer<R>("active_interval_count", "Active intervals", "count", [](const R &r) { return i64(r.activeIntervalCount); },
                   OutSqlite | OutCsv),
        real<R>("active_percent", "Active %", "%", [](const R &r) { return Cell(r.activePercent); }, OutAll),
        integer<R>("idle_time_ns", "Idle time", "ns", [](const R &r) { return Cell(r.idleTimeNs); }, OutAll),
        integer<R>("idle_gap_count", "Idle gaps", "count", [](const R &r) { return i64(r.idleGapCount); }, OutAll),
        nullable(real<R>("clock_ghz", "Clock", "GHz", [](const R &r) { return r.clockGHz > 0 ? Cell(r.clockGHz) : Cell(); }, OutAll)),
    };
    return d;
}

const RowDescription<DmaQueueBreakdownRow> &TableRows::dmaQueues()
{
    using R = DmaQueueBreakdownRow;
    static const RowDescription<R> d = {
        text<R>("core", "Core", [](const R &r) { return r.coreName; }, OutAll),
        text<R>("queue", "DMA queue", [](const R &r) { return r.queue; }, OutAll),
        integer<R>("bytes", "Bytes", "bytes", [](const R &r) { return i64(r.bytes); }, OutAll),
        integer<R>("active_time_ns", "Active time", "ns", [](const R &r) { return Cell(r.activeTimeNs); }, OutAll),
        real<R>("active_percent", "Active %", "%", [](const R &r) { return Cell(r.activePercent); }, OutAll),
        integer<R>("packet_count", "Packets", "count", [](const R &r) { return i64(r.packetCount); }, OutAll),
        real<R>("throughput_bytes_per_s", "Throughput", "bytes/s", [](const R &r) { return Cell(r.throughputBytesPerSec); }, OutAll),
        nullable(integer<R>("dma_engine", "DMA engine", "",
                            [](const R &r) { return r.dmaEngine >= 0 ? Cell(int64_t(r.dmaEngine)) : Cell(); }, OutAll)),
        nullable(integer<R>("dma_queue", "Queue index", "",
                            [](const R &r) { return r.queueIndex >= 0 ? Cell(int64_t(r.queueIndex)) : Cell(); }, OutAll)),
    };
    return d;
}

const RowDescription<CoreBreakdown> &TableRows::cores()
{
    using R = CoreBreakdown;
    static const RowDescription<R> d = {
        text<R>("core", "Core", [](const R &r) { return r.coreName; }),
        integer<R>("dma_bytes", "DMA bytes", "bytes", [](const R &r) { return i64(r.dmaBytes); }),
        integer<R>("dma_active_time_ns", "DMA active time", "ns", [](const R &r) { return Cell(r.dmaActiveTimeNs); }),
        nullable(real<R>("mfu_percent", "MFU", "%", [](const R &r) { return r.mfuPercent ? Cell(*r.mfuPercent) : Cell(); })),
        nullable(real<R>("hfu_percent", "HFU", "%", [](const R &r) { return r.hfuPercent ? Cell(*r.hfuPercent) : Cell(); })),
        nullable(real<R>("peak_flops_per_s", "Peak FLOP/s", "FLOP/s",
                         [](const R &r) { return r.peakFlopsPerSec > 0 ? Cell(r.peakFlopsPerSec) : Cell(); })),
        text<R>("flops_note", "FLOPs note", [](const R &r) { return r.flopsNote; }),
    };
    return d;
}

const RowDescription<OpBreakdownRow> &TableRows::opRows()
{
    using R = OpBreakdownRow;
    static const RowDescription<R> d = [] {
        // Per engine, neuron-profile's layer_summary names ("tensor_engine_active_time"), with the unit.
        static std::deque<std::string> names; // the keys and headers below point into it
        const auto name = [](std::string v) { return names.emplace_back(std::move(v)).c_str(); };
        const auto opt = [](const std::optional<double> &v) { return v ? Cell(*v) : Cell(nullptr); };
        RowDescription<R> c = {
            text<R>("core", "Core", [](const R &r) { return r.coreName; }),
            text<R>("name", "Name", [](const R &r) { return r.name; }, kShown),
            text<R>("op", "Op", [](const R &r) { return r.op; }),
            integer<R>("start_ns", "Start", "ns", [](const R &r) { return Cell(r.startNs); }, kShown),
            integer<R>("end_ns", "End", "ns", [](const R &r) { return Cell(r.endNs); }),
            integer<R>("duration_ns", "Duration", "ns", [](const R &r) { return Cell(r.durationNs); }, kShown),
            integer<R>("instruction_count", "Instructions", "count", [](const R &r) { return i64(r.instructionCount); }, kShown),
        };
        for (int ei = 0; ei < kNeuronEngineCount; ++ei) {
            const std::string e(EngineBreakdown::engineName(NeuronEngine(ei)));
            std::string k = e;
            for (char &ch : k)
                ch = char(std::tolower(static_cast<unsigned char>(ch)));
            k += "_engine_";
            const size_t i = size_t(ei);
            c.push_back(integer<R>(name(k + "instruction_count"), name(e + " instructions"), "count",
                                   [i](const R &r) { return i64(r.engines[i].instructionCount); }));
            c.push_back(integer<R>(name(k + "semaphore_wait_count"), name(e + " waits"), "count",
                                   [i](const R &r) { return i64(r.engines[i].semaphoreWaitCount); }));
            c.push_back(integer<R>(name(k + "instruction_time_ns"), name(e + " instruction time"), "ns",
                                   [i](const R &r) { return Cell(r.engines[i].instructionTimeNs); }));
            c.push_back(integer<R>(name(k + "active_time_ns"), name(e + " active"), "ns",
                                   [i](const R &r) { return Cell(r.engines[i].activeTimeNs); }, kShown));
        }
        const auto count = [](const std::optional<double> &v) { return v ? Cell(int64_t(std::llround(*v))) : Cell(nullptr); };
        c.push_back(nullable(integer<R>("tensor_engine_flop_count", "FLOPs", "FLOP", [count](const R &r) { return count(r.flops); }, kShown)));
        c.push_back(nullable(integer<R>("tensor_engine_model_flop_count", "Model FLOPs", "FLOP",
                                        [count](const R &r) { return count(r.modelFlops); })));
        c.push_back(nullable(real<R>("mfu_percent", "MFU", "%", [opt](const R &r) { return opt(r.mfuPercent); }, kShown)));
        c.push_back(nullable(real<R>("hfu_percent", "HFU", "%", [opt](const R &r) { return opt(r.hfuPercent); }, kShown)));
        return c;
    }();
    return d;
}

const RowDescription<TensorRow> &TableRows::tensors()
{
    using R = TensorRow;
    const auto opt = [](const std::optional<double> &v) { return v ? Cell(*v) : Cell(nullptr); };
    static const RowDescription<R> d = {
        text<R>("name", "Tensor", [](const R &r) { return r.name; }, kShownFile),
        text<R>("program", "Program", [](const R &r) { return r.program; }, kShownFile),
        text<R>("type", "Type", [](const R &r) { return r.type; }, kShownFile),
        text<R>("format", "Format", [](const R &r) { return r.format; }, kShownFile),
        text<R>("shape", "Shape", [](const R &r) { return r.shape; }, kShownFile),
        nullable(integer<R>("size_bytes", "Size", "bytes", [](const R &r) { return r.sizeBytes ? Cell(int64_t(*r.sizeBytes)) : Cell(nullptr); },
                            kShownFile)),
        integer<R>("in_neff_node", "Listed", "", [](const R &r) { return Cell(int64_t(r.listed ? 1 : 0)); }, OutAll),
        integer<R>("dma_packets", "DMA packets", "count", [](const R &r) { return i64(r.packets); }, kShownFile),
        integer<R>("dma_packet_bytes", "Packet bytes", "bytes", [](const R &r) { return i64(r.packetBytes); }, OutAll),
        integer<R>("dma_transfers", "DMA transfers", "count", [](const R &r) { return i64(r.transfers); }, kShownFile),
        integer<R>("dma_transfer_bytes", "Bytes moved", "bytes", [](const R &r) { return i64(r.transferBytes); }, kShownFile),
        text<R>("bytes_by_direction", "By direction", [](const R &r) { return TensorTable::directionsText(r); }, kShownFile),
        integer<R>("load_to_sbuf_dma_count", "Loads to SBUF", "count", [](const R &r) { return i64(r.loadToSbufCount); }, kShownFile),
        integer<R>("load_to_sbuf_total_size_bytes", "Load bytes", "bytes", [](const R &r) { return i64(r.loadToSbufBytes); }, kShownFile),
        nullable(real<R>("load_to_sbuf_avg_size_bytes", "Avg load", "bytes", [opt](const R &r) { return opt(r.loadToSbufAvgBytes); }, kShownFile)),
        nullable(real<R>("load_to_sbuf_repeat_factor", "Repeat factor", "", [opt](const R &r) { return opt(r.repeatFactor); }, kShownFile)),
    };
    return d;
}

const RowDescription<CollectiveRow> &TableRows::collectives()
{
    using R = CollectiveRow;
    const auto opt = [](const std::optional<double> &v) { return v ? Cell(*v) : Cell(nullptr); };
    static const RowDescription<R> d = {
        nullable(integer<R>("rank", "Rank", "", [](const R &r) { return r.rank >= 0 ? Cell(r.rank) : Cell(nullptr); }, kShownFile)),
        text<R>("collective", "Collective", [](const R &r) { return r.kind; }, kShownFile),
        text<R>("process_group", "Process group", [](const R &r) { return r.processGroup; }, kShownFile),
        nullable(integer<R>("group_size", "Ranks", "count", [](const R &r) { return r.groupSize > 0 ? Cell(r.groupSize) : Cell(nullptr); }, kShownFile)),
        text<R>("dtype", "Dtype", [](const R &r) { return r.dtype; }, kShownFile),
        nullable(integer<R>("message_bytes", "Message", "bytes",
                            [](const R &r) { return r.messageBytes ? Cell(int64_t(*r.messageBytes)) : Cell(nullptr); }, kShownFile)),
        integer<R>("count", "Count", "count", [](const R &r) { return i64(r.count); }, kShownFile),
        integer<R>("total_ns", "Total", "ns", [](const R &r) { return Cell(r.totalNs); }, kShownFile),
        integer<R>("median_ns", "Median", "ns", [](const R &r) { return Cell(r.medianNs); }, kShownFile),
        integer<R>("max_ns", "Max", "ns", [](const R &r) { return Cell(r.maxNs); }, kShownFile),
        integer<R>("min_ns", "Min", "ns", [](const R &r) { return Cell(r.minNs); }, OutAll),
        integer<R>("p25_ns", "P25", "ns", [](const R &r) { return Cell(r.p25Ns); }, OutAll),
        integer<R>("p75_ns", "P75", "ns", [](const R &r) { return Cell(r.p75Ns); }, OutAll),
        nullable(real<R>("algbw_bytes_per_s", "Algorithm BW", "bytes/s", [opt](const R &r) { return opt(r.algBwBytesPerSec); }, kShownFile)),
        nullable(real<R>("busbw_bytes_per_s", "Bus BW", "bytes/s", [opt](const R &r) { return opt(r.busBwBytesPerSec); }, kShownFile)),
    };
    return d;
}

const RowDescription<CommOverlapRow> &TableRows::overlap()
{
    using R = CommOverlapRow;
    static const RowDescription<R> d = {
        nullable(integer<R>("rank", "Rank", "", [](const R &r) { return r.rank >= 0 ? Cell(r.rank) : Cell(nullptr); }, kShown)),
        text<R>("device", "Device", [](const R &r) { return r.device; }, kShown),
        nullable(integer<R>("step", "Step", "", [](const R &r) { return r.step >= 0 ? Cell(r.step) : Cell(nullptr); }, kShown)),
        integer<R>("kernels", "Kernels", "count", [](const R &r) { return i64(r.kernels); }, kShown),
        integer<R>("span_ns", "Step time", "ns", [](const R &r) { return Cell(r.spanNs); }, kShown),
        integer<R>("compute_ns", "Computation", "ns", [](const R &r) { return Cell(r.computeNs); }, kShown),
        integer<R>("communication_ns", "Communication", "ns", [](const R &r) { return Cell(r.communicationNs); }, kShown),
        integer<R>("memory_ns", "Memory", "ns", [](const R &r) { return Cell(r.memoryNs); }, kShown),
        integer<R>("idle_ns", "Idle", "ns", [](const R &r) { return Cell(r.idleNs); }, kShown),
        integer<R>("non_compute_ns", "Non-compute", "ns", [](const R &r) { return Cell(r.nonComputeNs); }),
        integer<R>("overlapped_ns", "Overlapped", "ns", [](const R &r) { return Cell(r.overlappedNs); }, kShown),
        integer<R>("exposed_ns", "Exposed", "ns", [](const R &r) { return Cell(r.exposedNs()); }, kShown),
        nullable(real<R>("overlap_pct", "Overlap %", "%", [](const R &r) { return roundedPercent(r.overlap() ? std::optional<double>(*r.overlap() * 100.0) : std::nullopt); }, kShown)),
    };
    return d;
}

const RowDescription<MatchedCollective> &TableRows::matchedCollectives()
{
    using R = MatchedCollective;
    static const RowDescription<R> d = {
        text<R>("collective", "Collective", [](const R &r) { return r.kind; }, kShown),
        text<R>("process_group", "Process group", [](const R &r) { return r.processGroup; }, kShown),
        nullable(integer<R>("message_bytes", "Message", "bytes", [](const R &r) { return r.bytes ? Cell(int64_t(*r.bytes)) : Cell(nullptr); }, kShown)),
        nullable(integer<R>("step", "Step", "", [](const R &r) { return r.step >= 0 ? Cell(r.step) : Cell(nullptr); }, kShown)),
        integer<R>("sequence", "Sequence", "", [](const R &r) { return Cell(int64_t(r.sequence)); }, kShown),
        integer<R>("ranks", "Ranks", "count", [](const R &r) { return i64(r.members.size()); }, kShown),
        integer<R>("first_entry_ns", "First entry", "ns", [](const R &r) { return Cell(r.firstEntry); }),
        integer<R>("skew_ns", "Skew", "ns", [](const R &r) { return Cell(r.skewNs()); }, kShown),
        integer<R>("last_rank", "Last rank", "", [](const R &r) { return Cell(r.lastRank); }, kShown),
        integer<R>("late_ns", "Late by", "ns", [](const R &r) { return Cell(r.lateNs); }, kShown),
        integer<R>("wait_ns", "Others' wait", "ns", [](const R &r) { return Cell(r.waitNs); }, kShown),
        integer<R>("max_wait_ns", "Max wait", "ns", [](const R &r) { return Cell(r.maxWaitNs); }, kShown),
    };
    return d;
}

const RowDescription<RankLateness> &TableRows::rankLateness()
{
    using R = RankLateness;
    static const RowDescription<R> d = {
        integer<R>("rank", "Rank", "", [](const R &r) { return Cell(r.rank); }, kShown),
        integer<R>("matched", "Matched", "count", [](const R &r) { return i64(r.matched); }, kShown),
        integer<R>("last", "Last", "count", [](const R &r) { return i64(r.last); }, kShown),
        integer<R>("late_ns", "Late in all", "ns", [](const R &r) { return Cell(r.lateNs); }, kShown),
        integer<R>("caused_wait_ns", "Others waited", "ns", [](const R &r) { return Cell(r.causedWaitNs); }, kShown),
        integer<R>("max_late_ns", "Max late", "ns", [](const R &r) { return Cell(r.maxLateNs); }, kShown),
    };
    return d;
}

Cell TableRows::roundedPercent(std::optional<double> pct)
{
    return pct ? Cell(std::round(*pct * 1000.0) / 1000.0) : Cell(nullptr);
}

const RowDescription<DiffRow> &TableRows::diffRows()
{
    using R = DiffRow;
    static const RowDescription<R> d = {
        text<R>("name", "Name", [](const R &r) { return r.name; }),
        text<R>("kind", "Kind", [](const R &r) { return r.kind; }),
        integer<R>("a_ns", "A", "ns", [](const R &r) { return Cell(r.aNs); }),
        integer<R>("b_ns", "B", "ns", [](const R &r) { return Cell(r.bNs); }),
        integer<R>("delta_ns", "Delta", "ns", [](const R &r) { return Cell(r.deltaNs()); }),
        nullable(real<R>("delta_pct", "Delta %", "%", [](const R &r) { return roundedPercent(r.deltaPct()); })),
        integer<R>("a_calls", "Calls A", "count", [](const R &r) { return i64(r.aCalls); }),
        integer<R>("b_calls", "Calls B", "count", [](const R &r) { return i64(r.bCalls); }),
    };
    return d;
}

const RowDescription<EngineDiffRow> &TableRows::engineDiffRows()
{
    using R = EngineDiffRow;
    const auto dma = [](const R &r, uint64_t v) { return r.engine == "DMA" ? i64(v) : Cell(); };
    static const RowDescription<R> d = {
        text<R>("engine", "Engine", [](const R &r) { return r.engine; }),
        integer<R>("a_active_ns", "Active A", "ns", [](const R &r) { return Cell(r.aActiveNs); }),
        integer<R>("b_active_ns", "Active B", "ns", [](const R &r) { return Cell(r.bActiveNs); }),
        integer<R>("delta_active_ns", "Delta", "ns", [](const R &r) { return Cell(r.deltaActiveNs()); }),
        integer<R>("a_instructions", "Instructions A", "count", [](const R &r) { return i64(r.aInstructions); }),
        integer<R>("b_instructions", "Instructions B", "count", [](const R &r) { return i64(r.bInstructions); }),
        integer<R>("a_instruction_ns", "Instruction time A", "ns", [](const R &r) { return Cell(r.aInstructionNs); }),
        integer<R>("b_instruction_ns", "Instruction time B", "ns", [](const R &r) { return Cell(r.bInstructionNs); }),
        nullable(integer<R>("a_dma_bytes", "DMA bytes A", "bytes", [dma](const R &r) { return dma(r, r.aDmaBytes); })),
        nullable(integer<R>("b_dma_bytes", "DMA bytes B", "bytes", [dma](const R &r) { return dma(r, r.bDmaBytes); })),
    };
    return d;
}

} // namespace lanescope
