#include "devicesummary.h"

#include "rankfilter.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace lanescope {

namespace {

constexpr const char *kNames[] = {"device", "total_ns", "busy_ns", "idle_ns", "compute_ns", "memcpy_ns", "busy_percent", "work"};
static_assert(std::size(kNames) == size_t(DeviceSummary::Column::ColumnCount));

// Length of a union of intervals fed in start order.
struct Union
{
    int64_t length = 0;
    int64_t curStart = INT64_MIN, curEnd = INT64_MIN;

    void add(int64_t s, int64_t e)
    {
        if (e <= s)
            return;
        if (s > curEnd) {
            flush();
            curStart = s;
            curEnd = e;
        } else {
            curEnd = std::max(curEnd, e);
        }
    }
    void flush()
    {
        if (curEnd > curStart)
            length += curEnd - curStart;
        curStart = curEnd = INT64_MIN;
    }
};

struct Acc
{
    Union busy, compute, memcpy;
    int64_t first = INT64_MAX, last = INT64_MIN;
    uint64_t work = 0;
};

// The work DeviceSummary counts, clipped to the range: false when it is left out.
bool clippedWork(const LaunchIndex::Work &w, const DeviceSummary::Options &options, int64_t &s, int64_t &e)
{
    if (w.kind == LaunchIndex::WorkKind::NeffExecution)
        return false;
    s = w.start;
    e = w.end;
    if (options.hasRange) {
        s = std::max(s, options.t0);
        e = std::min(e, options.t1);
        if (e < s || (e == s && !(w.start >= options.t0 && w.start <= options.t1)))
            return false;
    }
    return true;
}

} // namespace

const char *DeviceSummary::columnName(Column c) { return kNames[size_t(c)]; }

double DeviceSummary::Row::number(Column c) const
{
    switch (c) {
    case Column::Total: return double(total);
    case Column::Busy: return double(busy);
    case Column::Idle: return double(idle);
    case Column::Compute: return double(compute);
    case Column::Memcpy: return double(memcpy);
    case Column::BusyPercent: return busyPercent();
    case Column::Work: return double(work);
    default: return 0;
    }
}

std::vector<std::vector<DeviceSummary::Interval>> DeviceSummary::busyIntervals(const LaunchIndex &index, const Options &options)
{
    std::vector<std::vector<Interval>> out(index.devices().size());
    for (const LaunchIndex::Work &w : index.work()) {
        int64_t s = 0, e = 0;
        if (!clippedWork(w, options, s, e) || e <= s)
            continue;
        std::vector<Interval> &v = out[w.device];
        if (!v.empty() && s <= v.back().second)
            v.back().second = std::max(v.back().second, e);
        else
            v.emplace_back(s, e);
    }
    return out;
}

std::vector<DeviceSummary::Row> DeviceSummary::compute(const Trace &trace, const LaunchIndex &index, const Options &options)
{
    std::vector<Acc> acc(index.devices().size());
    const RankFilter rank(trace, options.rank); // devices belong to one rank (LaunchIndex names them "Rank N · GPU 0")
    // work() is ordered by start and clipping keeps that order (a clipped start is max(start, t0)
    // for every item, which is monotonic in start).
    for (const LaunchIndex::Work &w : index.work()) {
        int64_t s = 0, e = 0;
        if (!clippedWork(w, options, s, e) || !rank.accepts(w.slice))
            continue;
        Acc &a = acc[w.device];
        ++a.work;
        a.first = std::min(a.first, s);
        a.last = std::max(a.last, e);
        a.busy.add(s, e);
        if (LaunchIndex::isTransfer(w.kind))
            a.memcpy.add(s, e);
        else
            a.compute.add(s, e);
    }
    std::vector<Row> rows;
    for (size_t d = 0; d < acc.size(); ++d) {
        Acc &a = acc[d];
        if (a.work == 0)
            continue;
        a.busy.flush();
        a.compute.flush();
        a.memcpy.flush();
        Row r;
        r.device = index.devices()[d].name;
        r.neuron = index.devices()[d].neuron;
        r.total = a.last - a.first;
        r.busy = a.busy.length;
        r.idle = r.total - r.busy;
        r.compute = a.compute.length;
        r.memcpy = a.memcpy.length;
        r.work = a.work;
        rows.push_back(r);
    }
    return rows;
}

} // namespace lanescope
