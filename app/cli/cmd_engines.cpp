// lanescope-cli engines PATH [--json|--format csv [--table engines|dma|cores]] [--range FROM:TO]
// [--execution N|list] [--by engine|layer|hlo]: per-engine and per-DMA-queue breakdown of every NeuronCore in a trace
// (EngineBreakdown, the numbers the GUI's Engines dock shows), over the whole trace or for one device
// execution of a profile folder (DeviceExecutions: `--execution list` prints their numbers). Columns:
// core/analysis/tablerows.h. `--by layer|hlo`: the same per framework layer / HLO op (OpBreakdown, the
// Engines dock's By layer / By HLO op), with neuron-profile's layer_summary FLOPs, MFU and HFU.
#include "commands.h"
#include "tableargs.h"
#include "tableoutput.h"

#include "analysis/deviceexecutions.h"
#include "analysis/enginebreakdown.h"
#include "analysis/opbreakdown.h"
#include "analysis/tablerows.h"
#include "model/trace.h"
#include "util/textutil.h"
#include "util/qtext.h"
#include "util/unittext.h"

#include <QJsonArray>

#include <cstdio>

namespace lanescope::cli {

namespace {


// The row plus its two lists (JSON only): the longest idle gaps and the top opcodes.
QJsonObject engineJson(const EngineBreakdownRow &e)
{
    QJsonObject o = TableRowWriter::jsonObject(TableRows::engines(), e);
    QJsonArray gaps, ops;
    for (const EngineIdleGap &g : e.longestIdleGaps)
        gaps.append(QJsonObject{{QStringLiteral("start_ns"), qint64(g.startNs)}, {QStringLiteral("duration_ns"), qint64(g.durationNs)}});
    for (const EngineOpcodeTime &op : e.topOpcodes)
        ops.append(QJsonObject{{QStringLiteral("opcode"), qs(op.opcode)},
                               {QStringLiteral("count"), qint64(op.count)},
                               {QStringLiteral("time_ns"), qint64(op.timeNs)}});
    o[QStringLiteral("longest_idle_gaps")] = gaps;
    o[QStringLiteral("top_opcodes")] = ops;
    return o;
}

void printText(const EngineBreakdownResult &r)
{
    std::printf("window: %lld .. %lld ns (%s), percentages of %lld ns (%s)\n", (long long)r.startNs,
                (long long)r.endNs, r.wholeTrace ? "whole trace" : r.execution ? "one execution" : "range", (long long)r.denominatorNs,
                r.denominatorSource.c_str());
    std::string core;
    for (const EngineBreakdownRow &e : r.engines) {
        if (e.coreName != core) {
            core = e.coreName;
            std::printf("\n%s\n  %-8s %8s %14s %14s %9s %8s %14s  %s\n", core.c_str(), "engine", "instr", "instr time ns",
                        "active ns", "active %", "waits", "longest idle", "top opcodes (ns)");
        }
        std::string ops;
        for (size_t i = 0; i < e.topOpcodes.size() && i < 3; ++i)
            ops += (i ? ", " : "") + e.topOpcodes[i].opcode + " " + std::to_string(e.topOpcodes[i].timeNs);
        std::printf("  %-8s %8llu %14lld %14lld %9.4f %8llu %14lld  %s\n",
                    std::string(EngineBreakdown::engineName(e.engine)).c_str(), (unsigned long long)e.instructionCount,
                    (long long)e.instructionTimeNs, (long long)e.activeTimeNs, e.activePercent,
                    (unsigned long long)e.semaphoreWaitCount,
                    (long long)(e.longestIdleGaps.empty() ? 0 : e.longestIdleGaps.front().durationNs), ops.c_str());
    }
    if (!r.dma.empty()) {
        std::printf("\n  %-40s %8s %12s %12s %9s %12s\n", "DMA queue", "packets", "bytes", "active ns", "active %", "GB/s");
        for (const DmaQueueBreakdownRow &d : r.dma)
            std::printf("  %-40s %8llu %12llu %12lld %9.4f %12.3f\n", d.queue.c_str(), (unsigned long long)d.packetCount,
                        (unsigned long long)d.bytes, (long long)d.activeTimeNs, d.activePercent,
                        d.throughputBytesPerSec / 1e9);
    }
    for (const CoreBreakdown &c : r.cores) {
        std::printf("\n%s: DMA %llu bytes (%s), active %lld ns\n", c.coreName.c_str(), (unsigned long long)c.dmaBytes,
                    UnitText::bytes(double(c.dmaBytes)).c_str(), (long long)c.dmaActiveTimeNs);
        if (c.mfuPercent)
            std::printf("  MFU %.6f %%", *c.mfuPercent);
        if (c.hfuPercent)
            std::printf("  HFU %.6f %%", *c.hfuPercent);
        if (c.mfuPercent || c.hfuPercent)
            std::printf("  (peak %.2f TFLOP/s)\n", c.peakFlopsPerSec / 1e12);
        std::printf("  %s\n", c.flopsNote.c_str());
    }
}

} // namespace

QJsonObject executionJson(const Trace &trace, const DeviceExecutions &executions, size_t i)
{
    const DeviceExecution &e = executions.all()[i];
    return QJsonObject{{QStringLiteral("number"), qint64(e.number)},
                       {QStringLiteral("name"), qs(e.name)},
                       {QStringLiteral("core"), qs(trace.groupPath(e.core))},
                       {QStringLiteral("start_ns"), qint64(e.start)},
                       {QStringLiteral("duration_ns"), qint64(e.end - e.start)}};
}

// `--execution N|list` and `--by layer|hlo`, taken out of the arguments before the shared table flags
// are parsed.
Args takeOwnFlags(const Args &args, std::string &execution, std::string &by)
{
    Args rest;
    for (size_t i = 0; i < args.size(); ++i)
        if (!takeValue(args, i, "--execution", execution) && !takeValue(args, i, "--by", by))
            rest.push_back(args[i]);
    return rest;
}

namespace {

void printOpText(const OpBreakdownResult &r, OpBreakdown::By by)
{
    std::string core;
    for (const OpBreakdownRow &row : r.rows) {
        if (row.coreName != core) {
            core = row.coreName;
            std::printf("%s%s, by %s\n  %-40s %12s %12s %7s", core == r.rows.front().coreName ? "" : "\n", core.c_str(),
                        by == OpBreakdown::By::Layer ? "layer" : "HLO op", "name", "start ns", "duration ns", "instr");
            for (int e = 0; e < kNeuronEngineCount; ++e)
                std::printf(" %12s", (std::string(EngineBreakdown::engineName(NeuronEngine(e))) + " ns").c_str());
            std::printf(" %14s %10s %10s\n", "FLOPs", "MFU %", "HFU %");
        }
        std::printf("  %-40s %12lld %12lld %7llu", row.name.c_str(), (long long)row.startNs, (long long)row.durationNs,
                    (unsigned long long)row.instructionCount);
        for (const OpEngineTime &t : row.engines)
            std::printf(" %12lld", (long long)t.activeTimeNs);
        const auto num = [](const std::optional<double> &v, const char *fmt) {
            char b[64] = "-";
            if (v)
                std::snprintf(b, sizeof b, fmt, *v);
            return std::string(b);
        };
        std::printf(" %14s %10s %10s\n", num(row.flops, "%.0f").c_str(), num(row.mfuPercent, "%.6f").c_str(),
                    num(row.hfuPercent, "%.6f").c_str());
    }
    if (!r.any)
        std::printf("\nno instruction carries a %s name (neuron-profile JSON exports have them per instruction; an NTFF alone does not)\n",
                    by == OpBreakdown::By::Layer ? "layer" : "HLO op");
    std::printf("\nengine columns: active time (union of the engine's instructions, semaphore waits excluded)\n%s\n",
                r.flopsNote.c_str());
}

int printOps(const TableArgs &ta, const Trace &trace, OpBreakdown::By by)
{
    const OpBreakdownResult r = OpBreakdown::compute(trace, by);
    if (ta.format == TableArgs::Format::Csv) {
        printCsv(TableRows::opRows(), r.rows);
    } else if (ta.format == TableArgs::Format::Json) {
        printJson(QJsonObject{{QStringLiteral("by"), QString::fromLatin1(OpBreakdown::byName(by))},
                              {QStringLiteral("rows"), TableRowWriter::jsonArray(TableRows::opRows(), r.rows)},
                              {QStringLiteral("named"), r.any},
                              {QStringLiteral("flops_note"), qs(r.flopsNote)}});
    } else if (r.rows.empty()) {
        std::printf("no NeuronCore engine lanes in %s\n", ta.path.c_str());
    } else {
        printOpText(r, by);
    }
    return kExitOk;
}

} // namespace

int cmdEngines(const Args &allArgs)
{
    std::string execution, by;
    const Args args = takeOwnFlags(allArgs, execution, by);
    TableArgs ta;
    if (!ta.parse("engines", args, {.table = true}))
        return kExitUnreadable;
    if (!by.empty() && by != "engine" && by != "layer" && by != "hlo")
        return ta.usageError("--by expects engine, layer or hlo, got '" + by + "'");
    if ((by == "layer" || by == "hlo") && (!execution.empty() || ta.range || !ta.table.empty()))
        return ta.usageError("--by " + by + " covers the whole trace: it takes no --execution, --range or --table");
    int64_t number = 0;
    if (!execution.empty() && execution != "list" && (!text::parseInt(execution, number) || number <= 0))
        return ta.usageError("--execution expects an execution number (1, 2, ... as `--execution list` prints them) or list, got '" +
                             execution + "'");
    if (!ta.table.empty() && (ta.format != TableArgs::Format::Csv || (ta.table != "engines" && ta.table != "dma" && ta.table != "cores")))
        return ta.usageError("--table engines|dma|cores picks the table of --format csv, got '" + ta.table + "'");
    LoadResult loaded;
    if (!ta.load(args, loaded))
        return kExitUnreadable;
    if (by == "layer" || by == "hlo")
        return printOps(ta, *loaded.trace, by == "layer" ? OpBreakdown::By::Layer : OpBreakdown::By::HloOp);
    EngineBreakdown::Options options;
    const DeviceExecutions executions = DeviceExecutions::build(*loaded.trace);
    if (execution == "list") {
        if (ta.format == TableArgs::Format::Json) {
            QJsonArray list;
            for (size_t i = 0; i < executions.all().size(); ++i)
                list.append(executionJson(*loaded.trace, executions, i));
            printJson(QJsonObject{{QStringLiteral("executions"), list}});
        } else if (executions.empty()) {
            std::printf("no device executions lane in %s (a profile folder has one per NeuronCore)\n", ta.path.c_str());
        } else {
            for (size_t i = 0; i < executions.all().size(); ++i) {
                const DeviceExecution &e = executions.all()[i];
                std::printf("%s  start %lld ns  %lld ns\n", executions.label(*loaded.trace, i).c_str(), (long long)e.start,
                            (long long)(e.end - e.start));
            }
        }
        return kExitOk;
    }
    if (number) {
        if (uint64_t(number) > executions.all().size()) {
            std::fprintf(stderr, "lanescope-cli engines: %s has %zu device executions, there is no execution %llu "
                                 "(`--execution list` prints them)\n",
                         ta.path.c_str(), executions.all().size(), (unsigned long long)number);
            return kExitUnreadable;
        }
        options.execution = size_t(number - 1);
    }
    if (ta.range) {
        options.startNs = ta.range->absoluteFrom(loaded.trace->startNs());
        options.endNs = ta.range->absoluteTo(loaded.trace->startNs());
    }
    const EngineBreakdownResult r = EngineBreakdown::compute(*loaded.trace, options);
    if (ta.format == TableArgs::Format::Csv) {
        if (ta.table == "dma")
            printCsv(TableRows::dmaQueues(), r.dma);
        else if (ta.table == "cores")
            printCsv(TableRows::cores(), r.cores);
        else
            printCsv(TableRows::engines(), r.engines);
    } else if (ta.format == TableArgs::Format::Json) {
        QJsonArray engines;
        for (const EngineBreakdownRow &e : r.engines)
            engines.append(engineJson(e));
        QJsonObject o;
        o[QStringLiteral("engines")] = engines;
        o[QStringLiteral("dma")] = TableRowWriter::jsonArray(TableRows::dmaQueues(), r.dma);
        o[QStringLiteral("cores")] = TableRowWriter::jsonArray(TableRows::cores(), r.cores);
        if (options.execution)
            o[QStringLiteral("execution")] = executionJson(*loaded.trace, executions, *options.execution);
        o[QStringLiteral("window")] = QJsonObject{{QStringLiteral("start_ns"), qint64(r.startNs)},
                                                  {QStringLiteral("end_ns"), qint64(r.endNs)},
                                                  {QStringLiteral("whole_trace"), r.wholeTrace},
                                                  {QStringLiteral("percent_of_ns"), qint64(r.denominatorNs)},
                                                  {QStringLiteral("percent_of"), qs(r.denominatorSource)}};
        printJson(o);
    } else if (r.empty()) {
        std::printf("no NeuronCore engine or DMA lanes in %s\n", ta.path.c_str());
    } else {
        printText(r);
    }
    return kExitOk;
}

} // namespace lanescope::cli
