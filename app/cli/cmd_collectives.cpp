// lanescope-cli collectives PATH... [--rank N] [--json|--format csv] [--limit N]: NCCL / RCCL collectives
// of a GPU trace or multi-rank job (CollectiveTable): per collective kind, process group and message
// size, the count, total / median / max time, bytes, algorithm and bus bandwidth (nccl-tests'
// definitions, core/analysis/collectivetable.h), across ranks and per rank. Columns:
// core/analysis/tablerows.h.
#include "commands.h"
#include "tableargs.h"
#include "tableoutput.h"

#include "analysis/collectivetable.h"
#include "analysis/tablerows.h"
#include "model/trace.h"
#include "util/durationtext.h"
#include "util/qtext.h"
#include "util/unittext.h"

#include <cstdio>

namespace lanescope::cli {

namespace {

void printRows(const std::vector<CollectiveRow> &rows, size_t shown)
{
    std::printf("%-5s %-15s %-6s %5s %-9s %12s %7s %13s %13s %13s %14s %14s\n", "rank", "collective", "group", "ranks", "dtype",
                "message", "count", "total", "median", "max", "algbw", "busbw");
    const auto bw = [](const std::optional<double> &v) { return v ? UnitText::bytes(*v) + "/s" : std::string("-"); };
    for (size_t i = 0; i < shown && i < rows.size(); ++i) {
        const CollectiveRow &r = rows[i];
        std::printf("%-5s %-15s %-6s %5lld %-9s %12s %7llu %13s %13s %13s %14s %14s\n",
                    r.rank >= 0 ? std::to_string(r.rank).c_str() : "all", r.kind.c_str(), r.processGroup.empty() ? "-" : r.processGroup.c_str(),
                    (long long)r.groupSize, r.dtype.empty() ? "-" : r.dtype.c_str(),
                    r.messageBytes ? UnitText::bytes(double(*r.messageBytes)).c_str() : "-", (unsigned long long)r.count,
                    DurationText::column(double(r.totalNs)).c_str(), DurationText::column(double(r.medianNs)).c_str(),
                    DurationText::column(double(r.maxNs)).c_str(), bw(r.algBwBytesPerSec).c_str(), bw(r.busBwBytesPerSec).c_str());
    }
    if (shown < rows.size())
        std::printf("(%zu more rows; raise --limit to see them)\n", rows.size() - shown);
}

} // namespace

int cmdCollectives(const Args &args)
{
    TableArgs ta;
    if (!ta.parse("collectives", args, {.limit = true, .rank = true}))
        return kExitUnreadable;
    LoadResult loaded;
    if (!ta.load(args, loaded))
        return kExitUnreadable;
    const CollectiveTableResult r = CollectiveTable::compute(*loaded.trace, ta.rank >= 0 ? ta.rank : CollectiveTable::kAllRanks);
    std::vector<CollectiveRow> all = r.rows;
    all.insert(all.end(), r.perRank.begin(), r.perRank.end());
    if (ta.format == TableArgs::Format::Csv) {
        printCsv(TableRows::collectives(), all, ta.shown(all.size()));
        return kExitOk;
    }
    if (ta.format == TableArgs::Format::Json) {
        QJsonObject o;
        o[QStringLiteral("file")] = qs(loaded.trace->metadata().sourcePath);
        if (ta.rank >= 0)
            o[QStringLiteral("rank")] = qint64(ta.rank);
        o[QStringLiteral("instances")] = qint64(r.instances.size());
        o[QStringLiteral("total_ns")] = qint64(r.totalNs);
        o[QStringLiteral("collectives")] = TableRowWriter::jsonArray(TableRows::collectives(), r.rows, ta.shown(r.rows.size()));
        o[QStringLiteral("per_rank")] = TableRowWriter::jsonArray(TableRows::collectives(), r.perRank, ta.shown(r.perRank.size()));
        printJson(o);
        return kExitOk;
    }
    if (r.instances.empty()) {
        std::printf("no NCCL / RCCL collective kernels in %s\n", ta.path.c_str());
        return kExitOk;
    }
    std::printf("%zu collective kernels, %s on the GPU (nccl-tests' algbw / busbw: core/analysis/collectivetable.h)\n\n",
                r.instances.size(), DurationText::column(double(r.totalNs)).c_str());
    printRows(r.rows, ta.shown(r.rows.size()));
    if (!r.perRank.empty()) {
        std::printf("\nper rank\n");
        printRows(r.perRank, ta.shown(r.perRank.size()));
    }
    return kExitOk;
}

} // namespace lanescope::cli
