#include "fusionrule.h"

#include "insightcontext.h"
#include "insighttext.h"
#include "model/trace.h"

#include <algorithm>
#include <map>

namespace lanescope {

namespace {

struct Candidate
{
    std::vector<uint32_t> occurrences; // qualifying occurrences
    int64_t idle = 0;                  // device idle between their executions
    uint64_t executions = 0;           // over the qualifying occurrences
    size_t perOccurrence = 0;          // executions of the first qualifying occurrence
    std::vector<std::pair<int64_t, int64_t>> gaps;
    std::vector<uint32_t> firstWork;   // the executions of the first occurrence
};

} // namespace

void FusionCandidateRule::evaluate(InsightContext &ctx, std::vector<Finding> &out) const
{
    const Trace &trace = ctx.trace();
    const auto work = ctx.index().work();
    if (work.empty() || ctx.index().opSlices().empty())
        return;
    // Occurrences that qualify: >= 3 executions (some idle between them on their device, below).
    const std::vector<uint32_t> &counts = ctx.launchCounts();
    std::vector<uint32_t> found;
    for (uint32_t op : ctx.index().opSlices()) {
        if (ctx.index().role(SliceId(op)) != LaunchIndex::Role::FrameworkOp)
            continue;
        const Slice &s = trace.slice(SliceId(op));
        if (!ctx.startsInRange(s.start) || OpTable::foldName(trace.str(s.name)) == "ProfilerStep*")
            continue;
        if (counts[op] < kMinExecutions)
            continue;
        found.push_back(op);
    }
    // Innermost only: drop an occurrence when an op nested in it qualifies too.
    std::vector<uint8_t> outer(counts.size(), 0), innermost(counts.size(), 0);
    for (uint32_t op : found)
        for (SliceId p = ctx.index().opParent(SliceId(op)); p.isValid() && !outer[p.value]; p = ctx.index().opParent(p))
            outer[p.value] = 1;
    for (uint32_t op : found)
        innermost[op] = !outer[op];
    const auto launches = ctx.launchesOf(innermost);
    std::map<std::string, Candidate> byName;
    for (uint32_t op : found) {
        if (outer[op])
            continue;
        const std::vector<uint32_t> &launched = launches.at(op);
        const LaunchIndex::Work &first = work[launched.front()];
        int64_t lastEnd = first.end;
        for (uint32_t i : launched)
            lastEnd = std::max(lastEnd, work[i].end);
        std::vector<std::pair<int64_t, int64_t>> gaps;
        const int64_t idle = ctx.idleInside(first.device, first.start, lastEnd, &gaps);
        if (idle <= 0)
            continue; // back to back on the device: nothing to gain from fusing
        Candidate &c = byName[std::string(OpTable::foldName(trace.str(trace.slice(SliceId(op)).name)))];
        if (c.occurrences.empty()) {
            c.perOccurrence = launched.size();
            c.firstWork = launched;
        }
        c.occurrences.push_back(op);
        c.idle += idle;
        c.executions += launched.size();
        for (const auto &g : gaps)
            c.gaps.push_back(g);
    }
    std::vector<std::pair<std::string, Candidate>> ranked(byName.begin(), byName.end());
    std::sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) { return a.second.idle > b.second.idle; });
    if (ranked.size() > kMaxFindings)
        ranked.resize(kMaxFindings);
    for (auto &[name, c] : ranked) {
        const OpTable::Row *row = ctx.opRow(name);
        // The launching ops of the first occurrence's executions, in dispatch order.
        std::vector<std::string> launchers;
        for (uint32_t i : c.firstWork) {
            const LaunchIndex::Work &w = work[i];
            std::string n = w.op.isValid() ? std::string(trace.str(trace.slice(w.op).name)) : LaunchIndex::workName(trace, w);
            if (launchers.size() < 8)
                launchers.push_back(n);
        }
        Finding f;
        f.rule = std::string(id());
        f.title = "Fusion candidate: " + name + " makes " + std::to_string(c.perOccurrence) + " separate device executions";
        f.detail = name + ": " + std::to_string(c.occurrences.size()) + " occurrence(s), " + std::to_string(c.executions) +
                   " device executions (" + insighttext::join(launchers, ", ") +
                   (c.perOccurrence > launchers.size() ? ", ..." : "") + " per occurrence); device total " +
                   insighttext::ns(row ? row->deviceTotal : 0) + " (op table); device idle between them " +
                   insighttext::ns(c.idle) + " in " + std::to_string(c.gaps.size()) + " gap(s)";
        f.action = "Fuse the ops into one device execution: torch.compile the region, use the library's fused op (e.g. "
                   "torch.rms_norm / F.layer_norm), or write one kernel (NKI / Triton) for it";
        f.value = double(c.perOccurrence);
        f.threshold = double(kMinExecutions);
        f.recoverableNs = c.idle;
        f.severity = std::max(Severity::Medium, Finding::severityForShare(c.idle, ctx.spanNs()));
        for (uint32_t op : c.occurrences)
            f.addEvent(op);
        for (uint32_t i : c.firstWork)
            f.addEvent(work[i].slice.value);
        std::sort(c.gaps.begin(), c.gaps.end(), [](const auto &a, const auto &b) { return a.second - a.first > b.second - b.first; });
        for (size_t g = 0; g < c.gaps.size() && g < Finding::kMaxEvents; ++g)
            f.ranges.push_back(c.gaps[g]);
        out.push_back(std::move(f));
    }
}

} // namespace lanescope
