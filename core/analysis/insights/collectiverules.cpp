#include "collectiverules.h"

#include "insightcontext.h"
#include "insighttext.h"
#include "model/saturating.h"

#include <algorithm>
#include <map>

namespace lanescope {

namespace {

// "Rank 3 · GPU 0" (a multi-rank trace names its devices per rank), "GPU 0".
std::string rankName(int64_t rank, const std::string &device)
{
    const std::string prefix = "Rank " + std::to_string(rank);
    return rank < 0 || device.starts_with(prefix) ? device : prefix + " (" + device + ")";
}

std::string groupText(const std::string &kind, const std::string &group, const std::optional<uint64_t> &bytes)
{
    std::string s = kind;
    if (bytes)
        s += " of " + insighttext::bytes(double(*bytes));
    if (!group.empty())
        s += " in process group " + group;
    return s;
}

// A collective instance as a finding's event and range.
void addInstance(Finding &f, const CollectiveInstance &c)
{
    f.addEvent(c.slice.value);
    f.addRange(c.start, c.start + c.duration);
}

} // namespace

void CollectiveRules::lowOverlap(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kMaxOverlap = 0.5;
    constexpr double kMinExposedShare = 0.05;
    const CommOverlapResult &overlap = ctx.overlap();
    const CollectiveTableResult &collectives = ctx.collectives();
    // One finding for all the GPUs below the line (a job's ranks usually share the problem), the
    // worst first: the most exposed communication.
    std::vector<const CommOverlapRow *> low;
    for (const CommOverlapRow &r : overlap.devices) {
        const std::optional<double> share = r.overlap();
        if (share && *share < kMaxOverlap && r.spanNs > 0 && double(r.exposedNs()) >= kMinExposedShare * double(r.spanNs))
            low.push_back(&r);
    }
    if (low.empty())
        return;
    std::stable_sort(low.begin(), low.end(), [](auto *a, auto *b) { return a->exposedNs() > b->exposedNs(); });
    const CommOverlapRow &worst = *low.front();
    const std::string who = rankName(worst.rank, worst.device);
    Finding f;
    const std::string exposed = insighttext::ns(worst.exposedNs()) + " of collectives is exposed (" +
                                insighttext::pct(100.0 * double(worst.exposedNs()) / double(worst.spanNs)) + " of its step time)";
    if (low.size() == 1)
        f.title = who + ": only " + insighttext::pct(*worst.overlap() * 100.0) + " of its communication is hidden behind computation; " +
                  exposed;
    else
        f.title = std::to_string(low.size()) + " of " + std::to_string(overlap.devices.size()) + " GPUs hide less than " +
                  insighttext::pct(kMaxOverlap * 100.0) + " of their communication behind computation; worst " + who + ": " +
                  insighttext::pct(*worst.overlap() * 100.0) + " hidden, " + exposed;
    constexpr size_t kListed = 8;
    for (size_t i = 0; i < low.size() && i < kListed; ++i) {
        const CommOverlapRow &r = *low[i];
        f.detail += (i ? "; " : "") + rankName(r.rank, r.device) + ": step time " + insighttext::ns(r.spanNs) + ", computation " +
                    insighttext::ns(r.computeNs) + ", communication " + insighttext::ns(r.communicationNs) + " (overlapped " +
                    insighttext::ns(r.overlappedNs) + "), memory " + insighttext::ns(r.memoryNs) + ", idle " + insighttext::ns(r.idleNs);
    }
    if (low.size() > kListed)
        f.detail += "; " + std::to_string(low.size() - kListed) + " more";
    f.detail += " (HTA's temporal breakdown and communication / computation overlap)";
    f.action = "Overlap communication with computation: bucket gradients so all-reduce starts during the backward pass "
               "(DDP bucket_cap_mb, FSDP prefetching), run collectives on their own stream without synchronising "
               "the compute stream, or reduce the bytes moved (mixed-precision gradients, fewer / larger buckets)";
    f.value = *worst.overlap();
    f.threshold = kMaxOverlap;
    // The GPUs run side by side: the step gets at most the worst one's exposed time back.
    f.recoverableNs = worst.exposedNs();
    f.severity = Finding::severityForShare(*f.recoverableNs, ctx.spanNs());
    std::vector<const CollectiveInstance *> mine; // the worst GPU's collectives, longest first
    for (const CollectiveInstance &c : collectives.instances)
        if (c.rank == worst.rank && ctx.startsInRange(c.start))
            mine.push_back(&c);
    std::stable_sort(mine.begin(), mine.end(), [](auto *a, auto *b) { return a->duration > b->duration; });
    for (const CollectiveInstance *c : mine)
        addInstance(f, *c);
    out.push_back(std::move(f));
}

void CollectiveRules::outlier(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kOutlierRatio = 2.0;
    constexpr int64_t kMinExcessNs = 50'000;
    constexpr uint64_t kMinGroup = 5;
    const CollectiveTableResult &collectives = ctx.collectives();
    for (const CollectiveRow &row : collectives.rows) {
        if (row.count < kMinGroup || row.medianNs <= 0)
            continue;
        std::vector<const CollectiveInstance *> outliers;
        for (const CollectiveInstance &c : collectives.instances)
            if (ctx.startsInRange(c.start) && CollectiveTable::inRow(c, row) && double(c.duration) >= kOutlierRatio * double(row.medianNs)
                && c.duration - row.medianNs >= kMinExcessNs)
                outliers.push_back(&c);
        if (outliers.empty())
            continue;
        std::stable_sort(outliers.begin(), outliers.end(), [](auto *a, auto *b) { return a->duration > b->duration; });
        int64_t excess = 0;
        std::map<int64_t, uint64_t> byRank;
        for (const CollectiveInstance *c : outliers) {
            excess += c->duration - row.medianNs;
            ++byRank[c->rank];
        }
        const CollectiveInstance &worst = *outliers.front();
        Finding f;
        const std::string what = groupText(row.kind, row.processGroup, row.messageBytes);
        f.title = std::to_string(outliers.size()) + " of " + std::to_string(row.count) + " " + what + " took >= " +
                  insighttext::pct(kOutlierRatio * 100.0) + " of their median " + insighttext::ns(row.medianNs) + "; the slowest " +
                  insighttext::ns(worst.duration) + (worst.rank >= 0 ? " on rank " + std::to_string(worst.rank) : std::string());
        std::string ranks;
        for (const auto &[rank, n] : byRank)
            if (rank >= 0)
                ranks += (ranks.empty() ? "" : ", ") + ("rank " + std::to_string(rank) + " " + std::to_string(n));
        f.detail = what + ": " + std::to_string(row.count) + " instances, median " + insighttext::ns(row.medianNs) + ", max " +
                   insighttext::ns(row.maxNs) + "; " + std::to_string(outliers.size()) + " outliers, " + insighttext::ns(excess) +
                   " above the median in all" + (ranks.empty() ? std::string() : " (" + ranks + ")");
        f.action = "Look at what ran before the slow instances: a rank arriving late makes the others wait inside the "
                   "collective (see late-arrival), contention with other traffic on the link, or a slower network path";
        f.value = double(worst.duration) / double(row.medianNs);
        f.threshold = kOutlierRatio;
        f.recoverableNs = excess;
        f.severity = Finding::severityForShare(excess, ctx.rankTimeNs()); // instances of every rank: the ranks' time
        for (const CollectiveInstance *c : outliers)
            addInstance(f, *c);
        out.push_back(std::move(f));
    }
}

void CollectiveRules::lateArrival(InsightContext &ctx, std::vector<Finding> &out)
{
    for (Finding &f : lateArrivalFindings(ctx.collectiveMatch(), ctx.collectives().instances, ctx.spanNs(),
                                          [&ctx](int64_t t) { return ctx.startsInRange(t); }, true))
        out.push_back(std::move(f));
}

std::vector<CollectiveRules::LateRank> CollectiveRules::lateRanks(const CollectiveMatchResult &match,
                                                                  const std::vector<CollectiveInstance> &instances, int64_t spanNs,
                                                                  const std::function<bool(int64_t)> &counts)
{
    constexpr double kMinLateShare = 0.25;
    constexpr double kMinWaitShare = 0.01;
    std::vector<LateRank> out;
    if (match.ranks.size() < 2)
        return out;
    // Lateness and waits of the matched instances entering the window, per rank.
    const std::vector<RankLateness> inWindow =
        CollectiveMatch::lateness(match.matched, instances, [&counts](const MatchedCollective &m) { return counts(m.firstEntry); });
    int64_t totalLate = 0;
    for (const RankLateness &r : inWindow)
        totalLate = saturatingAdd(totalLate, r.lateNs);
    const double minShare = std::max(kMinLateShare, 1.5 / double(match.ranks.size()));
    for (const RankLateness &r : inWindow) {
        if (r.last == 0)
            continue;
        const double share = totalLate > 0 ? double(r.lateNs) / double(totalLate) : 0;
        if (share >= minShare && double(r.causedWaitNs) >= kMinWaitShare * double(spanNs))
            out.push_back({r, share, minShare});
    }
    return out;
}

std::vector<Finding> CollectiveRules::lateArrivalFindings(const CollectiveMatchResult &match, const std::vector<CollectiveInstance> &instances,
                                                          int64_t spanNs, const std::function<bool(int64_t)> &counts, bool withEvents)
{
    std::vector<Finding> out;
    for (const LateRank &flagged : lateRanks(match, instances, spanNs, counts)) {
        const RankLateness &r = flagged.inWindow;
        const int64_t rank = r.rank;
        const double share = flagged.share, minShare = flagged.minShare;
        uint64_t matched = 0;
        for (const RankLateness &all : match.ranks)
            if (all.rank == rank)
                matched = all.matched;
        const MatchedCollective &worst = match.matched[size_t(r.worst)];
        Finding f;
        f.rule = "late-arrival"; // the registry stamps it too; a job overview has no registry
        f.title = "Rank " + std::to_string(rank) + " arrives last at " + std::to_string(r.last) + " of " + std::to_string(matched) +
                  " collectives, " + insighttext::ns(r.lateNs / int64_t(r.last)) + " after the others on average; they waited " +
                  insighttext::ns(r.causedWaitNs) + " for it";
        f.detail = "Rank " + std::to_string(rank) + ": last at " + std::to_string(r.last) + " matched collectives, " +
                   insighttext::ns(r.lateNs) + " late in all (" + insighttext::pct(share * 100.0) +
                   " of the job's lateness), the other ranks' wait inside those collectives " + insighttext::ns(r.causedWaitNs) +
                   "; worst: " + groupText(worst.kind, worst.processGroup, worst.bytes) + " #" + std::to_string(worst.sequence) +
                   (worst.step >= 0 ? " of ProfilerStep#" + std::to_string(worst.step) : std::string()) + ", " +
                   insighttext::ns(worst.lateNs) + " late, " + std::to_string(match.unmatched) + " instances unmatched";
        f.action = "Find what rank " + std::to_string(rank) +
                   " does before these collectives that the others do not: more work (uneven batches or sequence "
                   "lengths), a slow input pipeline, host stalls or a slower device; the others idle inside the collective "
                   "until it arrives";
        f.value = share;
        f.threshold = minShare;
        f.recoverableNs = r.lateNs;
        f.severity = Finding::severityForShare(r.lateNs, spanNs);
        std::vector<const MatchedCollective *> late;
        for (const MatchedCollective &m : match.matched)
            if (m.lastRank == rank && m.skewNs() > 0 && counts(m.firstEntry))
                late.push_back(&m);
        std::stable_sort(late.begin(), late.end(), [](auto *a, auto *b) { return a->lateNs > b->lateNs; });
        for (const MatchedCollective *m : late) {
            if (withEvents)
                for (uint32_t i : m->members)
                    if (instances[i].rank == rank)
                        f.addEvent(instances[i].slice.value);
            f.addRange(m->firstEntry, m->lastEntry);
        }
        out.push_back(std::move(f));
    }
    return out;
}

} // namespace lanescope
