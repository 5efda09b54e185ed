// lanescope-cli info PATH... [--json]: what was loaded. Several PATHs (or a folder) of Kineto traces of
// distinct ranks load as one multi-rank trace (io/ranks/multirankloader.h); its ranks and per-rank step
// times (analysis/ranksteptable.h) are listed. A folder of rank summaries (or one summary) prints the
// job overview instead (cmd_job.cpp).
#include "commands.h"

#include "analysis/insights/capturecheck.h"
#include "analysis/launchindex.h"
#include "analysis/ranksteptable.h"
#include "analysis/tablerows.h"
#include "io/formats.h"
#include "io/traceloader.h"
#include "store/cachedloader.h"
#include "util/durationtext.h"
#include "util/tablerowwriter.h"
#include "util/qtext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <map>

namespace lanescope::cli {

namespace {


uint64_t trackCount(const Track &tr)
{
    return tr.kind == TrackKind::Counter ? tr.counterCount : uint64_t(tr.sliceCount) + tr.instantCount;
}

std::map<std::string, uint64_t> flowsByCategory(const Trace &t)
{
    std::map<std::string, uint64_t> out;
    for (const Flow &f : t.flows())
        ++out[std::string(t.str(f.category))];
    return out;
}

QJsonObject infoJson(const Trace &t)
{
    QJsonObject o;
    o[QStringLiteral("file")] = qs(t.metadata().sourcePath);
    o[QStringLiteral("format")] = qs(t.metadata().format);
    o[QStringLiteral("synthetic")] = t.metadata().synthetic;
    o[QStringLiteral("events")] = qint64(t.stats().eventsRead);
    o[QStringLiteral("slices")] = qint64(t.allSlices().size());
    o[QStringLiteral("instants")] = qint64(t.allInstants().size());
    o[QStringLiteral("counter_samples")] = qint64(t.allCounterSamples().size());
    o[QStringLiteral("flows")] = qint64(t.flows().size());
    QJsonObject flowCategories;
    for (const auto &[k, n] : flowsByCategory(t))
        flowCategories[qs(k)] = qint64(n);
    o[QStringLiteral("flow_categories")] = flowCategories;
    o[QStringLiteral("start_ns")] = qint64(t.startNs());
    o[QStringLiteral("end_ns")] = qint64(t.endNs());
    o[QStringLiteral("duration_ns")] = qint64(t.endNs() - t.startNs());
    QJsonObject phases;
    for (const auto &[k, n] : t.stats().phases)
        phases[qs(k)] = qint64(n);
    o[QStringLiteral("phases")] = phases;
    QJsonObject cats;
    for (const auto &[k, n] : t.stats().categories)
        cats[qs(k)] = qint64(n);
    o[QStringLiteral("categories")] = cats;
    QJsonArray tracks;
    for (uint32_t i = 0; i < t.tracks().size(); ++i) {
        const Track &tr = t.tracks()[i];
        QJsonObject to;
        to[QStringLiteral("group")] = qs(t.groupPath(tr.group));
        to[QStringLiteral("name")] = qs(t.str(tr.name));
        to[QStringLiteral("kind")] = QString::fromLatin1(trackKindName(tr.kind));
        to[QStringLiteral("count")] = qint64(trackCount(tr));
        tracks.append(to);
    }
    o[QStringLiteral("tracks")] = tracks;
    QJsonArray warnings, notes; // notes: expected filtering (events before an NTFF's trace window, ...)
    for (const auto &w : t.diagnostics().warnings()) {
        QJsonObject wo;
        wo[QStringLiteral("message")] = qs(w.message);
        wo[QStringLiteral("count")] = qint64(w.count);
        if (!w.firstSeen.empty())
            wo[QStringLiteral("first_seen")] = qs(w.firstSeen);
        (w.isNote() ? notes : warnings).append(wo);
    }
    o[QStringLiteral("warnings")] = warnings;
    o[QStringLiteral("notes")] = notes;
    QJsonObject meta;
    for (const auto &[k, v] : t.metadata().entries)
        meta[qs(k)] = qs(v);
    o[QStringLiteral("metadata")] = meta;
    return o;
}

void printRanks(const RankStepTable::Result &table)
{
    std::printf("ranks (%zu), step time per rank (median of ranks %s; straggler: median > %.2f x it):\n", table.rows.size(),
                DurationText::format(table.medianOfRanks).c_str(), RankStepTable::kStragglerRatio);
    std::printf("  %6s %7s %12s %12s %12s  %-22s %6s\n", "Rank", "Steps", "Median", "p90", "Slowest", "Slowest step", "Ratio");
    for (const RankStepTable::Row &r : table.rows)
        std::printf("  %6lld %7llu %12s %12s %12s  %-22s %6.2f%s\n", (long long)r.rank, (unsigned long long)r.steps,
                    DurationText::column(double(r.median)).c_str(), DurationText::column(double(r.p90)).c_str(),
                    DurationText::column(double(r.slowest)).c_str(),
                    r.steps ? r.slowestStepName.c_str() : "-", r.ratio,
                    r.straggler ? "  straggler" : "");
}

void printText(const Trace &t)
{
    const auto &st = t.stats();
    std::printf("file:            %s\n", t.metadata().sourcePath.c_str());
    std::printf("format:          %s%s\n", t.metadata().format.c_str(), t.metadata().synthetic ? " (synthetic data)" : "");
    std::printf("events read:     %s\n", formatThousands(st.eventsRead).c_str());
    std::printf("slices:          %s\n", formatThousands(t.allSlices().size()).c_str());
    std::printf("instants:        %s\n", formatThousands(t.allInstants().size()).c_str());
    std::printf("counter samples: %s\n", formatThousands(t.allCounterSamples().size()).c_str());
    std::printf("flows:           %s", formatThousands(t.flows().size()).c_str());
    if (!t.flows().empty()) { // by category: the dependency links (nrt, exec, ac2g, ...)
        std::string by;
        for (const auto &[k, n] : flowsByCategory(t))
            by += (by.empty() ? "" : " ") + (k.empty() ? std::string("(none)") : k) + ":" + std::to_string(n);
        std::printf(" (%s)", by.c_str());
    }
    std::printf("\n");
    std::printf("time range:      %lld .. %lld ns (%.6f ms)\n", (long long)t.startNs(), (long long)t.endNs(),
                double(t.endNs() - t.startNs()) / 1e6);
    std::printf("phases:         ");
    for (const auto &[k, n] : st.phases)
        std::printf(" %s:%llu", k.empty() ? "(none)" : k.c_str(), (unsigned long long)n);
    std::printf("\ncategories:     ");
    for (const auto &[k, n] : st.categories)
        std::printf(" %s:%llu", k.c_str(), (unsigned long long)n);
    std::printf("\ntracks (%zu):\n", t.tracks().size());
    for (const Track &tr : t.tracks())
        std::printf("  %-60s %-8s %llu\n", (t.groupPath(tr.group) + " / " + std::string(t.str(tr.name))).c_str(),
                    trackKindName(tr.kind), (unsigned long long)trackCount(tr));
    for (const auto &[k, v] : t.metadata().entries)
        std::printf("metadata %s: %.120s%s\n", k.c_str(), v.c_str(), v.size() > 120 ? "..." : "");
    for (const DiagnosticSeverity severity : {DiagnosticSeverity::Warning, DiagnosticSeverity::Note}) {
        const char *label = severity == DiagnosticSeverity::Note ? "notes:   " : "warnings:";
        if (t.diagnostics().total(severity) == 0) {
            std::printf("%s        none\n", label);
            continue;
        }
        std::printf("%s%s\n", label, severity == DiagnosticSeverity::Note ? " (expected filtering, not a problem)" : "");
        for (const auto &w : t.diagnostics().warnings())
            if (w.severity == severity)
                std::printf("  %s\n", Diagnostics::format(w).c_str());
    }
}

} // namespace

int cmdInfo(const Args &args)
{
    const auto paths = positional(args);
    if (paths.empty()) {
        std::fprintf(stderr, "usage: lanescope-cli info PATH... [--json] [--no-cache]\n");
        return kExitUnreadable;
    }
    if (isJobPath(args)) // rank summaries: the job overview, from the summaries alone
        return cmdJob(args);
    const LoadResult r = loadTrace(paths, args);
    if (!r.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", r.error.c_str());
        return kExitUnreadable;
    }
    // A folder or a rank set: what was found and what was done with each file (typed, as the loader reported it).
    const std::vector<FileReport> &files = r.trace->metadata().files;
    // One line on how the profile was captured: "ok" or its first problem (lanescope-cli insights has all).
    // One launch index for both (it is the costly part of each).
    const LaunchIndex index = LaunchIndex::build(*r.trace);
    const std::string capture = CaptureCheck::verdict(CaptureCheck::run(*r.trace, index));
    const bool folder = !files.empty();
    const RankStepTable::Result ranks = RankStepTable::compute(*r.trace, index, {});
    if (hasFlag(args, "--json")) {
        QJsonObject o = infoJson(*r.trace);
        o[QStringLiteral("capture")] = qs(capture);
        if (folder) {
            QJsonArray list;
            for (const FileReport &f : files) {
                QJsonObject fo;
                fo[QStringLiteral("path")] = qs(f.path);
                fo[QStringLiteral("kind")] = QString::fromLatin1(Formats::folderKind(f.kind));
                fo[QStringLiteral("status")] = QString::fromLatin1(fileOutcomeName(f.outcome));
                fo[QStringLiteral("detail")] = qs(f.detail);
                list.append(fo);
            }
            o[QStringLiteral("files")] = list;
        }
        if (!ranks.empty()) {
            o[QStringLiteral("ranks")] = TableRowWriter::jsonArray(TableRows::rankSteps(), ranks.rows);
            o[QStringLiteral("median_step_of_ranks_ns")] = qint64(ranks.medianOfRanks);
        }
        const QByteArray out = QJsonDocument(o).toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    } else {
        printText(*r.trace);
        std::printf("capture:         %s\n", capture.c_str());
        if (folder) {
            std::printf("files (%zu):\n", files.size());
            for (const FileReport &f : files)
                std::printf("  %-12s %-20s %s\n      %s\n", fileOutcomeName(f.outcome), Formats::folderKind(f.kind),
                            f.path.c_str(), f.detail.c_str());
        }
        if (!ranks.empty())
            printRanks(ranks);
    }
    return kExitOk;
}

} // namespace lanescope::cli
