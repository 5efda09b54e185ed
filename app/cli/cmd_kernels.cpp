// lanescope-cli kernels PATH: device kernels / NEFF executions / Neuron opcodes by name (KernelTable).
#include "commands.h"
#include "tableargs.h"

#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "io/traceloader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace lanescope::cli {

int cmdKernels(const Args &args)
{
    TableArgs ta;
    std::string error;
    if (!ta.parse(args, error) || ta.groupByShapes) {
        if (ta.groupByShapes)
            error = "--group-by-shapes applies to `ops` only";
        std::fprintf(stderr, "lanescope-cli kernels: %s\nusage: lanescope-cli kernels PATH %s\n", error.c_str(), TableArgs::usageFlags());
        return kExitUnreadable;
    }
    KernelTable::Options options;
    options.hasRange = ta.hasRange;
    options.t0 = ta.t0;
    options.t1 = ta.t1;
    if (!ta.sort.empty()) {
        const auto column = KernelTable::columnFromName(ta.sort);
        if (!column) {
            std::string known;
            for (int c = 0; c < int(KernelTable::Column::ColumnCount); ++c)
                known += std::string(c ? ", " : "") + KernelTable::columnName(KernelTable::Column(c));
            std::fprintf(stderr, "lanescope-cli kernels: unknown sort column '%s' (use one of %s)\n", ta.sort.c_str(), known.c_str());
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
    const KernelTable::Result result = KernelTable::compute(trace, index, options);
    const size_t shown = ta.limit < 0 ? result.rows.size() : std::min(result.rows.size(), size_t(ta.limit));

    if (ta.json) {
        QJsonArray rows;
        for (size_t i = 0; i < shown; ++i) {
            const KernelTable::Row &r = result.rows[i];
            QJsonObject o;
            o[QStringLiteral("name")] = QString::fromStdString(r.name);
            o[QStringLiteral("kind")] = QString::fromLatin1(LaunchIndex::kindName(r.kind));
            o[QStringLiteral("count")] = qint64(r.count);
            o[QStringLiteral("total_ns")] = qint64(r.total);
            o[QStringLiteral("mean_ns")] = r.mean();
            o[QStringLiteral("min_ns")] = qint64(r.min);
            o[QStringLiteral("max_ns")] = qint64(r.max);
            o[QStringLiteral("percent")] = r.percent;
            o[QStringLiteral("launched_by")] = QString::fromStdString(r.launchedBy);
            o[QStringLiteral("launchers")] = qint64(r.launchers);
            o[QStringLiteral("unattributed")] = qint64(r.unattributed);
            rows.append(o);
        }
        QJsonObject o;
        o[QStringLiteral("file")] = QString::fromStdString(trace.metadata().sourcePath);
        o[QStringLiteral("sort")] = QString::fromLatin1(KernelTable::columnName(options.sortBy));
        o[QStringLiteral("rows_total")] = qint64(result.rows.size());
        o[QStringLiteral("execution_time_ns")] = qint64(result.executionTime);
        o[QStringLiteral("instruction_time_ns")] = qint64(result.instructionTime);
        o[QStringLiteral("kernels")] = rows;
        const QByteArray out = QJsonDocument(o).toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
        return kExitOk;
    }
    std::printf("%-60s %-9s %8s %13s %13s %13s %13s %7s  %s\n", "Name", "Kind", "Count", "Total", "Mean", "Min", "Max",
                "%", "Launched by");
    for (size_t i = 0; i < shown; ++i) {
        const KernelTable::Row &r = result.rows[i];
        const std::string name = r.name.size() > 60 ? r.name.substr(0, 57) + "..." : r.name;
        std::string by = r.launchedBy.empty() ? std::string("(unattributed)") : r.launchedBy;
        if (r.launchers > 1)
            by += " (+" + std::to_string(r.launchers - 1) + " more)";
        std::printf("%-60s %-9s %8llu %13s %13s %13s %13s %6.2f%%  %s\n", name.c_str(), LaunchIndex::kindName(r.kind),
                    (unsigned long long)r.count, formatNs(double(r.total)).c_str(), formatNs(r.mean()).c_str(),
                    formatNs(double(r.min)).c_str(), formatNs(double(r.max)).c_str(), r.percent, by.c_str());
    }
    if (shown < result.rows.size())
        std::printf("... %zu more rows (--limit)\n", result.rows.size() - shown);
    std::printf("Device time: %s in executions, %s in instructions / DMA\n", formatNs(double(result.executionTime)).c_str(),
                formatNs(double(result.instructionTime)).c_str());
    return kExitOk;
}

} // namespace lanescope::cli
