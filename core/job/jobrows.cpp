#include "jobrows.h"

namespace lanescope {

namespace {

using R = JobRankRow;
constexpr unsigned kShown = OutJson | OutCsv | OutGui; // the CLI's and a column of the Job dock's table
constexpr unsigned kFiles = OutJson | OutCsv;

TableColumn<R> integer(const char *key, const char *header, const char *unit, std::function<Cell(const R &)> get, unsigned out = kShown)
{
    return {key, header, CellType::Integer, unit, out, true, std::move(get)};
}

TableColumn<R> text(const char *key, const char *header, std::function<Cell(const R &)> get, unsigned out = kShown)
{
    return {key, header, CellType::Text, "", out, true, std::move(get)};
}

} // namespace

std::vector<JobRankRow> JobRows::ranks(const JobOverview &job)
{
    std::vector<JobRankRow> rows;
    for (size_t i = 0; i < job.ranks.size(); ++i) {
        const RankSummary &s = job.ranks[i];
        JobRankRow r;
        r.rank = s.rank;
        r.summary = i;
        for (const RankStepTable::Row &step : job.steps.rows)
            if (step.rank == s.rank)
                r.steps = step;
        r.lateness.rank = s.rank;
        for (const RankLateness &l : job.match.ranks)
            if (l.rank == s.rank)
                r.lateness = l;
        r.findings = s.findings.size();
        for (const Finding &f : s.findings)
            r.highFindings += f.severity == Severity::High;
        if (!s.findings.empty()) // ranked when made: the first is the most severe
            r.topFinding = s.findings.front().title;
        r.trace = s.file.name;
        r.traceBytes = s.file.bytes;
        r.clockRule = RankClock::ruleName(job.clocks[i].rule);
        r.clockOffsetNs = job.clocks[i].offset;
        rows.push_back(std::move(r));
    }
    return rows;
}

const RowDescription<JobRankRow> &JobRows::rankColumns()
{
    static const RowDescription<R> d = {
        integer("rank", "Rank", "", [](const R &r) { return Cell(r.rank); }),
        integer("steps", "Steps", "count", [](const R &r) { return Cell(int64_t(r.steps.steps)); }),
        integer("median_step_ns", "Median step", "ns", [](const R &r) { return Cell(r.steps.median); }),
        integer("p90_step_ns", "p90 step", "ns", [](const R &r) { return Cell(r.steps.p90); }),
        integer("slowest_step_ns", "Slowest step", "ns", [](const R &r) { return Cell(r.steps.slowest); }, kFiles),
        text("slowest_step", "Slowest", [](const R &r) { return Cell(r.steps.slowestStepName); }, kFiles),
        TableColumn<R>{"ratio_to_median_of_ranks", "x median", CellType::Real, "", kShown, true,
                       [](const R &r) { return Cell(r.steps.ratio); }},
        integer("straggler", "Straggler", "bool", [](const R &r) { return Cell(int64_t(r.steps.straggler)); }),
        integer("matched_collectives", "Matched", "count", [](const R &r) { return Cell(int64_t(r.lateness.matched)); }),
        integer("last_at", "Last at", "count", [](const R &r) { return Cell(int64_t(r.lateness.last)); }),
        integer("late_ns", "Late (total)", "ns", [](const R &r) { return Cell(r.lateness.lateNs); }),
        integer("max_late_ns", "Max late", "ns", [](const R &r) { return Cell(r.lateness.maxLateNs); }, kFiles),
        integer("others_wait_ns", "Others waited", "ns", [](const R &r) { return Cell(r.lateness.causedWaitNs); }),
        integer("findings", "Findings", "count", [](const R &r) { return Cell(int64_t(r.findings)); }),
        integer("high_findings", "High", "count", [](const R &r) { return Cell(int64_t(r.highFindings)); }, kFiles),
        text("top_finding", "Top finding", [](const R &r) { return Cell(r.topFinding); }),
        text("trace", "Trace", [](const R &r) { return Cell(r.trace); }),
        integer("trace_bytes", "Trace bytes", "bytes", [](const R &r) { return Cell(int64_t(r.traceBytes)); }, kFiles),
        text("clock_rule", "Clock", [](const R &r) { return Cell(r.clockRule); }, kFiles),
        integer("clock_offset_ns", "Clock offset", "ns", [](const R &r) { return Cell(r.clockOffsetNs); }, kFiles),
    };
    return d;
}

} // namespace lanescope
