#include "profilediff.h"

#include "devicesummary.h"
#include "enginebreakdown.h"
#include "kerneltable.h"
#include "launchindex.h"
#include "model/trace.h"
#include "optable.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace lanescope {

namespace {

std::optional<double> pct(int64_t a, int64_t b)
{
    if (a == 0) {
        if (b == 0)
            return 0.0;
        return std::nullopt;
    }
    return 100.0 * double(b - a) / double(a);
}

struct Side
{
    std::vector<DiffRow> ops, kernels;
    int64_t total = 0;
    std::map<std::string, EngineDiffRow> engines; // filled into the a* fields
};

Side measure(const Trace &trace, const ProfileDiff::Options &options)
{
    Side side;
    const LaunchIndex index = LaunchIndex::build(trace);

    OpTable::Options oo;
    oo.hasRange = options.hasRange;
    oo.t0 = options.t0;
    oo.t1 = options.t1;
    const OpTable::Result ops = OpTable::compute(trace, index, oo);
    side.ops.reserve(ops.rows.size());
    for (const OpTable::Row &r : ops.rows) {
        DiffRow d;
        d.name = r.name;
        d.kind = r.runtime ? "runtime" : "op";
        d.aCalls = r.calls;
        switch (options.metric) {
        case DiffMetric::Device: d.aNs = r.deviceSelf; break;
        case DiffMetric::Cpu: d.aNs = r.cpuSelf; break;
        case DiffMetric::Wall: d.aNs = r.cpuTotal; break;
        }
        side.ops.push_back(std::move(d));
    }

    KernelTable::Options ko;
    ko.hasRange = options.hasRange;
    ko.t0 = options.t0;
    ko.t1 = options.t1;
    const KernelTable::Result kernels = KernelTable::compute(trace, index, ko);
    for (const KernelTable::Row &r : kernels.rows) {
        DiffRow d;
        d.name = r.name;
        d.kind = LaunchIndex::kindName(r.kind);
        d.aNs = r.total;
        d.aCalls = r.count;
        side.kernels.push_back(std::move(d));
    }

    switch (options.metric) {
    case DiffMetric::Device: {
        DeviceSummary::Options so;
        so.hasRange = options.hasRange;
        so.t0 = options.t0;
        so.t1 = options.t1;
        for (const DeviceSummary::Row &r : DeviceSummary::compute(trace, index, so))
            side.total += r.busy;
        break;
    }
    case DiffMetric::Cpu:
        side.total = ops.cpuSelfTotal;
        break;
    case DiffMetric::Wall:
        side.total = options.hasRange ? std::max<int64_t>(0, std::min(options.t1, trace.endNs()) - std::max(options.t0, trace.startNs()))
                                      : trace.endNs() - trace.startNs();
        break;
    }

    EngineBreakdown::Options eo;
    if (options.hasRange) {
        eo.startNs = options.t0;
        eo.endNs = options.t1;
    }
    const EngineBreakdownResult engines = EngineBreakdown::compute(trace, eo);
    for (const EngineBreakdownRow &r : engines.engines) {
        EngineDiffRow &e = side.engines[std::string(EngineBreakdown::engineName(r.engine))];
        e.engine = std::string(EngineBreakdown::engineName(r.engine));
        e.aActiveNs += r.activeTimeNs;
        e.aInstructions += r.instructionCount;
        e.aInstructionNs += r.instructionTimeNs;
    }
    if (!engines.dma.empty() || !engines.cores.empty()) {
        EngineDiffRow &dma = side.engines["DMA"];
        dma.engine = "DMA";
        for (const CoreBreakdown &c : engines.cores) {
            dma.aActiveNs += c.dmaActiveTimeNs;
            dma.aDmaBytes += c.dmaBytes;
        }
        for (const DmaQueueBreakdownRow &q : engines.dma)
            dma.aInstructions += q.packetCount;
    }
    return side;
}

} // namespace

std::optional<double> DiffRow::deltaPct() const
{
    return pct(aNs, bNs);
}

std::optional<double> DiffTotal::deltaPct() const
{
    return pct(aNs, bNs);
}

std::vector<DiffRow> ProfileDiff::join(const std::vector<DiffRow> &aRows, const std::vector<DiffRow> &bRows)
{
    std::vector<DiffRow> out;
    out.reserve(std::max(aRows.size(), bRows.size()));
    std::unordered_map<std::string, size_t> rowOf;
    for (const DiffRow &r : aRows) {
        auto [it, inserted] = rowOf.try_emplace(r.name, out.size());
        if (inserted) {
            out.push_back(r);
            out.back().bNs = 0;
            out.back().bCalls = 0;
        } else {
            out[it->second].aNs += r.aNs;
            out[it->second].aCalls += r.aCalls;
        }
    }
    for (const DiffRow &r : bRows) {
        auto [it, inserted] = rowOf.try_emplace(r.name, out.size());
        if (inserted) {
            DiffRow d;
            d.name = r.name;
            d.kind = r.kind;
            out.push_back(std::move(d));
        }
        DiffRow &d = out[it->second];
        d.bNs += r.aNs; // measured rows carry their value in the a* fields
        d.bCalls += r.aCalls;
    }
    std::stable_sort(out.begin(), out.end(), [](const DiffRow &x, const DiffRow &y) {
        if (x.deltaNs() != y.deltaNs())
            return x.deltaNs() > y.deltaNs();
        return std::max(x.aNs, x.bNs) > std::max(y.aNs, y.bNs);
    });
    return out;
}

ProfileDiffResult ProfileDiff::compute(const Trace &a, const Trace &b, const Options &options)
{
    const Side sa = measure(a, options);
    const Side sb = measure(b, options);
    ProfileDiffResult result;
    result.metric = options.metric;
    result.total.aNs = sa.total;
    result.total.bNs = sb.total;
    result.ops = join(sa.ops, sb.ops);
    result.kernels = join(sa.kernels, sb.kernels);

    // Engines in their fixed order (Tensor, Vector, Scalar, GpSimd, Sync, then DMA).
    std::map<std::string, EngineDiffRow> engines = sa.engines;
    for (const auto &[name, r] : sb.engines) {
        EngineDiffRow &e = engines[name];
        e.engine = name;
        e.bActiveNs = r.aActiveNs;
        e.bInstructions = r.aInstructions;
        e.bInstructionNs = r.aInstructionNs;
        e.bDmaBytes = r.aDmaBytes;
    }
    static const char *const kOrder[] = {"Tensor", "Vector", "Scalar", "GpSimd", "Sync", "DMA"};
    for (const char *name : kOrder) {
        auto it = engines.find(name);
        if (it != engines.end()) {
            result.engines.push_back(it->second);
            engines.erase(it);
        }
    }
    for (auto &[name, r] : engines)
        result.engines.push_back(r);
    return result;
}

DiffGateResult ProfileDiff::gate(const ProfileDiffResult &diff, double percent, int64_t minTimeNs)
{
    DiffGateResult g;
    const auto slower = [percent](int64_t a, int64_t b) {
        if (b <= a)
            return false;
        if (a == 0)
            return true;
        return 100.0 * double(b - a) / double(a) > percent;
    };
    g.totalSlower = slower(diff.total.aNs, diff.total.bNs);
    const std::vector<DiffRow> &rows = diff.ops.empty() ? diff.kernels : diff.ops;
    for (const DiffRow &r : rows)
        if (std::max(r.aNs, r.bNs) >= minTimeNs && slower(r.aNs, r.bNs))
            g.slowerRows.push_back(&r);
    g.failed = g.totalSlower || !g.slowerRows.empty();
    return g;
}

const char *ProfileDiff::metricName(DiffMetric m)
{
    switch (m) {
    case DiffMetric::Device: return "device";
    case DiffMetric::Cpu: return "cpu";
    case DiffMetric::Wall: return "wall";
    }
    return "device";
}

std::optional<DiffMetric> ProfileDiff::metricFromName(const std::string &name)
{
    if (name == "device")
        return DiffMetric::Device;
    if (name == "cpu")
        return DiffMetric::Cpu;
    if (name == "wall")
        return DiffMetric::Wall;
    return std::nullopt;
}

} // namespace lanescope
