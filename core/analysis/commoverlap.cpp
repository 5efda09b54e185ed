#include "commoverlap.h"

#include "collectivetable.h"
#include "rankfilter.h"
#include "stepofwork.h"

#include "model/trace.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_set>

namespace lanescope {

namespace {

using Intervals = std::vector<std::pair<int64_t, int64_t>>;

struct Bucket
{
    Intervals compute, communication, memory;
    int64_t first = INT64_MAX, last = INT64_MIN;
    uint64_t kernels = 0;
};

CommOverlapRow rowOf(Bucket &b)
{
    CommOverlapRow r;
    r.kernels = b.kernels;
    r.spanNs = b.kernels ? b.last - b.first : 0;
    Intervals all;
    all.reserve(b.compute.size() + b.communication.size() + b.memory.size());
    all.insert(all.end(), b.compute.begin(), b.compute.end());
    all.insert(all.end(), b.communication.begin(), b.communication.end());
    all.insert(all.end(), b.memory.begin(), b.memory.end());
    const int64_t busy = CommOverlap::merge(all);
    r.computeNs = CommOverlap::merge(b.compute);
    r.communicationNs = CommOverlap::merge(b.communication);
    r.memoryNs = CommOverlap::merge(b.memory);
    r.overlappedNs = CommOverlap::intersection(b.communication, b.compute);
    r.idleNs = r.spanNs - busy;
    r.nonComputeNs = busy - r.computeNs;
    return r;
}

void add(CommOverlapRow &sum, const CommOverlapRow &r)
{
    sum.kernels += r.kernels;
    sum.spanNs += r.spanNs;
    sum.computeNs += r.computeNs;
    sum.communicationNs += r.communicationNs;
    sum.memoryNs += r.memoryNs;
    sum.idleNs += r.idleNs;
    sum.nonComputeNs += r.nonComputeNs;
    sum.overlappedNs += r.overlappedNs;
}

} // namespace

std::optional<double> CommOverlapRow::overlap() const
{
    if (communicationNs <= 0)
        return std::nullopt;
    return double(overlappedNs) / double(communicationNs);
}

int64_t CommOverlap::merge(Intervals &v)
{
    std::sort(v.begin(), v.end());
    size_t out = 0;
    int64_t length = 0;
    for (const auto &[s, e] : v) {
        if (e <= s)
            continue;
        if (out > 0 && s <= v[out - 1].second) {
            if (e > v[out - 1].second) {
                length += e - v[out - 1].second;
                v[out - 1].second = e;
            }
            continue;
        }
        v[out++] = {s, e};
        length += e - s;
    }
    v.resize(out);
    return length;
}

int64_t CommOverlap::intersection(const Intervals &a, const Intervals &b)
{
    int64_t length = 0;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const int64_t s = std::max(a[i].first, b[j].first), e = std::min(a[i].second, b[j].second);
        if (e > s)
            length += e - s;
        if (a[i].second < b[j].second)
            ++i;
        else
            ++j;
    }
    return length;
}

CommOverlapResult CommOverlap::compute(const Trace &trace, const LaunchIndex &index, const CollectiveTableResult &collectives,
                                       const Options &options)
{
    std::unordered_set<uint32_t> communication;
    communication.reserve(collectives.instances.size() * 2);
    for (const CollectiveInstance &c : collectives.instances)
        communication.insert(c.slice.value);
    const bool multiRank = !RankFilter::ranks(trace).empty();
    std::vector<int64_t> rankOfTrack;
    if (multiRank) {
        rankOfTrack.resize(trace.tracks().size());
        for (uint32_t t = 0; t < rankOfTrack.size(); ++t)
            rankOfTrack[t] = RankFilter::rankOfTrack(trace, TrackId(t));
    }
    const auto devices = index.devices();
    const StepOfWork stepOf(trace, index);
    // (rank, device, step number) -> bucket; a device without steps collects under step -1.
    std::map<std::tuple<int64_t, uint32_t, int64_t>, Bucket> buckets;
    for (const LaunchIndex::Work &w : index.work()) {
        if (!LaunchIndex::isExecutionLevel(w.kind) || w.device >= devices.size() || devices[w.device].neuron)
            continue;
        if (w.kind != LaunchIndex::WorkKind::Kernel && w.kind != LaunchIndex::WorkKind::Memcpy && w.kind != LaunchIndex::WorkKind::Memset)
            continue;
        if (options.hasRange && (w.start < options.t0 || w.start > options.t1))
            continue;
        const int64_t end = options.hasRange ? std::min(w.end, options.t1) : w.end;
        const int64_t stepNumber = stepOf.numberOf(w);
        const int64_t rank = multiRank ? rankOfTrack[trace.trackOfSlice(w.slice).value] : -1;
        Bucket &b = buckets[{rank, w.device, stepNumber}];
        Intervals &into = w.kind != LaunchIndex::WorkKind::Kernel ? b.memory
                          : communication.count(w.slice.value) ? b.communication
                                                               : b.compute;
        into.emplace_back(w.start, end);
        b.first = std::min(b.first, w.start);
        b.last = std::max(b.last, end);
        ++b.kernels;
    }
    // A device with steps: work outside every step is not part of any iteration (HTA drops it too).
    std::map<std::pair<int64_t, uint32_t>, bool> hasSteps;
    for (const auto &[key, b] : buckets)
        hasSteps[{std::get<0>(key), std::get<1>(key)}] |= std::get<2>(key) >= 0;
    CommOverlapResult result;
    std::map<std::pair<int64_t, uint32_t>, CommOverlapRow> totals;
    for (auto &[key, b] : buckets) {
        const auto [rank, device, step] = key;
        if (step < 0 && hasSteps[{rank, device}])
            continue;
        CommOverlapRow r = rowOf(b);
        r.rank = rank;
        r.device = devices[device].name;
        r.step = step;
        CommOverlapRow &total = totals[{rank, device}];
        if (total.device.empty()) {
            total.rank = rank;
            total.device = r.device;
        }
        add(total, r);
        if (step >= 0)
            result.steps.push_back(std::move(r));
    }
    for (auto &[key, total] : totals)
        result.devices.push_back(std::move(total));
    return result;
}

} // namespace lanescope
