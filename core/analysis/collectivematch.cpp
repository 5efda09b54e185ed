#include "collectivematch.h"

#include "collectivetable.h"
#include "launchindex.h"
#include "stepofwork.h"

#include "model/saturating.h"
#include "model/trace.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace lanescope {

namespace {

void measure(MatchedCollective &m, const std::vector<CollectiveInstance> &in)
{
    uint32_t lastMember = m.members.front();
    m.firstEntry = INT64_MAX;
    for (uint32_t i : m.members) {
        m.firstEntry = std::min(m.firstEntry, in[i].start);
        if (in[i].start > in[lastMember].start)
            lastMember = i;
    }
    m.lastEntry = in[lastMember].start;
    m.lastRank = in[lastMember].rank;
    std::vector<int64_t> others;
    for (uint32_t i : m.members) {
        if (i == lastMember)
            continue;
        others.push_back(in[i].start);
        const int64_t wait = std::min(m.lastEntry - in[i].start, in[i].duration);
        m.waitNs = saturatingAdd(m.waitNs, wait);
        m.maxWaitNs = std::max(m.maxWaitNs, wait);
    }
    std::sort(others.begin(), others.end());
    m.lateNs = m.lastEntry - others[(others.size() - 1) / 2];
}

} // namespace

std::vector<int64_t> CollectiveMatch::stepsOf(const Trace &trace, const LaunchIndex &index, const CollectiveTableResult &collectives)
{
    std::unordered_map<uint32_t, uint32_t> instanceOfSlice;
    instanceOfSlice.reserve(collectives.instances.size() * 2);
    for (uint32_t i = 0; i < collectives.instances.size(); ++i)
        instanceOfSlice.emplace(collectives.instances[i].slice.value, i);
    std::vector<int64_t> steps(collectives.instances.size(), -1);
    const StepOfWork stepOf(trace, index);
    for (const LaunchIndex::Work &w : index.work()) {
        const auto it = instanceOfSlice.find(w.slice.value);
        if (it != instanceOfSlice.end())
            steps[it->second] = stepOf.numberOf(w);
    }
    return steps;
}

std::vector<const MatchedCollective *> CollectiveMatch::mostSkewed(const CollectiveMatchResult &result)
{
    std::vector<const MatchedCollective *> out;
    for (const MatchedCollective &c : result.matched)
        out.push_back(&c);
    std::stable_sort(out.begin(), out.end(), [](auto *a, auto *b) { return a->skewNs() > b->skewNs(); });
    return out;
}

CollectiveMatchResult CollectiveMatch::compute(const Trace &trace, const LaunchIndex &index, const CollectiveTableResult &collectives)
{
    std::set<int64_t> ranks;
    for (const CollectiveInstance &c : collectives.instances)
        if (c.rank >= 0)
            ranks.insert(c.rank);
    if (ranks.size() < 2) // nothing to match: the steps are not looked up
        return {};
    return match(collectives.instances, stepsOf(trace, index, collectives));
}

CollectiveMatchResult CollectiveMatch::match(const std::vector<CollectiveInstance> &in, const std::vector<int64_t> &steps)
{
    CollectiveMatchResult result;
    std::set<int64_t> allRanks;
    for (const CollectiveInstance &c : in)
        if (c.rank >= 0)
            allRanks.insert(c.rank);
    if (allRanks.size() < 2 || steps.size() != in.size())
        return result;
    // group -> ranks with any instance; (group, step) -> rank -> instances in time order.
    std::map<std::string, std::set<int64_t>> groupRanks;
    std::map<std::pair<std::string, int64_t>, std::map<int64_t, std::vector<uint32_t>>> keyed;
    for (uint32_t i = 0; i < in.size(); ++i) {
        if (in[i].rank < 0)
            continue;
        groupRanks[in[i].processGroup].insert(in[i].rank);
        keyed[{in[i].processGroup, steps[i]}][in[i].rank].push_back(i); // instances are in time order
    }
    uint64_t matchedInstances = 0;
    for (const auto &[key, byRank] : keyed) {
        const std::set<int64_t> &ranks = groupRanks[key.first];
        if (ranks.size() < 2 || byRank.size() != ranks.size())
            continue; // a rank of the group has none of this step's instances
        const size_t n = byRank.begin()->second.size();
        if (!std::all_of(byRank.begin(), byRank.end(), [n](const auto &kv) { return kv.second.size() == n; }))
            continue;
        for (uint32_t pos = 0; pos < n; ++pos) {
            MatchedCollective m;
            for (const auto &[rank, list] : byRank)
                m.members.push_back(list[pos]);
            const CollectiveInstance &head = in[m.members.front()];
            const bool same = std::all_of(m.members.begin(), m.members.end(), [&](uint32_t i) {
                return in[i].kind == head.kind && in[i].bytes == head.bytes;
            });
            if (!same)
                continue;
            m.processGroup = key.first;
            m.kind = head.kind;
            m.bytes = head.bytes;
            m.step = key.second;
            m.sequence = pos;
            measure(m, in);
            matchedInstances += m.members.size();
            result.matched.push_back(std::move(m));
        }
    }
    uint64_t multiRankInstances = 0;
    for (const CollectiveInstance &c : in)
        multiRankInstances += c.rank >= 0;
    result.unmatched = multiRankInstances - matchedInstances;
    std::sort(result.matched.begin(), result.matched.end(), [](const MatchedCollective &a, const MatchedCollective &b) {
        return std::tie(a.firstEntry, a.processGroup, a.step, a.sequence) < std::tie(b.firstEntry, b.processGroup, b.step, b.sequence);
    });
    result.ranks = lateness(result.matched, in, [](const MatchedCollective &) { return true; },
                            std::vector<int64_t>(allRanks.begin(), allRanks.end()));
    return result;
}

std::vector<RankLateness> CollectiveMatch::lateness(const std::vector<MatchedCollective> &matched,
                                                    const std::vector<CollectiveInstance> &instances,
                                                    const std::function<bool(const MatchedCollective &)> &counts,
                                                    const std::vector<int64_t> &listed)
{
    std::map<int64_t, RankLateness> perRank;
    for (int64_t r : listed)
        perRank[r].rank = r;
    for (size_t mi = 0; mi < matched.size(); ++mi) {
        const MatchedCollective &m = matched[mi];
        if (!counts(m))
            continue;
        for (uint32_t i : m.members) {
            RankLateness &r = perRank[instances[i].rank];
            r.rank = instances[i].rank;
            ++r.matched;
        }
        if (m.skewNs() <= 0)
            continue;
        RankLateness &r = perRank[m.lastRank];
        ++r.last;
        r.lateNs = saturatingAdd(r.lateNs, m.lateNs);
        r.causedWaitNs = saturatingAdd(r.causedWaitNs, m.waitNs);
        if (r.worst < 0 || m.lateNs > r.maxLateNs) {
            r.maxLateNs = m.lateNs;
            r.worst = int64_t(mi);
        }
    }
    std::vector<RankLateness> out;
    for (auto &[rank, r] : perRank)
        out.push_back(r);
    return out;
}

} // namespace lanescope
