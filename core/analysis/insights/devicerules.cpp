#include "devicerules.h"

#include "deviceevidence.h"
#include "insightcontext.h"
#include "insighttext.h"
#include "model/dmaqueuekind.h"
#include "model/trace.h"
#include "util/textutil.h"

#include <algorithm>

namespace lanescope {

namespace {

std::string engineName(const EngineBreakdownRow &r) { return r.coreName + " / " + std::string(EngineBreakdown::engineName(r.engine)); }

bool isWait(const Trace &trace, const Slice &s) { return EngineBreakdown::isSemaphoreWait(trace.str(s.name)); }

// The lanes of the DMA queues that `pick` accepts.
template <class Pick>
std::vector<TrackId> dmaTracks(const EngineBreakdownResult &e, Pick pick)
{
    std::vector<TrackId> out;
    for (const DmaQueueBreakdownRow &q : e.dma)
        if (pick(q))
            out.push_back(q.track);
    return out;
}

Finding make(double value, double threshold)
{
    Finding f;
    f.value = value;
    f.threshold = threshold;
    return f;
}

} // namespace

void DeviceRules::engineBottleneck(InsightContext &ctx, const EngineBreakdownResult &e, std::vector<Finding> &out)
{
    constexpr double kBottleneckPercent = 50.0;
    constexpr double kBottleneckRatio = 2.0;
    for (const CoreBreakdown &core : e.cores) {
        const EngineBreakdownRow *top = nullptr;
        double others = 0;
        int otherCount = 0;
        for (const EngineBreakdownRow &r : e.engines)
            if (r.core == core.core && r.instructionCount > 0 && (!top || r.activePercent > top->activePercent))
                top = &r;
        if (!top || top->activePercent < kBottleneckPercent)
            continue;
        std::vector<std::string> parts;
        for (const EngineBreakdownRow &r : e.engines) {
            if (r.core != core.core || r.instructionCount == 0)
                continue;
            parts.push_back(std::string(EngineBreakdown::engineName(r.engine)) + " " + insighttext::pct(r.activePercent));
            if (&r != top) {
                others += r.activePercent;
                ++otherCount;
            }
        }
        const double mean = otherCount ? others / otherCount : 0;
        if (otherCount && top->activePercent < kBottleneckRatio * mean)
            continue;
        Finding f = make(top->activePercent, kBottleneckPercent);
        f.title = std::string(EngineBreakdown::engineName(top->engine)) + " engine is the bottleneck: active " + insighttext::pct(top->activePercent);
        f.detail = core.coreName + ": " + engineName(*top) + " active " + insighttext::ns(top->activeTimeNs) + " of " +
                   insighttext::ns(e.denominatorNs) + " (" + e.denominatorSource + "), others " + insighttext::pct(mean) +
                   " on average (engine table): " + insighttext::join(parts, ", ");
        f.action = "Move work off the " + std::string(EngineBreakdown::engineName(top->engine)) +
                   " engine (other engines can run elementwise ops; matmuls belong on Tensor), or overlap it with the idle engines";
        f.severity = Severity::Medium;
        const Trace &trace = ctx.trace();
        DeviceEvidence::attach(f, trace, e, top->tracks, [&](const Slice &s) { return !isWait(trace, s); });
        out.push_back(std::move(f));
    }
}

void DeviceRules::semaphoreWait(InsightContext &ctx, const EngineBreakdownResult &e, std::vector<Finding> &out)
{
    constexpr double kSemaphorePercent = 25.0;
    constexpr double kSemaphoreMinActivePercent = 10.0;
    for (const EngineBreakdownRow &r : e.engines) {
        // An engine with (almost) nothing to do waits by design; only a working engine starves.
        const double share = 100.0 * double(r.semaphoreWaitTimeNs) / double(e.denominatorNs);
        if (share < kSemaphorePercent || r.semaphoreWaitTimeNs <= r.instructionTimeNs ||
            r.activePercent < kSemaphoreMinActivePercent)
            continue;
        Finding f = make(share, kSemaphorePercent);
        f.title = engineName(r) + " waits on semaphores " + insighttext::pct(share) + " of the time";
        f.detail = engineName(r) + ": " + std::to_string(r.semaphoreWaitCount) + " semaphore waits, " + insighttext::ns(r.semaphoreWaitTimeNs) +
                   " vs instruction time " + insighttext::ns(r.instructionTimeNs) + ", active " + insighttext::pct(r.activePercent) +
                   " (engine table)";
        f.action = "The engine starves on a producer (another engine or a DMA queue): follow a wait's dependency chain "
                   "([ / ] in the timeline) to what releases it and shorten or overlap that";
        f.severity = Severity::Medium; // waiting overlaps other work: no recoverable estimate
        const Trace &trace = ctx.trace();
        DeviceEvidence::attach(f, trace, e, r.tracks, [&](const Slice &s) { return isWait(trace, s); });
        out.push_back(std::move(f));
    }
}

void DeviceRules::dmaBound(InsightContext &ctx, const EngineBreakdownResult &e, std::vector<Finding> &out)
{
    constexpr double kDmaBoundPercent = 50.0;
    for (const CoreBreakdown &core : e.cores) {
        int64_t compute = 0;
        for (const EngineBreakdownRow &r : e.engines)
            if (r.core == core.core)
                compute = std::max(compute, r.activeTimeNs);
        const double share = 100.0 * double(core.dmaActiveTimeNs) / double(e.denominatorNs);
        if (share < kDmaBoundPercent || core.dmaActiveTimeNs <= compute)
            continue;
        Finding f = make(share, kDmaBoundPercent);
        f.title = core.coreName + " is DMA-bound: DMA active " + insighttext::pct(share);
        f.detail = "DMA active " + insighttext::ns(core.dmaActiveTimeNs) + " (" + insighttext::bytes(double(core.dmaBytes)) +
                   ") vs the busiest engine " + insighttext::ns(compute) + " of " + insighttext::ns(e.denominatorNs) + " (engine table)";
        f.action = "Move less data: keep tensors in SBUF across ops (fuse), use larger tiles, lower precision, avoid re-loading weights";
        f.recoverableNs = core.dmaActiveTimeNs - compute;
        f.severity = Finding::severityForShare(*f.recoverableNs, e.denominatorNs);
        const auto tracks = dmaTracks(e, [&](const DmaQueueBreakdownRow &q) { return q.core == core.core; });
        DeviceEvidence::attach(f, ctx.trace(), e, tracks, [](const Slice &) { return true; });
        out.push_back(std::move(f));
    }
}

void DeviceRules::smallDma(InsightContext &ctx, const EngineBreakdownResult &e, std::vector<Finding> &out)
{
    constexpr double kSmallDmaBytes = 2048.0;
    constexpr uint64_t kSmallDmaMinPackets = 100;
    uint64_t bytes = 0, packets = 0;
    for (const DmaQueueBreakdownRow &q : e.dma) {
        bytes += q.bytes;
        packets += q.packetCount;
    }
    if (packets < kSmallDmaMinPackets)
        return;
    const double avg = double(bytes) / double(packets);
    if (avg >= kSmallDmaBytes)
        return;
    Finding f = make(avg, kSmallDmaBytes);
    f.title = "Small DMA transfers: " + insighttext::bytes(avg) + " on average";
    f.detail = std::to_string(packets) + " DMA packets, " + insighttext::bytes(double(bytes)) + " (engine table DMA queues), " +
               insighttext::bytes(avg) + " per packet";
    f.action = "Make transfers larger and contiguous: bigger tiles, a layout where each partition reads a contiguous row";
    f.severity = Severity::Low;
    const Trace &trace = ctx.trace();
    const StringId kSize = trace.strings().find("transfer_size");
    const auto tracks = dmaTracks(e, [](const DmaQueueBreakdownRow &) { return true; });
    DeviceEvidence::attach(f, trace, e, tracks, [&](const Slice &s) {
        int64_t size = 0;
        return !LaunchIndex::intArg(trace, s.args, kSize, size) || double(size) < kSmallDmaBytes;
    });
    out.push_back(std::move(f));
}

void DeviceRules::spillReload(InsightContext &ctx, const EngineBreakdownResult &e, std::vector<Finding> &out)
{
    constexpr double kSpillPercent = 25.0;
    uint64_t bytes = 0, spill = 0;
    const DmaQueueKinds &kinds = ctx.queueKinds();
    for (const DmaQueueBreakdownRow &q : e.dma) {
        bytes += q.bytes;
        if (kinds.of(q.queue) == DmaQueueKind::SpillReload)
            spill += q.bytes;
    }
    if (bytes == 0)
        return;
    const double share = 100.0 * double(spill) / double(bytes);
    if (share <= kSpillPercent)
        return;
    Finding f = make(share, kSpillPercent);
    f.title = "Spill / reload traffic is " + insighttext::pct(share) + " of DMA bytes";
    f.detail = insighttext::bytes(double(spill)) + " on spill / reload queues of " + insighttext::bytes(double(bytes)) + " (engine table DMA queues)";
    f.action = "The state buffer overflows: smaller tiles or fewer live tensors, check the data dependencies that force spills";
    f.severity = Severity::Medium;
    const auto tracks = dmaTracks(e, [&](const DmaQueueBreakdownRow &q) { return kinds.of(q.queue) == DmaQueueKind::SpillReload; });
    DeviceEvidence::attach(f, ctx.trace(), e, tracks, [](const Slice &) { return true; });
    out.push_back(std::move(f));
}

void DeviceRules::throttling(InsightContext &ctx, const EngineBreakdownResult &e, std::vector<Finding> &out)
{
    constexpr double kThrottlePercent = 5.0;
    const Trace &trace = ctx.trace();
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track &track = trace.tracks()[t];
        if (track.kind != TrackKind::Counter || trace.str(track.name).rfind("throttling", 0) != 0)
            continue;
        const auto samples = trace.counterSamples(TrackId(t));
        int64_t throttled = 0;
        DeviceEvidence::Ranges sections; // by start
        for (size_t i = 0; i + 1 < samples.size(); ++i) {
            if (samples[i].value >= 1.0)
                continue;
            const int64_t s = std::max(samples[i].ts, e.startNs), en = std::min(samples[i + 1].ts, e.endNs);
            if (en <= s)
                continue;
            throttled += en - s;
            if (!sections.empty() && sections.back().second == s)
                sections.back().second = en;
            else
                sections.emplace_back(s, en);
        }
        const double share = 100.0 * double(throttled) / double(e.denominatorNs);
        if (share < kThrottlePercent)
            continue;
        Finding f = make(share, kThrottlePercent);
        f.title = "Throttled " + insighttext::pct(share) + " of the time";
        f.detail = trace.groupPath(track.group) + ": utilisation limit below 1 for " + insighttext::ns(throttled) + " of " +
                   insighttext::ns(e.denominatorNs);
        f.action = "Find the cause of throttling (power or thermal limits, a utilisation cap set for the instance)";
        f.recoverableNs = throttled;
        f.severity = Finding::severityForShare(throttled, e.denominatorNs);
        // The instructions of the counter's core that ran while throttled.
        std::vector<TrackId> tracks;
        for (const EngineBreakdownRow &r : e.engines)
            for (GroupId g = track.group; g.isValid(); g = trace.group(g).parent)
                if (g == r.core) {
                    tracks.insert(tracks.end(), r.tracks.begin(), r.tracks.end());
                    break;
                }
        DeviceEvidence::attach(f, trace, e, tracks, [&](const Slice &s) {
            auto it = std::upper_bound(sections.begin(), sections.end(), s.start, [](int64_t v, const auto &r) { return v < r.second; });
            return it != sections.end() && it->first < s.end() && !isWait(trace, s);
        }, false);
        f.ranges = DeviceEvidence::longest(sections);
        out.push_back(std::move(f));
    }
}

void DeviceRules::mfuBelowHfu(InsightContext &ctx, const EngineBreakdownResult &e, std::vector<Finding> &out)
{
    constexpr double kMfuOfHfuPercent = 50.0;
    for (const CoreBreakdown &c : e.cores) {
        if (!c.mfuPercent || !c.hfuPercent || *c.hfuPercent <= 0)
            continue;
        const double ratio = 100.0 * *c.mfuPercent / *c.hfuPercent;
        if (ratio >= kMfuOfHfuPercent)
            continue;
        Finding f = make(ratio, kMfuOfHfuPercent);
        f.title = "MFU is " + insighttext::pct(ratio) + " of HFU: the Tensor engine does work that is not model FLOPs";
        f.detail = c.coreName + ": MFU " + insighttext::pct(*c.mfuPercent) + ", HFU " + insighttext::pct(*c.hfuPercent) + " (engine table)";
        f.action = "Use the whole Tensor engine for matmuls: fewer transposes, full-size tiles, pipeline instructions";
        f.severity = Severity::Medium;
        const Trace &trace = ctx.trace();
        for (const EngineBreakdownRow &r : e.engines)
            if (r.core == c.core && r.engine == NeuronEngine::Tensor)
                DeviceEvidence::attach(f, trace, e, r.tracks, [&](const Slice &s) { return !isWait(trace, s); });
        out.push_back(std::move(f));
    }
}

void DeviceRules::tensorTranspose(InsightContext &ctx, const EngineBreakdownResult &e, std::vector<Finding> &out)
{
    constexpr double kTransposePercent = 10.0;
    for (const EngineBreakdownRow &r : e.engines) {
        if (r.engine != NeuronEngine::Tensor || r.instructionTimeNs <= 0)
            continue;
        int64_t t = 0;
        uint64_t n = 0;
        for (const EngineOpcodeTime &o : r.topOpcodes)
            if (text::lower(o.opcode).find("transpose") != std::string::npos) {
                t += o.timeNs;
                n += o.count;
            }
        const double share = 100.0 * double(t) / double(r.instructionTimeNs);
        if (share <= kTransposePercent)
            continue;
        Finding f = make(share, kTransposePercent);
        f.title = "Transposes take " + insighttext::pct(share) + " of the Tensor engine's instruction time";
        f.detail = engineName(r) + ": " + std::to_string(n) + " transpose instructions, " + insighttext::ns(t) + " of " +
                   insighttext::ns(r.instructionTimeNs) + " (engine table opcodes)";
        f.action = "Choose a memory layout that needs no transposes (load data already in the layout the matmul wants)";
        f.recoverableNs = t;
        f.severity = Finding::severityForShare(t, e.denominatorNs);
        const Trace &trace = ctx.trace();
        DeviceEvidence::attach(f, trace, e, r.tracks, [&](const Slice &s) { return text::lower(trace.str(s.name)).find("transpose") != std::string::npos; });
        out.push_back(std::move(f));
    }
}

} // namespace lanescope
