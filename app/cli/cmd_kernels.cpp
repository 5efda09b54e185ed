// lanescope-cli kernels PATH: device kernels / NEFF executions / Neuron opcodes by name (KernelTable).
#include "commands.h"
#include "tableargs.h"
#include "tableoutput.h"

#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "analysis/tablerows.h"
#include "util/durationtext.h"

#include <cstdio>

namespace lanescope::cli {

namespace {

std::string ns(double v) { return DurationText::column(v); }

void printText(const KernelTable::Result &result, size_t shown)
{
    std::printf("%-60s %-9s %8s %13s %13s %13s %13s %7s  %s\n", "Name", "Kind", "Count", "Total", "Mean", "Min", "Max",
                "%", "Launched by");
    for (size_t i = 0; i < shown; ++i) {
        const KernelTable::Row &r = result.rows[i];
        const std::string name = r.name.size() > 60 ? r.name.substr(0, 57) + "..." : r.name;
        std::string by = r.launchedBy.empty() ? std::string("(unattributed)") : r.launchedBy;
        if (r.launchers > 1)
            by += " (+" + std::to_string(r.launchers - 1) + " more)";
        std::printf("%-60s %-9s %8llu %13s %13s %13s %13s %6.2f%%  %s\n", name.c_str(), LaunchIndex::kindName(r.kind),
                    (unsigned long long)r.count, ns(double(r.total)).c_str(), ns(r.mean()).c_str(),
                    ns(double(r.min)).c_str(), ns(double(r.max)).c_str(), r.percent, by.c_str());
    }
    if (shown < result.rows.size())
        std::printf("... %zu more rows (--limit)\n", result.rows.size() - shown);
    std::printf("Device time: %s in executions, %s in instructions / DMA\n", ns(double(result.executionTime)).c_str(),
                ns(double(result.instructionTime)).c_str());
}

} // namespace

int cmdKernels(const Args &args)
{
    TableArgs ta;
    if (!ta.parse("kernels", args, {.sort = true, .limit = true, .rank = true}))
        return kExitUnreadable;
    KernelTable::Options options;
    LoadResult loaded;
    if (!ta.sortColumn<KernelTable>(KernelTable::Column::ColumnCount, options.sortBy) || !ta.load(args, loaded, options))
        return kExitUnreadable;
    const KernelTable::Result result = KernelTable::compute(*loaded.trace, LaunchIndex::build(*loaded.trace), options);
    const size_t shown = ta.shown(result.rows.size());
    if (ta.format == TableArgs::Format::Csv) {
        printCsv(TableRows::kernels(), result.rows, shown);
    } else if (ta.format == TableArgs::Format::Json) {
        QJsonObject o;
        o[QStringLiteral("file")] = QString::fromStdString(loaded.trace->metadata().sourcePath);
        if (ta.rank >= 0)
            o[QStringLiteral("rank")] = qint64(ta.rank);
        o[QStringLiteral("sort")] = QString::fromLatin1(KernelTable::columnName(options.sortBy));
        o[QStringLiteral("rows_total")] = qint64(result.rows.size());
        o[QStringLiteral("execution_time_ns")] = qint64(result.executionTime);
        o[QStringLiteral("instruction_time_ns")] = qint64(result.instructionTime);
        o[QStringLiteral("kernels")] = TableRowWriter::jsonArray(TableRows::kernels(), result.rows, shown);
        printJson(o);
    } else {
        printText(result, shown);
    }
    return kExitOk;
}

} // namespace lanescope::cli
