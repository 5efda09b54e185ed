// lanescope-cli collectives PATH... [--rank N] [--json|--format csv] [--limit N]: NCCL / RCCL collectives
// of a GPU trace or multi-rank job (CollectiveTable): per collective kind, process group and message
// size, the count, total / median / max time, bytes, algorithm and bus bandwidth (nccl-tests'
// definitions, core/analysis/collectivetable.h), across ranks and per rank; the communication /
// computation overlap per GPU and step (CommOverlap, HTA's definitions); on a multi-rank job each
// collective matched across ranks with its skew and last rank, and per rank its lateness
// (CollectiveMatch); for a neuron-profile export, its summary's collective ops (NeuronCollectives).
// --rank keeps that rank's rows; matching always reads every rank. Columns:
// core/analysis/tablerows.h. --format csv prints the collectives table only.
#include "commands.h"
#include "tableargs.h"
#include "tableoutput.h"

#include "analysis/collectiveanalysis.h"
#include "analysis/launchindex.h"
#include "analysis/neuroncollectives.h"
#include "analysis/tablerows.h"
#include "model/trace.h"
#include "util/durationtext.h"
#include "util/qtext.h"
#include "util/unittext.h"

#include <algorithm>
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

void printOverlap(const std::vector<CommOverlapRow> &rows)
{
    int width = 8;
    for (const CommOverlapRow &r : rows)
        width = std::max(width, int(r.device.size()));
    std::printf("%-*s %7s %13s %13s %13s %13s %13s %13s %9s\n", width, "device", "kernels", "step time", "computation",
                "communication", "memory", "idle", "exposed", "overlap");
    for (const CommOverlapRow &r : rows)
        std::printf("%-*s %7llu %13s %13s %13s %13s %13s %13s %9s\n", width, r.device.c_str(), (unsigned long long)r.kernels, DurationText::column(double(r.spanNs)).c_str(),
                    DurationText::column(double(r.computeNs)).c_str(), DurationText::column(double(r.communicationNs)).c_str(),
                    DurationText::column(double(r.memoryNs)).c_str(), DurationText::column(double(r.idleNs)).c_str(),
                    DurationText::column(double(r.exposedNs())).c_str(),
                    r.overlap() ? UnitText::percent(*r.overlap() * 100.0).c_str() : "-");
}

void printSkew(const CollectiveMatchResult &m, size_t shown)
{
    std::printf("%-5s %8s %6s %12s %12s %12s\n", "rank", "matched", "last", "late total", "max late", "others wait");
    for (const RankLateness &r : m.ranks)
        std::printf("%-5lld %8llu %6llu %12s %12s %12s\n", (long long)r.rank, (unsigned long long)r.matched,
                    (unsigned long long)r.last, DurationText::column(double(r.lateNs)).c_str(),
                    DurationText::column(double(r.maxLateNs)).c_str(), DurationText::column(double(r.causedWaitNs)).c_str());
    std::printf("\nmost skewed collectives\n");
    printMostSkewed(m, shown, "");
}

} // namespace

void printMostSkewed(const CollectiveMatchResult &m, size_t shown, const char *indent)
{
    const std::vector<const MatchedCollective *> bySkew = CollectiveMatch::mostSkewed(m);
    std::printf("%s%-15s %-6s %12s %6s %5s %12s %5s %12s %12s\n", indent, "collective", "group", "message", "step", "seq", "skew", "last",
                "late by", "others wait");
    for (size_t i = 0; i < shown && i < bySkew.size(); ++i) {
        const MatchedCollective &c = *bySkew[i];
        std::printf("%s%-15s %-6s %12s %6s %5u %12s %5lld %12s %12s\n", indent, c.kind.c_str(),
                    c.processGroup.empty() ? "-" : c.processGroup.c_str(), c.bytes ? UnitText::bytes(double(*c.bytes)).c_str() : "-",
                    c.step >= 0 ? std::to_string(c.step).c_str() : "-", c.sequence, DurationText::column(double(c.skewNs())).c_str(),
                    (long long)c.lastRank, DurationText::column(double(c.lateNs)).c_str(), DurationText::column(double(c.waitNs)).c_str());
    }
    if (shown < bySkew.size())
        std::printf("%s(%zu more; raise --limit to see them)\n", indent, bySkew.size() - shown);
}

namespace {

template <typename Row> std::vector<Row> ofRank(const std::vector<Row> &rows, int64_t rank)
{
    std::vector<Row> out;
    for (const Row &r : rows)
        if (rank < 0 || r.rank == rank)
            out.push_back(r);
    return out;
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
    const Trace &trace = *loaded.trace;
    const CollectiveAnalysis a = CollectiveAnalysis::compute(trace, LaunchIndex::build(trace)); // every rank: matching needs them all
    const CollectiveTableResult r = ta.rank >= 0 ? CollectiveTable::compute(trace, ta.rank) : a.table;
    const std::vector<CollectiveRow> all = r.allRows();
    const std::optional<NeuronCollectives> neuron = NeuronCollectives::of(trace);
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
        const std::vector<CommOverlapRow> devices = ofRank(a.overlap.devices, ta.rank), steps = ofRank(a.overlap.steps, ta.rank);
        o[QStringLiteral("overlap")] = TableRowWriter::jsonArray(TableRows::overlap(), devices, devices.size());
        o[QStringLiteral("overlap_steps")] = TableRowWriter::jsonArray(TableRows::overlap(), steps, ta.shown(steps.size()));
        const CollectiveMatchResult &match = a.match;
        o[QStringLiteral("matched")] = qint64(match.matched.size());
        o[QStringLiteral("unmatched")] = qint64(match.unmatched);
        o[QStringLiteral("lateness")] = TableRowWriter::jsonArray(TableRows::rankLateness(), match.ranks, match.ranks.size());
        o[QStringLiteral("skew")] = TableRowWriter::jsonArray(TableRows::matchedCollectives(), match.matched, ta.shown(match.matched.size()));
        if (neuron) {
            QJsonObject n;
            n[QStringLiteral("op_count")] = qint64(neuron->opCount);
            n[QStringLiteral("op_time_ns")] = qint64(neuron->opTimeNs);
            n[QStringLiteral("op_active_time_ns")] = qint64(neuron->opActiveTimeNs);
            n[QStringLiteral("cores_instruction_count")] = qint64(neuron->coreInstructionCount);
            n[QStringLiteral("cores_instruction_time_ns")] = qint64(neuron->coreInstructionTimeNs);
            n[QStringLiteral("cores_instruction_active_time_ns")] = qint64(neuron->coreInstructionActiveTimeNs);
            o[QStringLiteral("neuron_collectives")] = n;
        }
        printJson(o);
        return kExitOk;
    }
    if (neuron)
        std::printf("Neuron collective ops (neuron-profile summary): %lld ops, %s op time, %s active; collective cores: %lld "
                    "instructions, %s\n%s",
                    (long long)neuron->opCount, DurationText::column(double(neuron->opTimeNs)).c_str(),
                    DurationText::column(double(neuron->opActiveTimeNs)).c_str(), (long long)neuron->coreInstructionCount,
                    DurationText::column(double(neuron->coreInstructionTimeNs)).c_str(), r.instances.empty() ? "" : "\n");
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
    std::printf("\ncommunication / computation overlap per GPU (HTA's definitions: core/analysis/commoverlap.h)\n");
    printOverlap(ofRank(a.overlap.devices, ta.rank));
    const CollectiveMatchResult &match = a.match;
    if (!match.ranks.empty()) {
        std::printf("\ncollectives matched across ranks: %zu, unmatched instances: %llu (core/analysis/collectivematch.h)\n",
                    match.matched.size(), (unsigned long long)match.unmatched);
        printSkew(match, ta.shown(match.matched.size()));
    }
    return kExitOk;
}

} // namespace lanescope::cli
