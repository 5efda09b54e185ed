#include "joboverview.h"

#include "analysis/insights/collectiverules.h"
#include "analysis/insights/rankrules.h"
#include "model/saturating.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace lanescope {

namespace {

bool always(int64_t) { return true; }

// A rank's time on the job clock, as MultiRankLoader's merge places it (the trace range keeps any
// difference of two times inside int64).
int64_t onJobClock(int64_t t, int64_t offset) { return clampTraceTime(saturatingAdd(t, offset)); }

} // namespace

const RankSummary *JobOverview::summaryOf(int64_t rank) const
{
    for (const RankSummary &s : ranks)
        if (s.rank == rank)
            return &s;
    return nullptr;
}

std::vector<int64_t> JobOverview::stragglers() const
{
    std::vector<int64_t> out;
    for (const RankStepTable::Row &r : steps.rows)
        if (r.straggler)
            out.push_back(r.rank);
    return out;
}

std::vector<int64_t> JobOverview::lateRanks() const
{
    std::vector<int64_t> out;
    for (const CollectiveRules::LateRank &l : CollectiveRules::lateRanks(match, collectives.instances, spanNs(), always))
        out.push_back(l.inWindow.rank);
    return out;
}

std::map<std::string, std::vector<int64_t>> JobOverview::findingsByRule() const
{
    std::map<std::string, std::vector<int64_t>> out;
    for (const RankSummary &s : ranks)
        for (const Finding &f : s.findings) {
            std::vector<int64_t> &list = out[f.rule];
            if (list.empty() || list.back() != s.rank)
                list.push_back(s.rank);
        }
    return out;
}

std::string JobOverview::rankList(const std::vector<int64_t> &ranks, size_t named)
{
    std::string out;
    for (size_t i = 0; i < ranks.size() && i < named; ++i)
        out += (i ? " " : "") + std::to_string(ranks[i]);
    if (ranks.size() > named)
        out += " and " + std::to_string(ranks.size() - named) + " more";
    return out.empty() ? std::string("none") : out;
}

JobOverview JobOverview::compute(std::vector<RankSummary> ranks, std::string label)
{
    JobOverview job;
    job.label = std::move(label);
    std::stable_sort(ranks.begin(), ranks.end(), [](const RankSummary &a, const RankSummary &b) { return a.rank < b.rank; });
    job.ranks = std::move(ranks);
    if (job.ranks.empty())
        return job;
    for (const RankSummary &s : job.ranks)
        job.worldSize = std::max(job.worldSize, s.worldSize);

    // The clock: the inputs MultiRankLoader takes from each loaded trace, here from each summary.
    std::vector<RankClock::Input> inputs;
    for (const RankSummary &s : job.ranks)
        inputs.push_back({s.rank, s.baseTimeNs, s.firstStepNs, s.startNs});
    job.clocks = RankClock::align(inputs);
    std::set<RankClockRule> rules;
    for (const RankClock::Placement &p : job.clocks)
        rules.insert(p.rule);
    for (RankClockRule r : rules)
        job.clockRule += (job.clockRule.empty() ? "" : " + ") + std::string(RankClock::ruleName(r));

    std::vector<RankStepTable::RankSteps> steps;
    std::vector<CollectiveInstance> instances;
    // Each instance's step, found again after the time sort of CollectiveTable::fromInstances by
    // (rank, start, slice): unique, as a rank's slice ids are.
    using Key = std::tuple<int64_t, int64_t, uint32_t>;
    std::vector<std::pair<Key, int64_t>> stepOf;
    for (size_t i = 0; i < job.ranks.size(); ++i) {
        const RankSummary &s = job.ranks[i];
        const int64_t offset = job.clocks[i].offset;
        const int64_t start = onJobClock(s.startNs, offset), end = onJobClock(s.endNs, offset);
        job.startNs = i == 0 ? start : std::min(job.startNs, start);
        job.endNs = i == 0 ? end : std::max(job.endNs, end);
        RankStepTable::RankSteps rs{s.rank, s.steps};
        for (RankStepTable::Step &st : rs.steps)
            st.start = onJobClock(st.start, offset);
        steps.push_back(std::move(rs));
        for (size_t c = 0; c < s.collectives.size(); ++c) {
            CollectiveInstance in = s.collectives[c];
            in.rank = s.rank;
            in.start = onJobClock(in.start, offset);
            stepOf.push_back({Key{in.rank, in.start, in.slice.value}, c < s.collectiveSteps.size() ? s.collectiveSteps[c] : -1});
            instances.push_back(std::move(in));
        }
    }
    job.steps = RankStepTable::fromRecords(steps);
    job.collectives = CollectiveTable::fromInstances(std::move(instances), true); // a job: rows per rank too
    std::sort(stepOf.begin(), stepOf.end());
    std::vector<int64_t> instanceSteps;
    instanceSteps.reserve(job.collectives.instances.size());
    for (const CollectiveInstance &c : job.collectives.instances) {
        const Key key{c.rank, c.start, c.slice.value};
        const auto it = std::lower_bound(stepOf.begin(), stepOf.end(), key, [](const auto &e, const Key &k) { return e.first < k; });
        instanceSteps.push_back(it != stepOf.end() && it->first == key ? it->second : -1);
    }
    job.match = CollectiveMatch::match(job.collectives.instances, instanceSteps);

    // The job's findings: the rules' own functions over the job's tables and span.
    job.findings = RankRules::stragglerFindings(job.steps, job.spanNs(), false);
    for (Finding &f : CollectiveRules::lateArrivalFindings(job.match, job.collectives.instances, job.spanNs(), always, false))
        job.findings.push_back(std::move(f));
    Finding::rank(job.findings);

    if (job.worldSize > 0) {
        std::set<int64_t> present;
        for (const RankSummary &s : job.ranks)
            present.insert(s.rank);
        for (int64_t r = 0; r < job.worldSize; ++r)
            if (!present.count(r))
                job.missingRanks.push_back(r);
    }
    return job;
}

} // namespace lanescope
