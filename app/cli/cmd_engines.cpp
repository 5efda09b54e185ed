// lanescope-cli engines PATH [--json] [--range START_NS:END_NS]: per-engine and per-DMA-queue breakdown
// of every NeuronCore in a trace (EngineBreakdown, the numbers the GUI's Engines dock shows).
#include "commands.h"

#include "analysis/enginebreakdown.h"
#include "io/traceloader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <charconv>
#include <cstdio>

namespace lanescope::cli {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

bool parseInt(std::string_view s, int64_t &v)
{
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && ptr == s.data() + s.size();
}

// "START:END" in ns; either side may be empty (open).
bool parseRange(const std::string &text, EngineBreakdown::Options &o)
{
    const size_t colon = text.find(':');
    if (colon == std::string::npos)
        return false;
    const std::string_view a(text.data(), colon), b(text.data() + colon + 1, text.size() - colon - 1);
    int64_t v = 0;
    if (!a.empty()) {
        if (!parseInt(a, v))
            return false;
        o.startNs = v;
    }
    if (!b.empty()) {
        if (!parseInt(b, v))
            return false;
        o.endNs = v;
    }
    return !(o.startNs && o.endNs && *o.endNs < *o.startNs);
}

QJsonObject engineJson(const EngineBreakdownRow &e)
{
    QJsonObject o;
    o[QStringLiteral("core")] = qs(e.coreName);
    o[QStringLiteral("engine")] = qs(EngineBreakdown::engineName(e.engine));
    o[QStringLiteral("instruction_count")] = qint64(e.instructionCount);
    o[QStringLiteral("instruction_time_ns")] = qint64(e.instructionTimeNs);
    o[QStringLiteral("active_time_ns")] = qint64(e.activeTimeNs);
    o[QStringLiteral("active_percent")] = e.activePercent;
    o[QStringLiteral("semaphore_wait_count")] = qint64(e.semaphoreWaitCount);
    o[QStringLiteral("semaphore_wait_time_ns")] = qint64(e.semaphoreWaitTimeNs);
    o[QStringLiteral("idle_time_ns")] = qint64(e.idleTimeNs);
    o[QStringLiteral("idle_gap_count")] = qint64(e.idleGapCount);
    QJsonArray gaps;
    for (const EngineIdleGap &g : e.longestIdleGaps)
        gaps.append(QJsonObject{{QStringLiteral("start_ns"), qint64(g.startNs)}, {QStringLiteral("duration_ns"), qint64(g.durationNs)}});
    o[QStringLiteral("longest_idle_gaps")] = gaps;
    QJsonArray ops;
    for (const EngineOpcodeTime &op : e.topOpcodes)
        ops.append(QJsonObject{{QStringLiteral("opcode"), qs(op.opcode)},
                               {QStringLiteral("count"), qint64(op.count)},
                               {QStringLiteral("time_ns"), qint64(op.timeNs)}});
    o[QStringLiteral("top_opcodes")] = ops;
    if (e.clockGHz > 0)
        o[QStringLiteral("clock_ghz")] = e.clockGHz;
    return o;
}

QJsonObject dmaJson(const DmaQueueBreakdownRow &d)
{
    QJsonObject o;
    o[QStringLiteral("core")] = qs(d.coreName);
    o[QStringLiteral("queue")] = qs(d.queue);
    o[QStringLiteral("bytes")] = qint64(d.bytes);
    o[QStringLiteral("active_time_ns")] = qint64(d.activeTimeNs);
    o[QStringLiteral("active_percent")] = d.activePercent;
    o[QStringLiteral("packet_count")] = qint64(d.packetCount);
    o[QStringLiteral("throughput_bytes_per_s")] = d.throughputBytesPerSec;
    if (d.dmaEngine >= 0)
        o[QStringLiteral("dma_engine")] = d.dmaEngine;
    if (d.queueIndex >= 0)
        o[QStringLiteral("dma_queue")] = d.queueIndex;
    return o;
}

QJsonObject coreJson(const CoreBreakdown &c)
{
    QJsonObject o;
    o[QStringLiteral("core")] = qs(c.coreName);
    o[QStringLiteral("dma_bytes")] = qint64(c.dmaBytes);
    o[QStringLiteral("dma_active_time_ns")] = qint64(c.dmaActiveTimeNs);
    if (c.mfuPercent)
        o[QStringLiteral("mfu_percent")] = *c.mfuPercent;
    if (c.hfuPercent)
        o[QStringLiteral("hfu_percent")] = *c.hfuPercent;
    if (c.peakFlopsPerSec > 0)
        o[QStringLiteral("peak_flops_per_s")] = c.peakFlopsPerSec;
    o[QStringLiteral("flops_note")] = qs(c.flopsNote);
    return o;
}

void printText(const EngineBreakdownResult &r)
{
    std::printf("window: %lld .. %lld ns (%s), percentages of %lld ns (%s)\n", (long long)r.startNs,
                (long long)r.endNs, r.wholeTrace ? "whole trace" : "range", (long long)r.denominatorNs,
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
        std::printf("\n%s: DMA %llu bytes, active %lld ns\n", c.coreName.c_str(), (unsigned long long)c.dmaBytes,
                    (long long)c.dmaActiveTimeNs);
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

int cmdEngines(const Args &args)
{
    const auto paths = positional(args, {"--range"});
    if (paths.size() != 1) {
        std::fprintf(stderr, "usage: lanescope-cli engines PATH [--json] [--range START_NS:END_NS]\n");
        return kExitUnreadable;
    }
    EngineBreakdown::Options options;
    const std::string range = flagValue(args, "--range");
    if (!range.empty() && !parseRange(range, options)) {
        std::fprintf(stderr, "lanescope-cli engines: --range expects START_NS:END_NS with END_NS >= START_NS, got '%s'\n",
                     range.c_str());
        return kExitUnreadable;
    }
    const LoadResult loaded = loadTrace(paths[0], args);
    if (!loaded.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", loaded.error.c_str());
        return kExitUnreadable;
    }
    const EngineBreakdownResult r = EngineBreakdown::compute(*loaded.trace, options);
    if (hasFlag(args, "--json")) {
        QJsonArray engines, dma, cores;
        for (const EngineBreakdownRow &e : r.engines)
            engines.append(engineJson(e));
        for (const DmaQueueBreakdownRow &d : r.dma)
            dma.append(dmaJson(d));
        for (const CoreBreakdown &c : r.cores)
            cores.append(coreJson(c));
        QJsonObject o;
        o[QStringLiteral("engines")] = engines;
        o[QStringLiteral("dma")] = dma;
        o[QStringLiteral("cores")] = cores;
        o[QStringLiteral("window")] = QJsonObject{{QStringLiteral("start_ns"), qint64(r.startNs)},
                                                  {QStringLiteral("end_ns"), qint64(r.endNs)},
                                                  {QStringLiteral("whole_trace"), r.wholeTrace},
                                                  {QStringLiteral("percent_of_ns"), qint64(r.denominatorNs)},
                                                  {QStringLiteral("percent_of"), qs(r.denominatorSource)}};
        const QByteArray out = QJsonDocument(o).toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    } else if (r.empty()) {
        std::printf("no NeuronCore engine or DMA lanes in %s\n", paths[0].c_str());
    } else {
        printText(r);
    }
    return kExitOk;
}

} // namespace lanescope::cli
