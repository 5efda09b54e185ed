// lanescope-cli devices PATH: busy / idle / compute / memcpy time per GPU and NeuronCore (DeviceSummary).
#include "commands.h"
#include "tableargs.h"
#include "tableoutput.h"

#include "analysis/devicesummary.h"
#include "analysis/launchindex.h"
#include "analysis/tablerows.h"
#include "util/durationtext.h"

#include <cstdio>

namespace lanescope::cli {

namespace {

void printText(const std::vector<DeviceSummary::Row> &rows, size_t shown)
{
    if (rows.empty()) {
        std::printf("no device work found (no kernels, memcpy, NEFF executions or NTFF data)\n");
        return;
    }
    const auto ns = [](int64_t v) { return DurationText::column(double(v)); };
    std::printf("%-20s %13s %13s %13s %8s %13s %13s %10s\n", "Device", "Total", "Busy", "Idle", "Busy %", "Compute",
                "Memcpy/DMA", "Work");
    for (size_t i = 0; i < shown; ++i) {
        const DeviceSummary::Row &r = rows[i];
        std::printf("%-20s %13s %13s %13s %7.2f%% %13s %13s %10llu\n", r.device.c_str(), ns(r.total).c_str(),
                    ns(r.busy).c_str(), ns(r.idle).c_str(), r.busyPercent(), ns(r.compute).c_str(), ns(r.memcpy).c_str(),
                    (unsigned long long)r.work);
    }
}

} // namespace

int cmdDevices(const Args &args)
{
    TableArgs ta;
    if (!ta.parse("devices", args, {.limit = true, .rank = true}))
        return kExitUnreadable;
    LoadResult loaded;
    DeviceSummary::Options options;
    if (!ta.load(args, loaded, options))
        return kExitUnreadable;
    const Trace &trace = *loaded.trace;
    const auto rows = DeviceSummary::compute(trace, LaunchIndex::build(trace), options);
    const size_t shown = ta.shown(rows.size());
    if (ta.format == TableArgs::Format::Csv) {
        printCsv(TableRows::devices(), rows, shown);
    } else if (ta.format == TableArgs::Format::Json) {
        QJsonObject o;
        o[QStringLiteral("file")] = QString::fromStdString(trace.metadata().sourcePath);
        if (ta.rank >= 0)
            o[QStringLiteral("rank")] = qint64(ta.rank);
        o[QStringLiteral("devices")] = TableRowWriter::jsonArray(TableRows::devices(), rows, shown);
        printJson(o);
    } else {
        printText(rows, shown);
    }
    return kExitOk;
}

} // namespace lanescope::cli
