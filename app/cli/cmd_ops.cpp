// lanescope-cli ops PATH: the operator table (OpTable), PyTorch key_averages numbers per op name.
#include "commands.h"
#include "tableargs.h"

#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "io/traceloader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace lanescope::cli {

namespace {

QString qs(const std::string &s) { return QString::fromStdString(s); }

QJsonObject rowJson(const OpTable::Row &r, bool shapes)
{
    QJsonObject o;
    o[QStringLiteral("name")] = qs(r.name);
    if (shapes)
        o[QStringLiteral("input_shapes")] = qs(r.shapes);
    o[QStringLiteral("kind")] = r.runtime ? QStringLiteral("runtime") : QStringLiteral("op");
    o[QStringLiteral("calls")] = qint64(r.calls);
    o[QStringLiteral("cpu_total_ns")] = qint64(r.cpuTotal);
    o[QStringLiteral("cpu_self_ns")] = qint64(r.cpuSelf);
    o[QStringLiteral("cpu_avg_ns")] = r.cpuAvg();
    o[QStringLiteral("cpu_min_ns")] = qint64(r.cpuMin);
    o[QStringLiteral("cpu_max_ns")] = qint64(r.cpuMax);
    o[QStringLiteral("device_total_ns")] = qint64(r.deviceTotal);
    o[QStringLiteral("device_self_ns")] = qint64(r.deviceSelf);
    o[QStringLiteral("device_avg_ns")] = r.deviceAvg();
    o[QStringLiteral("cpu_self_percent")] = r.cpuSelfPercent;
    o[QStringLiteral("cpu_total_percent")] = r.cpuTotalPercent;
    o[QStringLiteral("device_self_percent")] = r.deviceSelfPercent;
    o[QStringLiteral("device_total_percent")] = r.deviceTotalPercent;
    return o;
}

} // namespace

int cmdOps(const Args &args)
{
    TableArgs ta;
    std::string error;
    if (!ta.parse(args, error)) {
        std::fprintf(stderr, "lanescope-cli ops: %s\nusage: lanescope-cli ops PATH %s [--group-by-shapes]\n", error.c_str(),
                     TableArgs::usageFlags());
        return kExitUnreadable;
    }
    OpTable::Options options;
    options.groupByShapes = ta.groupByShapes;
    options.hasRange = ta.hasRange;
    options.t0 = ta.t0;
    options.t1 = ta.t1;
    if (!ta.sort.empty()) {
        const auto column = OpTable::columnFromName(ta.sort);
        if (!column) {
            std::string known;
            for (int c = 0; c < int(OpTable::Column::Count); ++c)
                known += std::string(c ? ", " : "") + OpTable::columnName(OpTable::Column(c));
            std::fprintf(stderr, "lanescope-cli ops: unknown sort column '%s' (use one of %s, or PyTorch's "
                                 "self_cpu_time_total, cpu_time_total, self_cuda_time_total, self_privateuse1_time_total, ...)\n",
                         ta.sort.c_str(), known.c_str());
            return kExitUnreadable;
        }
        options.sortBy = *column;
    }
    const LoadResult loaded = loadTrace(ta.path, args);
    if (!loaded.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", loaded.error.c_str());
        return kExitUnreadable;
    }
    const Trace &trace = *loaded.trace;
    const LaunchIndex index = LaunchIndex::build(trace);
    const OpTable::Result result = OpTable::compute(trace, index, options);
    const size_t shown = ta.limit < 0 ? result.rows.size() : std::min(result.rows.size(), size_t(ta.limit));

    if (ta.json) {
        QJsonArray rows;
        for (size_t i = 0; i < shown; ++i)
            rows.append(rowJson(result.rows[i], ta.groupByShapes));
        QJsonObject o;
        o[QStringLiteral("file")] = qs(trace.metadata().sourcePath);
        o[QStringLiteral("sort")] = QString::fromLatin1(OpTable::columnName(options.sortBy));
        o[QStringLiteral("rows_total")] = qint64(result.rows.size());
        o[QStringLiteral("cpu_self_total_ns")] = qint64(result.cpuSelfTotal);
        o[QStringLiteral("device_time_ns")] = qint64(result.deviceTime);
        o[QStringLiteral("unattributed_device_ns")] = qint64(result.unattributedDevice);
        o[QStringLiteral("unattributed_device_count")] = qint64(result.unattributedCount);
        o[QStringLiteral("ops")] = rows;
        const QByteArray out = QJsonDocument(o).toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
        return kExitOk;
    }
    std::printf("%-50s %8s %13s %13s %13s %13s %13s %8s%s\n", "Name", "Calls", "CPU total", "CPU self", "CPU avg",
                "Device total", "Device self", "Self %", ta.groupByShapes ? "  Input shapes" : "");
    for (size_t i = 0; i < shown; ++i) {
        const OpTable::Row &r = result.rows[i];
        std::string name = r.name.size() > 50 ? r.name.substr(0, 47) + "..." : r.name;
        std::printf("%-50s %8llu %13s %13s %13s %13s %13s %7.2f%%%s%s\n", name.c_str(), (unsigned long long)r.calls,
                    formatNs(double(r.cpuTotal)).c_str(), formatNs(double(r.cpuSelf)).c_str(), formatNs(r.cpuAvg()).c_str(),
                    formatNs(double(r.deviceTotal)).c_str(), formatNs(double(r.deviceSelf)).c_str(), r.cpuSelfPercent,
                    ta.groupByShapes ? "  " : "", r.shapes.c_str());
    }
    if (shown < result.rows.size())
        std::printf("... %zu more rows (--limit)\n", result.rows.size() - shown);
    std::printf("Self CPU time total: %s\n", formatNs(double(result.cpuSelfTotal)).c_str());
    std::printf("Device time total:   %s (unattributed: %s in %llu items)\n", formatNs(double(result.deviceTime)).c_str(),
                formatNs(double(result.unattributedDevice)).c_str(), (unsigned long long)result.unattributedCount);
    return kExitOk;
}

} // namespace lanescope::cli
