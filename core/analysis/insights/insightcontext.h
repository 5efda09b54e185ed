#pragma once
// What the insights rules read: one trace, its LaunchIndex, the analysed range, and the op, kernel,
// device and engine tables for that range, each computed once on first use. Rules take their
// numbers from these tables, so a finding equals what `ops`, `kernels`, `devices` and `engines`
// print for the same events.
#include "analysis/collectivematch.h"
#include "analysis/collectivetable.h"
#include "analysis/commoverlap.h"
#include "analysis/devicesummary.h"
#include "analysis/enginebreakdown.h"
#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "analysis/rankscopes.h"
#include "devicestarvation.h"
#include "dmaqueuekinds.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lanescope {

class Trace;

class InsightContext
{
public:
    struct Range
    {
        bool has = false;
        int64_t t0 = 0, t1 = 0; // ns on the trace clock
    };

    // `cost`: the trace's ExecutionCost when the caller holds one (nullptr: ops() builds its own).
    InsightContext(const Trace &trace, const LaunchIndex &index, Range range, const ExecutionCost *cost = nullptr);

    const Trace &trace() const { return m_trace; }
    const LaunchIndex &index() const { return m_index; }
    const Range &range() const { return m_range; }
    // The analysed window: the range, else the trace's start and end.
    int64_t spanStart() const;
    int64_t spanEnd() const;
    int64_t spanNs() const { return spanEnd() - spanStart(); }
    // Starts inside the analysed window (the tables' rule for whole occurrences).
    bool startsInRange(int64_t start) const { return !m_range.has || (start >= m_range.t0 && start <= m_range.t1); }

    const OpTable::Result &ops();
    const OpTable::Row *opRow(std::string_view name); // by (folded) name, nullptr when absent
    const KernelTable::Result &kernels();
    const KernelTable::Row *kernelRow(std::string_view name, LaunchIndex::WorkKind kind);
    const std::vector<DeviceSummary::Row> &devices();
    // DeviceSummary of the analysed range (deviceOptions) or of any window.
    DeviceSummary::Options deviceOptions() const;
    const std::vector<std::vector<DeviceSummary::Interval>> &busyIntervals();
    const EngineBreakdownResult &engines();
    // NCCL / RCCL collectives of the whole trace (rules keep those starting in the window), their
    // matching across ranks, and the communication / computation overlap of the window.
    const CollectiveTableResult &collectives();
    const CollectiveMatchResult &collectiveMatch();
    const CommOverlapResult &overlap();
    // The ranks (one scope without ranks): each rank's own span and devices; rules add ranks up in
    // units that add up (rankTimeNs: the ranks' spans summed, the window for a single rank).
    const RankScopes &rankScopes();
    int64_t rankTimeNs() { return rankScopes().totalNs(); }
    // Which devices starved (busy < 95 % of their span): the host-side rules look at those only.
    const DeviceStarvation &starvation();
    // The traffic kind of each DMA queue lane (the paired NEFF's queue sets, else lane names).
    const DmaQueueKinds &queueKinds();
    // Idle time of a device inside [s, e): the gaps between its busy intervals there (appended to
    // `gaps` when given). Within one device's [first, last] span these add up to DeviceSummary idle.
    int64_t idleInside(uint32_t device, int64_t s, int64_t e, std::vector<std::pair<int64_t, int64_t>> *gaps);

    // ProfilerStep#N occurrences that start in range (the op table's "ProfilerStep*" row), by start.
    std::vector<uint32_t> steps();
    // The runtime calls that launch device work (nrt_execute*, *LaunchKernel*, *GraphLaunch*,
    // *LaunchCooperativeKernel*) starting in range, by start.
    std::vector<uint32_t> launchCalls() const;
    // Per slice: how many execution-level works the op launched itself or through ops nested in it.
    const std::vector<uint32_t> &launchCounts();
    // For the ops flagged in `ops` (per slice): those works (indices into index().work()), by start.
    std::unordered_map<uint32_t, std::vector<uint32_t>> launchesOf(const std::vector<uint8_t> &ops) const;
    // The innermost framework op or runtime call on any thread covering time t (invalid when none).
    SliceId hostActivityAt(int64_t t) const;

private:
    // Calls f(op, work index) for every execution-level work and every op it is nested in.
    template <class F>
    void forEachLaunch(F &&f) const;

    const Trace &m_trace;
    const LaunchIndex &m_index;
    Range m_range;
    const ExecutionCost *m_cost; // nullptr: ops() builds its own
    std::optional<OpTable::Result> m_ops;
    std::unordered_map<std::string_view, size_t> m_opByName;
    std::optional<KernelTable::Result> m_kernels;
    std::optional<std::vector<DeviceSummary::Row>> m_devices;
    std::optional<std::vector<std::vector<DeviceSummary::Interval>>> m_busy;
    std::optional<EngineBreakdownResult> m_engines;
    std::optional<DmaQueueKinds> m_queueKinds;
    std::optional<RankScopes> m_rankScopes;
    std::optional<DeviceStarvation> m_starvation;
    std::optional<CollectiveTableResult> m_collectives;
    std::optional<CollectiveMatchResult> m_collectiveMatch;
    std::optional<CommOverlapResult> m_overlap;
    std::optional<std::vector<uint32_t>> m_launchCounts;
    std::vector<uint32_t> m_hostTracks; // tracks holding framework ops or runtime calls
};

} // namespace lanescope
