#include "insightcontext.h"

#include "model/trace.h"

#include <algorithm>

namespace lanescope {

InsightContext::InsightContext(const Trace &trace, const LaunchIndex &index, Range range, const ExecutionCost *cost)
    : m_trace(trace), m_index(index), m_range(range), m_cost(cost)
{
    std::vector<uint8_t> host(trace.tracks().size(), 0);
    for (uint32_t s : index.opSlices())
        host[trace.trackOfSlice(SliceId(s)).value] = 1;
    for (uint32_t t = 0; t < host.size(); ++t)
        if (host[t])
            m_hostTracks.push_back(t);
}

namespace {

// The tables' options for the analysed range (they share hasRange / t0 / t1).
template <class Options>
Options rangeOptions(const InsightContext::Range &range)
{
    Options o;
    o.hasRange = range.has;
    o.t0 = range.t0;
    o.t1 = range.t1;
    return o;
}

} // namespace

int64_t InsightContext::spanStart() const { return m_range.has ? m_range.t0 : m_trace.startNs(); }
int64_t InsightContext::spanEnd() const { return m_range.has ? m_range.t1 : m_trace.endNs(); }

const OpTable::Result &InsightContext::ops()
{
    if (!m_ops) {
        m_ops = OpTable::compute(m_trace, m_index, rangeOptions<OpTable::Options>(m_range), m_cost);
        for (size_t i = 0; i < m_ops->rows.size(); ++i)
            m_opByName.emplace(m_ops->rows[i].name, i);
    }
    return *m_ops;
}

const OpTable::Row *InsightContext::opRow(std::string_view name)
{
    const OpTable::Result &r = ops();
    const auto it = m_opByName.find(OpTable::foldName(name));
    return it == m_opByName.end() ? nullptr : &r.rows[it->second];
}

const KernelTable::Result &InsightContext::kernels()
{
    if (!m_kernels) {
        m_kernels = KernelTable::compute(m_trace, m_index, rangeOptions<KernelTable::Options>(m_range));
    }
    return *m_kernels;
}

const KernelTable::Row *InsightContext::kernelRow(std::string_view name, LaunchIndex::WorkKind kind)
{
    for (const KernelTable::Row &r : kernels().rows)
        if (r.kind == kind && r.name == name)
            return &r;
    return nullptr;
}

DeviceSummary::Options InsightContext::deviceOptions() const { return rangeOptions<DeviceSummary::Options>(m_range); }

const std::vector<DeviceSummary::Row> &InsightContext::devices()
{
    if (!m_devices)
        m_devices = DeviceSummary::compute(m_trace, m_index, deviceOptions());
    return *m_devices;
}

const std::vector<std::vector<DeviceSummary::Interval>> &InsightContext::busyIntervals()
{
    if (!m_busy)
        m_busy = DeviceSummary::busyIntervals(m_index, deviceOptions());
    return *m_busy;
}

const CollectiveTableResult &InsightContext::collectives()
{
    if (!m_collectives)
        m_collectives = CollectiveTable::compute(m_trace);
    return *m_collectives;
}

const CollectiveMatchResult &InsightContext::collectiveMatch()
{
    if (!m_collectiveMatch)
        m_collectiveMatch = CollectiveMatch::compute(m_trace, m_index, collectives());
    return *m_collectiveMatch;
}

const CommOverlapResult &InsightContext::overlap()
{
    if (!m_overlap)
        m_overlap = CommOverlap::compute(m_trace, m_index, collectives(), rangeOptions<CommOverlap::Options>(m_range));
    return *m_overlap;
}

const EngineBreakdownResult &InsightContext::engines()
{
    if (!m_engines) {
        EngineBreakdown::Options o;
        if (m_range.has) {
            o.startNs = m_range.t0;
            o.endNs = m_range.t1;
        }
        o.topOpcodes = 1000; // the transpose share needs every Tensor opcode
        m_engines = EngineBreakdown::compute(m_trace, o);
    }
    return *m_engines;
}

const DmaQueueKinds &InsightContext::queueKinds()
{
    if (!m_queueKinds)
        m_queueKinds = DmaQueueKinds::fromTrace(m_trace);
    return *m_queueKinds;
}

const RankScopes &InsightContext::rankScopes()
{
    if (!m_rankScopes)
        m_rankScopes = RankScopes::compute(m_trace, m_index, spanStart(), spanEnd());
    return *m_rankScopes;
}

const DeviceStarvation &InsightContext::starvation()
{
    if (!m_starvation)
        m_starvation = DeviceStarvation::compute(*this);
    return *m_starvation;
}

int64_t InsightContext::idleInside(uint32_t device, int64_t s, int64_t e, std::vector<std::pair<int64_t, int64_t>> *gaps)
{
    const auto &all = busyIntervals();
    if (e <= s || device >= all.size())
        return 0;
    const auto &busy = all[device];
    auto it = std::upper_bound(busy.begin(), busy.end(), s, [](int64_t v, const DeviceSummary::Interval &iv) { return v < iv.second; });
    int64_t idle = 0, at = s;
    for (; it != busy.end() && it->first < e; ++it) {
        if (it->first > at) {
            idle += it->first - at;
            if (gaps)
                gaps->emplace_back(at, it->first);
        }
        at = std::max(at, it->second);
    }
    if (at < e) {
        idle += e - at;
        if (gaps)
            gaps->emplace_back(at, e);
    }
    return idle;
}

std::vector<uint32_t> InsightContext::steps()
{
    // In time order, from the op table when it is there; else only its step row (the capture check
    // computes no table).
    if (!m_ops)
        return OpTable::occurrences(m_trace, m_index, rangeOptions<OpTable::Options>(m_range), "ProfilerStep*");
    const OpTable::Row *row = opRow("ProfilerStep*");
    return row ? row->occurrences : std::vector<uint32_t>();
}

std::vector<uint32_t> InsightContext::launchCalls() const
{
    const auto isLaunchCall = [](std::string_view name) {
        return name.starts_with("nrt_execute") || name.find("LaunchKernel") != std::string_view::npos
            || name.find("GraphLaunch") != std::string_view::npos || name.find("LaunchCooperativeKernel") != std::string_view::npos;
    };
    std::vector<uint32_t> calls;
    for (uint32_t s : m_index.opSlices()) {
        const Slice &x = m_trace.slice(SliceId(s));
        if (m_index.role(SliceId(s)) == LaunchIndex::Role::Runtime && startsInRange(x.start) && isLaunchCall(m_trace.str(x.name)))
            calls.push_back(s);
    }
    std::sort(calls.begin(), calls.end(),
              [&](uint32_t a, uint32_t b) { return m_trace.slice(SliceId(a)).start < m_trace.slice(SliceId(b)).start; });
    return calls;
}

template <class F>
void InsightContext::forEachLaunch(F &&f) const
{
    const auto work = m_index.work();
    for (uint32_t i = 0; i < work.size(); ++i) {
        const LaunchIndex::Work &w = work[i];
        if (!LaunchIndex::isExecutionLevel(w.kind) || !w.op.isValid())
            continue;
        // The op and every op it is nested in (same thread), bounded against malformed chains.
        SliceId op = w.op;
        for (int depth = 0; op.isValid() && depth < 512; ++depth, op = m_index.opParent(op))
            f(op.value, i);
    }
}

const std::vector<uint32_t> &InsightContext::launchCounts()
{
    if (!m_launchCounts) {
        std::vector<uint32_t> counts(m_index.sliceCount(), 0);
        forEachLaunch([&](uint32_t op, uint32_t) { ++counts[op]; });
        m_launchCounts = std::move(counts);
    }
    return *m_launchCounts;
}

std::unordered_map<uint32_t, std::vector<uint32_t>> InsightContext::launchesOf(const std::vector<uint8_t> &ops) const
{
    std::unordered_map<uint32_t, std::vector<uint32_t>> out;
    forEachLaunch([&](uint32_t op, uint32_t i) {
        if (op < ops.size() && ops[op])
            out[op].push_back(i);
    });
    return out;
}

SliceId InsightContext::hostActivityAt(int64_t t) const
{
    SliceId best;
    int bestDepth = -1;
    for (uint32_t tr : m_hostTracks) {
        const TrackId track(tr);
        const auto [b, e] = m_trace.sliceRange(track, t, t);
        for (uint32_t i = b; i < e; ++i) {
            const SliceId id = m_trace.sliceId(track, i);
            const Slice &s = m_trace.slice(id);
            if (s.start > t || s.end() < t)
                continue;
            const auto role = m_index.role(id);
            if (role != LaunchIndex::Role::FrameworkOp && role != LaunchIndex::Role::Runtime)
                continue;
            if (int(s.depth) > bestDepth) {
                bestDepth = s.depth;
                best = id;
            }
        }
    }
    return best;
}

} // namespace lanescope
