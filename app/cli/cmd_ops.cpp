// lanescope-cli ops PATH: the operator table (OpTable), PyTorch key_averages numbers per op name.
#include "commands.h"
#include "tableargs.h"
#include "tableoutput.h"

#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "analysis/tablerows.h"
#include "util/durationtext.h"
#include "util/unittext.h"

#include <cstdio>

namespace lanescope::cli {

namespace {

std::string ns(double v) { return DurationText::column(v); }

// The Neuron device columns (FLOPs, MFU, DMA bytes) only when some row has them; a null cell is "-".
std::string orDash(bool known, const std::string &text) { return known ? text : std::string("-"); }

void printText(const OpTable::Result &result, size_t shown, bool shapes)
{
    const bool device = result.deviceFlops || result.dmaBytes;
    std::printf("%-50s %8s %13s %13s %13s %13s %13s %8s", "Name", "Calls", "CPU total", "CPU self", "CPU avg", "Device total",
                "Device self", "Self %");
    if (device)
        std::printf(" %14s %14s %8s %11s", "FLOPs total", "FLOPs self", "MFU", "DMA total");
    std::printf("%s\n", shapes ? "  Input shapes" : "");
    for (size_t i = 0; i < shown; ++i) {
        const OpTable::Row &r = result.rows[i];
        std::string name = r.name.size() > 50 ? r.name.substr(0, 47) + "..." : r.name;
        std::printf("%-50s %8llu %13s %13s %13s %13s %13s %7.2f%%", name.c_str(), (unsigned long long)r.calls,
                    ns(double(r.cpuTotal)).c_str(), ns(double(r.cpuSelf)).c_str(), ns(r.cpuAvg()).c_str(),
                    ns(double(r.deviceTotal)).c_str(), ns(double(r.deviceSelf)).c_str(), r.cpuSelfPercent);
        if (device) {
            const auto flops = [](const std::optional<double> &v) { return orDash(v.has_value(), v ? UnitText::count(*v) : ""); };
            std::printf(" %14s %14s %8s %11s", flops(r.deviceFlopsTotal).c_str(), flops(r.deviceFlopsSelf).c_str(),
                        orDash(r.mfuPercent.has_value(), r.mfuPercent ? UnitText::percent(*r.mfuPercent) : "").c_str(),
                        orDash(r.dmaBytesTotal.has_value(), r.dmaBytesTotal ? UnitText::bytes(double(*r.dmaBytesTotal)) : "").c_str());
        }
        std::printf("%s%s\n", shapes ? "  " : "", r.shapes.c_str());
    }
    if (shown < result.rows.size())
        std::printf("... %zu more rows (--limit)\n", result.rows.size() - shown);
    std::printf("Self CPU time total: %s\n", ns(double(result.cpuSelfTotal)).c_str());
    std::printf("Device time total:   %s (unattributed: %s in %llu items)\n", ns(double(result.deviceTime)).c_str(),
                ns(double(result.unattributedDevice)).c_str(), (unsigned long long)result.unattributedCount);
    if (device)
        std::printf("FLOPs: model FLOPs of the NEFF executions (2 x hlo_stats.json HloMacCount per run); MFU = FLOPs / "
                    "(execution time x peak FLOP/s of the core); '-' = not known\n");
}

} // namespace

int cmdOps(const Args &args)
{
    TableArgs ta;
    if (!ta.parse("ops", args, {.sort = true, .limit = true, .shapes = true, .rank = true}))
        return kExitUnreadable;
    OpTable::Options options;
    options.groupByShapes = ta.groupByShapes;
    if (!ta.sortColumn<OpTable>(OpTable::Column::Count, options.sortBy,
                                ", or PyTorch's self_cpu_time_total, cpu_time_total, self_cuda_time_total, "
                                "self_privateuse1_time_total, ..."))
        return kExitUnreadable;
    LoadResult loaded;
    if (!ta.load(args, loaded, options))
        return kExitUnreadable;
    const Trace &trace = *loaded.trace;
    const OpTable::Result result = OpTable::compute(trace, LaunchIndex::build(trace), options);
    const size_t shown = ta.shown(result.rows.size());
    const auto &columns = TableRows::ops(ta.groupByShapes);
    if (ta.format == TableArgs::Format::Csv) {
        printCsv(columns, result.rows, shown);
    } else if (ta.format == TableArgs::Format::Json) {
        QJsonObject o;
        o[QStringLiteral("file")] = QString::fromStdString(trace.metadata().sourcePath);
        if (ta.rank >= 0)
            o[QStringLiteral("rank")] = qint64(ta.rank);
        o[QStringLiteral("sort")] = QString::fromLatin1(OpTable::columnName(options.sortBy));
        o[QStringLiteral("rows_total")] = qint64(result.rows.size());
        o[QStringLiteral("cpu_self_total_ns")] = qint64(result.cpuSelfTotal);
        o[QStringLiteral("device_time_ns")] = qint64(result.deviceTime);
        o[QStringLiteral("unattributed_device_ns")] = qint64(result.unattributedDevice);
        o[QStringLiteral("unattributed_device_count")] = qint64(result.unattributedCount);
        o[QStringLiteral("device_flops_known")] = result.deviceFlops; // some op has device FLOPs
        o[QStringLiteral("dma_bytes_known")] = result.dmaBytes;
        o[QStringLiteral("ops")] = TableRowWriter::jsonArray(columns, result.rows, shown);
        printJson(o);
    } else {
        printText(result, shown, ta.groupByShapes);
    }
    return kExitOk;
}

} // namespace lanescope::cli
