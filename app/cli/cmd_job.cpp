// lanescope-cli job DIR [--json] [--limit N] (also what `info DIR` prints for a folder of rank
// summaries): the job overview computed from the summaries alone (JobFolder, JobOverview,
// docs/job-summary.md): per job its ranks with their step times, stragglers, lateness at matched
// collectives and findings count (JobRows), the collectives matched across ranks and the most skewed,
// the job's findings, the findings by rank, warnings (jobs kept apart, ranks given twice, ranks
// missing) and the summaries that could not be read.
#include "commands.h"
#include "tableoutput.h"

#include "analysis/insights/insightsjson.h"
#include "analysis/tablerows.h"
#include "job/jobfolder.h"
#include "job/jobrows.h"
#include "util/durationtext.h"
#include "util/qtext.h"
#include "util/unittext.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace lanescope::cli {

namespace {

QJsonArray strings(const std::vector<std::string> &list)
{
    QJsonArray a;
    for (const std::string &s : list)
        a.append(qs(s));
    return a;
}

QJsonArray integers(const std::vector<int64_t> &list)
{
    QJsonArray a;
    for (int64_t v : list)
        a.append(qint64(v));
    return a;
}

QJsonObject jobJson(const JobOverview &job, size_t limit)
{
    QJsonObject o;
    o[QStringLiteral("label")] = qs(job.label);
    o[QStringLiteral("world_size")] = qint64(job.worldSize);
    o[QStringLiteral("clock")] = qs(job.clockRule);
    o[QStringLiteral("start_ns")] = qint64(job.startNs);
    o[QStringLiteral("end_ns")] = qint64(job.endNs);
    o[QStringLiteral("median_step_of_ranks_ns")] = qint64(job.steps.medianOfRanks);
    o[QStringLiteral("ranks")] = TableRowWriter::jsonArray(JobRows::rankColumns(), JobRows::ranks(job));
    o[QStringLiteral("stragglers")] = integers(job.stragglers());
    o[QStringLiteral("late_ranks")] = integers(job.lateRanks());
    o[QStringLiteral("missing_ranks")] = integers(job.missingRanks);
    o[QStringLiteral("collective_instances")] = qint64(job.collectives.instances.size());
    o[QStringLiteral("collectives")] = TableRowWriter::jsonArray(TableRows::collectives(), job.collectives.rows);
    o[QStringLiteral("matched")] = qint64(job.match.matched.size());
    o[QStringLiteral("unmatched")] = qint64(job.match.unmatched);
    o[QStringLiteral("lateness")] = TableRowWriter::jsonArray(TableRows::rankLateness(), job.match.ranks);
    std::vector<MatchedCollective> skewed;
    for (const MatchedCollective *c : CollectiveMatch::mostSkewed(job.match))
        if (skewed.size() < limit)
            skewed.push_back(*c);
    o[QStringLiteral("most_skewed")] = TableRowWriter::jsonArray(TableRows::matchedCollectives(), skewed);
    QJsonArray findings, byRank;
    for (const Finding &f : job.findings)
        findings.append(InsightsJson::finding(f));
    o[QStringLiteral("findings")] = findings;
    for (const RankSummary &s : job.ranks) {
        QJsonArray list;
        for (const Finding &f : s.findings)
            list.append(InsightsJson::finding(f));
        byRank.append(QJsonObject{{QStringLiteral("rank"), qint64(s.rank)},
                                  {QStringLiteral("summary"), qs(s.summaryPath)},
                                  {QStringLiteral("trace"), qs(s.file.path)},
                                  {QStringLiteral("findings"), list}});
    }
    o[QStringLiteral("findings_by_rank")] = byRank;
    return o;
}

void printJob(const JobOverview &job, size_t limit)
{
    std::printf("\n%s: %zu rank%s, clock: %s, span %s on the job clock (rank %lld's)\n", job.label.c_str(), job.ranks.size(),
                job.ranks.size() == 1 ? "" : "s", job.clockRule.c_str(), DurationText::format(job.spanNs()).c_str(),
                (long long)job.ranks.front().rank);
    std::printf("step time per rank (median of ranks %s; straggler: median > %.2f x it); lateness at matched collectives:\n",
                DurationText::format(job.steps.medianOfRanks).c_str(), RankStepTable::kStragglerRatio);
    std::printf("  %6s %6s %11s %11s %6s %-9s %7s %7s %11s %11s %8s  %s\n", "rank", "steps", "median", "p90", "ratio", "straggler",
                "matched", "last at", "late total", "others wait", "findings", "trace");
    for (const JobRankRow &r : JobRows::ranks(job))
        std::printf("  %6lld %6llu %11s %11s %6.2f %-9s %7llu %7llu %11s %11s %8llu  %s\n", (long long)r.rank,
                    (unsigned long long)r.steps.steps, DurationText::column(double(r.steps.median)).c_str(),
                    DurationText::column(double(r.steps.p90)).c_str(), r.steps.ratio, r.steps.straggler ? "straggler" : "",
                    (unsigned long long)r.lateness.matched, (unsigned long long)r.lateness.last,
                    DurationText::column(double(r.lateness.lateNs)).c_str(), DurationText::column(double(r.lateness.causedWaitNs)).c_str(),
                    (unsigned long long)r.findings, r.trace.c_str());
    std::printf("stragglers: %s\n", JobOverview::rankList(job.stragglers()).c_str());
    std::printf("late ranks (late-arrival rule): %s\n", JobOverview::rankList(job.lateRanks()).c_str());
    if (!job.missingRanks.empty())
        std::printf("ranks without a summary: %s\n", JobOverview::rankList(job.missingRanks).c_str());
    std::printf("collectives: %zu instances, %zu matched across ranks, %llu instances unmatched (core/analysis/collectivematch.h)\n",
                job.collectives.instances.size(), job.match.matched.size(), (unsigned long long)job.match.unmatched);
    if (!job.match.matched.empty()) {
        std::printf("most skewed collectives:\n");
        printMostSkewed(job.match, limit, "  ");
    }
    printFindings("findings of the job", job.findings);
    std::printf("findings by rank (each rank's own trace; per rank in `--json` findings_by_rank):\n");
    const auto byRule = job.findingsByRule();
    if (byRule.empty())
        std::printf("  none\n");
    for (const auto &[rule, ranks] : byRule)
        std::printf("  %-24s %zu rank%s: %s\n", rule.c_str(), ranks.size(), ranks.size() == 1 ? "" : "s", JobOverview::rankList(ranks).c_str());
}

} // namespace

bool isJobPath(const Args &args)
{
    const std::vector<std::string> paths = positional(args);
    return paths.size() == 1 && JobFolder::isJob(paths.front());
}

int cmdJob(const Args &args)
{
    const std::vector<std::string> paths = positional(args, {"--limit"});
    if (paths.size() != 1) {
        std::fprintf(stderr, "usage: lanescope-cli job DIR|SUMMARY [--json] [--limit N]\n");
        return kExitUnreadable;
    }
    const size_t limit = size_t(std::max(0L, std::strtol(flagValue(args, "--limit", "10").c_str(), nullptr, 10)));
    const JobFolder::Result r = JobFolder::open(paths.front());
    if (hasFlag(args, "--json")) {
        QJsonObject o;
        o[QStringLiteral("path")] = qs(r.path);
        o[QStringLiteral("format")] = QStringLiteral("job-overview");
        o[QStringLiteral("summaries")] = qint64(r.summaries);
        o[QStringLiteral("summary_bytes")] = qint64(r.summaryBytes);
        QJsonArray jobs;
        for (const JobOverview &job : r.jobs)
            jobs.append(jobJson(job, limit));
        o[QStringLiteral("jobs")] = jobs;
        o[QStringLiteral("warnings")] = strings(r.warnings);
        o[QStringLiteral("errors")] = strings(r.errors);
        o[QStringLiteral("other_files")] = strings(r.otherFiles);
        printJson(o);
    } else {
        std::printf("job overview of %s: %llu rank summar%s (%s), %zu job%s (docs/job-summary.md)\n", r.path.c_str(),
                    (unsigned long long)r.summaries, r.summaries == 1 ? "y" : "ies", UnitText::bytes(double(r.summaryBytes)).c_str(),
                    r.jobs.size(), r.jobs.size() == 1 ? "" : "s");
        for (const JobOverview &job : r.jobs)
            printJob(job, limit);
        if (!r.otherFiles.empty())
            std::printf("\nother files (not summaries, not loaded): %zu\n", r.otherFiles.size());
        std::printf("\nwarnings:%s\n", r.warnings.empty() ? " none" : "");
        for (const std::string &w : r.warnings)
            std::printf("  %s\n", w.c_str());
        if (!r.errors.empty()) {
            std::printf("summaries not read:\n");
            for (const std::string &e : r.errors)
                std::printf("  %s\n", e.c_str());
        }
    }
    if (!r.ok()) {
        if (!hasFlag(args, "--json"))
            std::fprintf(stderr, "lanescope-cli: %s: no job overview (no readable rank summary)\n", paths.front().c_str());
        return kExitUnreadable;
    }
    return kExitOk;
}

} // namespace lanescope::cli
