#include "ntracesync.h"

#include "model/saturating.h"

#include <algorithm>
#include <map>
#include <set>

namespace lanescope {

namespace {
constexpr size_t kMaxMatched = 64;
} // namespace

int64_t NtraceSync::rule(const NtraceSyncPoint &p, int64_t deviceNs)
{
    return saturatingAdd(p.cpu, saturatingSub(deviceNs, p.device));
}

void NtraceSync::assignCores(std::vector<NtraceSyncPoint> &points, const std::vector<NtraceDeviceRecord> &records)
{
    using Group = std::pair<int64_t, int64_t>; // (nc, exec_id)
    std::map<Group, std::vector<size_t>> pointsOf;
    for (size_t i = 0; i < points.size(); ++i) {
        points[i].deviceCore = -1;
        points[i].rule = "no device record of NC " + std::to_string(points[i].nc) + " and exec_id " +
                         std::to_string(points[i].execId) + " (serves no physical core)";
        pointsOf[{points[i].nc, points[i].execId}].push_back(i);
    }
    std::map<Group, std::vector<int64_t>> coresOf; // in order of first appearance
    std::map<Group, std::vector<const NtraceDeviceRecord *>> recordsOf;
    for (const NtraceDeviceRecord &r : records) {
        if (r.deviceCore < 0 || !pointsOf.count({r.nc, r.execId}))
            continue;
        std::vector<int64_t> &cores = coresOf[{r.nc, r.execId}];
        if (cores.size() <= kMaxMatched && std::find(cores.begin(), cores.end(), r.deviceCore) == cores.end())
            cores.push_back(r.deviceCore);
        recordsOf[{r.nc, r.execId}].push_back(&r);
    }
    for (auto &[group, list] : pointsOf) {
        auto cit = coresOf.find(group);
        if (cit == coresOf.end())
            continue;
        const std::vector<int64_t> &cores = cit->second;
        // Matching costs records x points x cores: a group of more than a few dozen of either (never seen:
        // one sync point per physical core and execution) is paired by order only.
        const bool match = list.size() <= kMaxMatched && cores.size() <= kMaxMatched;
        // exact[(point, core)]: records of the core whose host timestamp the point reproduces, of how many
        std::map<std::pair<size_t, int64_t>, std::pair<uint64_t, uint64_t>> exact;
        if (match)
            for (const NtraceDeviceRecord *r : recordsOf[group])
                for (size_t p : list) {
                    auto &[hits, of] = exact[{p, r->deviceCore}];
                    hits += rule(points[p], r->device) == r->host;
                    ++of;
                }
        std::set<size_t> freePoints(list.begin(), list.end());
        std::set<int64_t> freeCores(cores.begin(), cores.end());
        for (;;) { // greedy: the best remaining (point, core) pair
            size_t bestPoint = 0;
            int64_t bestCore = -1;
            uint64_t best = 0;
            for (size_t p : list)
                for (int64_t c : cores)
                    if (freePoints.count(p) && freeCores.count(c))
                        if (const uint64_t hits = exact[{p, c}].first; hits > best) {
                            best = hits;
                            bestPoint = p;
                            bestCore = c;
                        }
            if (bestCore < 0)
                break;
            const auto [hits, of] = exact[{bestPoint, bestCore}];
            points[bestPoint].deviceCore = bestCore;
            points[bestPoint].rule = "reproduces the host timestamps the runtime wrote on " + std::to_string(hits) + " of " +
                                     std::to_string(of) + " device records of core " + std::to_string(bestCore) + " exactly";
            freePoints.erase(bestPoint);
            freeCores.erase(bestCore);
        }
        size_t k = 0;
        for (size_t p : list) { // by order: the k-th remaining sync point, the k-th remaining core
            if (!freePoints.count(p))
                continue;
            for (; k < cores.size() && !freeCores.count(cores[k]); ++k) {
            }
            if (k >= cores.size())
                break;
            points[p].deviceCore = cores[k];
            points[p].rule = "by order (no record's host timestamp matched exactly): the next sync point of NC " +
                             std::to_string(group.first) + " for the next physical core to appear, core " + std::to_string(cores[k]);
            freeCores.erase(cores[k]);
        }
    }
}

NtraceClock::NtraceClock(const std::vector<NtraceSyncPoint> &points)
{
    for (const NtraceSyncPoint &p : points) // those of no physical core serve the cores of their NeuronCore without one
        m_points[{p.nc, p.deviceCore}].push_back(&p);
    for (auto &[core, list] : m_points)
        std::stable_sort(list.begin(), list.end(), [](const NtraceSyncPoint *a, const NtraceSyncPoint *b) { return a->device < b->device; });
}

std::optional<int64_t> NtraceClock::toHost(int64_t nc, int64_t deviceCore, int64_t deviceNs, const NtraceSyncPoint **used) const
{
    auto it = m_points.find({nc, deviceCore});
    if (it == m_points.end())
        it = m_points.find({nc, -1});
    if (it == m_points.end())
        return std::nullopt;
    const std::vector<const NtraceSyncPoint *> &list = it->second;
    auto at = std::upper_bound(list.begin(), list.end(), deviceNs, [](int64_t ts, const NtraceSyncPoint *p) { return ts < p->device; });
    const NtraceSyncPoint *p = at == list.begin() ? list.front() : *(at - 1);
    if (used)
        *used = p;
    return NtraceSync::rule(*p, deviceNs);
}

} // namespace lanescope
