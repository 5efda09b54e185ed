#include "keymetrics.h"

#include "analysis/memoryreport.h"
#include "analysis/stepstatistics.h"
#include "insightcontext.h"
#include "model/dmaqueuekind.h"
#include "model/trace.h"

namespace lanescope {

KeyMetrics KeyMetrics::compute(InsightContext &ctx)
{
    KeyMetrics m;
    m.spanNs = ctx.spanNs();
    for (const DeviceSummary::Row &r : ctx.devices()) {
        m.devices.push_back({r.device, r.total, r.busy, r.idle, r.busyPercent()});
        m.deviceTotalNs += r.total;
        m.deviceBusyNs += r.busy;
        m.deviceIdleNs += r.idle;
    }
    const EngineBreakdownResult &e = ctx.engines();
    for (const EngineBreakdownRow &r : e.engines)
        m.engines.push_back({r.coreName, std::string(EngineBreakdown::engineName(r.engine)), r.activeTimeNs, r.activePercent});
    const DmaQueueKind kinds[] = {DmaQueueKind::Io, DmaQueueKind::Weights,
                                            DmaQueueKind::SpillReload, DmaQueueKind::Other};
    for (DmaQueueKind k : kinds) {
        DmaKind d;
        d.kind = dmaQueueKindName(k);
        for (const DmaQueueBreakdownRow &q : e.dma) {
            if (ctx.queueKinds().of(q.queue) != k)
                continue;
            d.bytes += q.bytes;
            d.packets += q.packetCount;
            d.activeNs += q.activeTimeNs;
        }
        if (d.packets == 0)
            continue;
        d.throughputBytesPerSec = d.activeNs > 0 ? double(d.bytes) * 1e9 / double(d.activeNs) : 0;
        m.dmaBytes += d.bytes;
        m.dmaPackets += d.packets;
        m.dma.push_back(d);
    }
    m.averageDmaBytes = m.dmaPackets ? double(m.dmaBytes) / double(m.dmaPackets) : 0;
    for (const CoreBreakdown &c : e.cores)
        if (c.mfuPercent || c.hfuPercent) {
            m.mfuPercent = c.mfuPercent;
            m.hfuPercent = c.hfuPercent;
            break;
        }
    const MemoryReport memory = MemoryReport::compute(ctx.trace());
    m.mbuPercent = memory.mbuPercent;
    for (const char *key : {"hbm_read_bytes", "hbm_write_bytes", "spill_reload_bytes", "spill_save_bytes"})
        if (const MemoryReport::Traffic *t = memory.trafficOf(key); t && t->bytes)
            m.hbmTraffic.push_back({t->key, t->label, *t->bytes});
    m.frameworkCpuNs = ctx.ops().cpuSelfTotal;
    m.deviceNs = ctx.ops().deviceTime;
    std::vector<int64_t> steps;
    for (uint32_t s : ctx.steps())
        steps.push_back(ctx.trace().slice(SliceId(s)).duration);
    m.steps = steps.size();
    m.medianStepNs = StepStatistics::median(steps);
    return m;
}

} // namespace lanescope
