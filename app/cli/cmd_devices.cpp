// lanescope-cli devices PATH: busy / idle / compute / memcpy time per GPU and NeuronCore (DeviceSummary).
#include "commands.h"
#include "tableargs.h"

#include "analysis/devicesummary.h"
#include "analysis/launchindex.h"
#include "io/traceloader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace lanescope::cli {

int cmdDevices(const Args &args)
{
    TableArgs ta;
    std::string error;
    if (!ta.parse(args, error) || ta.groupByShapes || !ta.sort.empty()) {
        if (ta.groupByShapes)
            error = "--group-by-shapes applies to `ops` only";
        else if (!ta.sort.empty())
            error = "devices are listed in device order; --sort applies to `ops` and `kernels`";
        std::fprintf(stderr, "lanescope-cli devices: %s\nusage: lanescope-cli devices PATH [--json] [--limit N] [--range START_NS:END_NS]\n",
                     error.c_str());
        return kExitUnreadable;
    }
    const LoadResult loaded = loadTrace(ta.path, args);
    if (!loaded.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", loaded.error.c_str());
        return kExitUnreadable;
    }
    const Trace &trace = *loaded.trace;
    const LaunchIndex index = LaunchIndex::build(trace);
    DeviceSummary::Options options;
    options.hasRange = ta.hasRange;
    options.t0 = ta.t0;
    options.t1 = ta.t1;
    const auto rows = DeviceSummary::compute(trace, index, options);
    const size_t shown = ta.limit < 0 ? rows.size() : std::min(rows.size(), size_t(ta.limit));
    if (ta.json) {
        QJsonArray list;
        for (size_t i = 0; i < shown; ++i) {
            const DeviceSummary::Row &r = rows[i];
            QJsonObject o;
            o[QStringLiteral("device")] = QString::fromStdString(r.device);
            o[QStringLiteral("total_ns")] = qint64(r.total);
            o[QStringLiteral("busy_ns")] = qint64(r.busy);
            o[QStringLiteral("idle_ns")] = qint64(r.idle);
            o[QStringLiteral("compute_ns")] = qint64(r.compute);
            o[QStringLiteral("memcpy_ns")] = qint64(r.memcpy);
            o[QStringLiteral("busy_percent")] = r.busyPercent();
            o[QStringLiteral("work")] = qint64(r.work);
            list.append(o);
        }
        QJsonObject o;
        o[QStringLiteral("file")] = QString::fromStdString(trace.metadata().sourcePath);
        o[QStringLiteral("devices")] = list;
        const QByteArray out = QJsonDocument(o).toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
        return kExitOk;
    }
    if (rows.empty()) {
        std::printf("no device work found (no kernels, memcpy, NEFF executions or NTFF data)\n");
        return kExitOk;
    }
    std::printf("%-20s %13s %13s %13s %8s %13s %13s %10s\n", "Device", "Total", "Busy", "Idle", "Busy %", "Compute",
                "Memcpy/DMA", "Work");
    for (size_t i = 0; i < shown; ++i) {
        const DeviceSummary::Row &r = rows[i];
        std::printf("%-20s %13s %13s %13s %7.2f%% %13s %13s %10llu\n", r.device.c_str(), formatNs(double(r.total)).c_str(),
                    formatNs(double(r.busy)).c_str(), formatNs(double(r.idle)).c_str(), r.busyPercent(),
                    formatNs(double(r.compute)).c_str(), formatNs(double(r.memcpy)).c_str(), (unsigned long long)r.work);
    }
    return kExitOk;
}

} // namespace lanescope::cli
