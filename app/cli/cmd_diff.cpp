// lanescope-cli diff A B [--json] [--metric device|cpu|wall] [--fail-if-slower PCT] [--min-time NS]
//                        [--limit N]
// Two profiles compared (core/analysis/profilediff): totals, top regressions and improvements per
// op and per kernel / opcode, per-engine deltas. With --fail-if-slower the exit status is 1 when the
// metric got slower than PCT overall or for any op whose time is at least --min-time.
#include "commands.h"
#include "tableoutput.h"

#include "analysis/insights/findingsdiff.h"
#include "analysis/insights/insights.h"
#include "analysis/insights/insightsjson.h"
#include "analysis/profilediff.h"
#include "analysis/tablerows.h"
#include "io/traceloader.h"
#include "util/durationtext.h"
#include "util/textutil.h"
#include "util/qtext.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>
#include <cstdio>
#include <string>

namespace lanescope::cli {

namespace {


std::string pctText(std::optional<double> p)
{
    if (!p)
        return "new";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", *p);
    return buf;
}

std::string formatNs(double ns) { return DurationText::column(ns); }

std::string signedNs(int64_t ns)
{
    return (ns > 0 ? "+" : ns < 0 ? "-" : " ") + formatNs(double(ns < 0 ? -ns : ns));
}

QJsonArray rowsJson(const std::vector<DiffRow> &rows, int64_t limit)
{
    return TableRowWriter::jsonArray(TableRows::diffRows(), rows, limit < 0 ? size_t(-1) : size_t(limit));
}

void printRows(const char *title, const std::vector<DiffRow> &rows, bool regressions, int64_t limit)
{
    std::vector<const DiffRow *> picked;
    if (regressions) {
        for (const DiffRow &r : rows)
            if (r.deltaNs() > 0)
                picked.push_back(&r);
    } else {
        for (auto it = rows.rbegin(); it != rows.rend(); ++it)
            if (it->deltaNs() < 0)
                picked.push_back(&*it);
    }
    if (picked.empty())
        return;
    std::printf("\n%s\n  %-48s %12s %12s %13s %8s %13s\n", title, "name", "A", "B", "delta", "delta%", "calls A/B");
    int64_t shown = 0;
    for (const DiffRow *r : picked) {
        if (limit >= 0 && shown++ >= limit)
            break;
        const std::string calls = std::to_string(r->aCalls) + "/" + std::to_string(r->bCalls);
        std::string name = r->name.size() > 48 ? r->name.substr(0, 45) + "..." : r->name;
        std::printf("  %-48s %12s %12s %13s %8s %13s\n", name.c_str(), formatNs(double(r->aNs)).c_str(),
                    formatNs(double(r->bNs)).c_str(), signedNs(r->deltaNs()).c_str(), pctText(r->deltaPct()).c_str(),
                    calls.c_str());
    }
}

} // namespace

int cmdDiff(const Args &args)
{
    const std::vector<std::string> pos = positional(args, {"--metric", "--fail-if-slower", "--min-time", "--limit"});
    if (pos.size() != 2) {
        std::fprintf(stderr, "usage: lanescope-cli diff A B [--json] [--metric device|cpu|wall] "
                             "[--fail-if-slower PCT] [--min-time NS] [--limit N]\n");
        return kExitUnreadable;
    }
    const std::string metricName = flagValue(args, "--metric", "device");
    const auto metric = ProfileDiff::metricFromName(metricName);
    if (!metric) {
        std::fprintf(stderr, "lanescope-cli diff: --metric must be device, cpu or wall, not \"%s\"\n", metricName.c_str());
        return kExitUnreadable;
    }
    const std::string failText = flagValue(args, "--fail-if-slower");
    double failPct = 0;
    if (!failText.empty()) {
        char *end = nullptr;
        failPct = std::strtod(failText.c_str(), &end);
        if (end == failText.c_str() || *end != '\0' || !std::isfinite(failPct) || failPct < 0) {
            std::fprintf(stderr, "lanescope-cli diff: --fail-if-slower expects a percentage >= 0, not \"%s\"\n",
                         failText.c_str());
            return kExitUnreadable;
        }
    }
    int64_t minTime = 0, limit = -1;
    const std::string minText = flagValue(args, "--min-time"), limitText = flagValue(args, "--limit");
    if (!minText.empty() && (!text::parseInt(minText, minTime) || minTime < 0)) {
        std::fprintf(stderr, "lanescope-cli diff: --min-time expects nanoseconds >= 0, not \"%s\"\n", minText.c_str());
        return kExitUnreadable;
    }
    if (!limitText.empty() && (!text::parseInt(limitText, limit) || limit < 0)) {
        std::fprintf(stderr, "lanescope-cli diff: --limit expects a count >= 0, not \"%s\"\n", limitText.c_str());
        return kExitUnreadable;
    }

    LoadResult loaded[2];
    for (int i = 0; i < 2; ++i) {
        loaded[i] = loadTrace(pos[size_t(i)], args);
        if (!loaded[i].ok()) {
            std::fprintf(stderr, "lanescope-cli: %s\n", loaded[i].error.c_str());
            return kExitUnreadable;
        }
    }
    ProfileDiff::Options options;
    options.metric = *metric;
    const ProfileDiffResult diff = ProfileDiff::compute(*loaded[0].trace, *loaded[1].trace, options);
    const bool gating = !failText.empty();
    const DiffGateResult gate = ProfileDiff::gate(diff, failPct, minTime);
    const FindingsDiffResult findings = FindingsDiff::compare(Insights::run(*loaded[0].trace, {}).findings,
                                                              Insights::run(*loaded[1].trace, {}).findings);

    if (hasFlag(args, "--json")) {
        QJsonObject o;
        o[QStringLiteral("a")] = qs(pos[0]);
        o[QStringLiteral("b")] = qs(pos[1]);
        o[QStringLiteral("metric")] = QString::fromLatin1(ProfileDiff::metricName(diff.metric));
        QJsonObject total;
        total[QStringLiteral("a_ns")] = qint64(diff.total.aNs);
        total[QStringLiteral("b_ns")] = qint64(diff.total.bNs);
        total[QStringLiteral("delta_ns")] = qint64(diff.total.deltaNs());
        total[QStringLiteral("delta_pct")] = TableRowWriter::json(TableRows::roundedPercent(diff.total.deltaPct()));
        o[QStringLiteral("total")] = total;
        o[QStringLiteral("ops")] = rowsJson(diff.ops, limit);
        o[QStringLiteral("kernels")] = rowsJson(diff.kernels, limit);
        o[QStringLiteral("engines")] = TableRowWriter::jsonArray(TableRows::engineDiffRows(), diff.engines);
        o[QStringLiteral("findings")] = InsightsJson::diff(findings);
        if (gating) {
            QJsonObject g;
            g[QStringLiteral("fail_if_slower_pct")] = failPct;
            g[QStringLiteral("min_time_ns")] = qint64(minTime);
            g[QStringLiteral("failed")] = gate.failed;
            g[QStringLiteral("total_slower")] = gate.totalSlower;
            QJsonArray slower;
            for (const DiffRow *r : gate.slowerRows)
                slower.append(qs(r->name));
            g[QStringLiteral("slower")] = slower;
            o[QStringLiteral("gate")] = g;
        }
        printJson(o);
    } else {
        std::printf("A: %s\nB: %s\nmetric: %s\n", pos[0].c_str(), pos[1].c_str(), ProfileDiff::metricName(diff.metric));
        std::printf("total: A %s, B %s, delta %s (%s)\n", formatNs(double(diff.total.aNs)).c_str(),
                    formatNs(double(diff.total.bNs)).c_str(), signedNs(diff.total.deltaNs()).c_str(),
                    pctText(diff.total.deltaPct()).c_str());
        const int64_t top = limit >= 0 ? limit : 10;
        printRows("top regressions (ops)", diff.ops, true, top);
        printRows("top improvements (ops)", diff.ops, false, top);
        printRows("top regressions (kernels / opcodes)", diff.kernels, true, top);
        printRows("top improvements (kernels / opcodes)", diff.kernels, false, top);
        if (!diff.engines.empty()) {
            std::printf("\n  %-8s %12s %12s %13s %14s %14s\n", "engine", "active A", "active B", "delta",
                        "instr A", "instr B");
            for (const EngineDiffRow &e : diff.engines)
                std::printf("  %-8s %12s %12s %13s %14llu %14llu\n", e.engine.c_str(), formatNs(double(e.aActiveNs)).c_str(),
                            formatNs(double(e.bActiveNs)).c_str(), signedNs(e.deltaActiveNs()).c_str(),
                            static_cast<unsigned long long>(e.aInstructions), static_cast<unsigned long long>(e.bInstructions));
        }
        printFindings("findings resolved in B", findings.resolved);
        printFindings("findings new in B", findings.added);
        std::vector<Finding> changed;
        for (const auto &ab : findings.changed)
            changed.push_back(ab.second);
        printFindings("findings changed (as in B)", changed);
        if (gating) {
            if (!gate.failed) {
                std::printf("\ngate: passed (nothing slower than %.1f%%)\n", failPct);
            } else {
                std::printf("\ngate: FAILED (slower than %.1f%%):", failPct);
                if (gate.totalSlower)
                    std::printf(" total %s;", pctText(diff.total.deltaPct()).c_str());
                if (!gate.slowerRows.empty())
                    std::printf(" %zu row(s) of at least %s", gate.slowerRows.size(), formatNs(double(minTime)).c_str());
                std::printf("\n");
                size_t shown = 0;
                for (const DiffRow *r : gate.slowerRows) {
                    if (++shown > 20) {
                        std::printf("  ... and %zu more\n", gate.slowerRows.size() - 20);
                        break;
                    }
                    std::printf("  %s: %s -> %s (%s)\n", r->name.c_str(), formatNs(double(r->aNs)).c_str(),
                                formatNs(double(r->bNs)).c_str(), pctText(r->deltaPct()).c_str());
                }
            }
        }
    }
    return gating && gate.failed ? kExitFailure : kExitOk;
}

} // namespace lanescope::cli
