// Insights device rules on NTFF traces written by NtffWriter and read by the real NtffImporter:
// a busy core (Tensor-bound, a Vector engine starving on semaphores, spill traffic, small DMAs,
// throttling) where each rule fires with the engine table's numbers, and a balanced core where
// none does.
#include "analysis/enginebreakdown.h"
#include "analysis/insights/insights.h"
#include "findings.h"
#include "io/input/inputbuffer.h"
#include "io/ntff/ntffimporter.h"
#include "io/synthetic/ntffwriter.h"
#include "model/dmaqueuekind.h"
#include "model/trace.h"

#include <QtTest>

#include <cmath>

using namespace lanescope;

namespace {

constexpr int64_t kUs = 1000000; // ps

using lanescope::test::near;
const auto find = lanescope::test::findRule;

Trace import(const NtffWriter &w)
{
    const std::string bytes = w.bytes();
    const InputBuffer input = InputBuffer::fromBytes(bytes, "insights.ntff", {});
    return NtffImporter::import(input, "insights.ntff", {});
}

NtffProfile layout()
{
    NtffProfile l;
    l.subgraphName = "sg00";
    l.instanceType = "inf2.xlarge";
    l.totalTimePs = 100 * kUs;
    l.programs.push_back(NtffWriter::makeProgram(NtffEngine::Tensor, {0x02}));
    l.programs.push_back(NtffWriter::makeProgram(NtffEngine::Vector, {0x21, 0xa0}));
    l.programs.push_back(NtffWriter::makeProgram(NtffEngine::Scalar, {0x21}));
    NtffDmaQueue spill, io;
    spill.engine = 0;
    spill.queue = 0;
    spill.name = spill.displayName = "qSPSpillReload0";
    io.engine = 0;
    io.queue = 1;
    io.name = io.displayName = "qIO0";
    l.dmaQueues = {spill, io};
    return l;
}


// A device finding points at slices of the lanes it names, inside the window, and at sections of it.
void checkEvidence(const Trace &trace, const EngineBreakdownResult &e, const Finding *f, const std::vector<TrackId> &lanes,
                   const char *opcode = nullptr)
{
    QVERIFY(f);
    QVERIFY2(!f->events.empty() && f->events.size() <= Finding::kMaxEvents, f->rule.c_str());
    QVERIFY2(!f->ranges.empty() && f->ranges.size() <= Finding::kMaxEvents, f->rule.c_str());
    int64_t previous = INT64_MAX;
    for (uint32_t id : f->events) {
        const Slice &s = trace.slice(SliceId(id));
        QVERIFY2(std::find(lanes.begin(), lanes.end(), trace.trackOfSlice(SliceId(id))) != lanes.end(), f->rule.c_str());
        QVERIFY(s.end() >= e.startNs && s.start <= e.endNs);
        QVERIFY(s.duration <= previous); // longest first
        previous = s.duration;
        if (opcode)
            QCOMPARE(std::string(trace.str(s.name)), std::string(opcode));
    }
    previous = INT64_MAX;
    for (const auto &[s, en] : f->ranges) {
        QVERIFY(s < en && s >= e.startNs && en <= e.endNs);
        QVERIFY(en - s <= previous);
        previous = en - s;
    }
}

} // namespace

class TestInsightsDevice : public QObject
{
    Q_OBJECT
private slots:
    void busyCoreFires()
    {
        NtffWriter w(layout());
        w.addInstruction(NtffEngine::Tensor, 0, 0, 80 * kUs);            // MATMUL: Tensor 80 % active
        w.addInstruction(NtffEngine::Vector, 0, 0, 15 * kUs);            // ACTIVATE 15 %
        w.addInstruction(NtffEngine::Vector, 1, 15 * kUs, 60 * kUs);     // EVENT_SEMAPHORE 45 %
        for (int i = 0; i < 200; ++i)                                     // 512-byte packets, half on spill / reload
            w.addDmaPacket(0, uint32_t(i % 2), int64_t(i) * kUs / 4, int64_t(i) * kUs / 4 + kUs / 8, 512, 0);
        w.addThrottle(0, 1, 2);                                           // half speed for 50 us
        w.addThrottle(50 * kUs, 0, 0, 99);
        const Trace trace = import(w);
        const EngineBreakdownResult e = EngineBreakdown::compute(trace);
        QVERIFY(!e.empty());
        const auto r = Insights::run(trace, {});
        for (const Finding &f : r.findings)
            qInfo("%s: %s | %s", f.rule.c_str(), f.title.c_str(), f.detail.c_str());

        const EngineBreakdownRow *tensor = nullptr, *vector = nullptr;
        for (const auto &row : e.engines) {
            if (row.engine == NeuronEngine::Tensor && row.instructionCount)
                tensor = &row;
            if (row.engine == NeuronEngine::Vector)
                vector = &row;
        }
        QVERIFY(tensor && vector);
        const Finding *b = find(r.findings, "engine-bottleneck");
        QVERIFY(b);
        QCOMPARE(b->value, tensor->activePercent);
        QVERIFY(std::abs(b->value - 80.0) < 1.0);

        const Finding *s = find(r.findings, "semaphore-wait");
        QVERIFY(s);
        QVERIFY(near(s->value, 100.0 * double(vector->semaphoreWaitTimeNs) / double(e.denominatorNs)));
        QVERIFY(std::abs(s->value - 45.0) < 1.0);

        const Finding *sp = find(r.findings, "spill-reload");
        QVERIFY(sp);
        QCOMPARE(sp->value, 50.0);
        const Finding *small = find(r.findings, "small-dma");
        QVERIFY(small);
        QCOMPARE(small->value, 512.0);
        QCOMPARE(r.metrics.averageDmaBytes, 512.0);
        QCOMPARE(r.metrics.dma.size(), size_t(2)); // io and spill_reload

        const Finding *t = find(r.findings, "throttling");
        QVERIFY(t);
        QVERIFY(std::abs(t->value - 50.0) < 1.0);

        // Each points at its engine's / queues' slices: the MATMUL, the semaphore waits, the
        // spill queue's packets, all 200 small packets (the 50 longest), the throttled 50 us.
        std::vector<TrackId> spillLane, dmaLanes, coreLanes = tensor->tracks;
        for (const auto &q : e.dma) {
            dmaLanes.push_back(q.track);
            if (dmaQueueKind(q.queue) == DmaQueueKind::SpillReload)
                spillLane.push_back(q.track);
        }
        for (const auto &row : e.engines)
            coreLanes.insert(coreLanes.end(), row.tracks.begin(), row.tracks.end());
        checkEvidence(trace, e, b, tensor->tracks);
        QCOMPARE(b->events.size(), size_t(1));
        QCOMPARE(b->ranges.front(), std::make_pair(e.startNs, e.startNs + 80000)); // the 80 us MATMUL
        checkEvidence(trace, e, s, vector->tracks, "EVENT_SEMAPHORE");
        QCOMPARE(s->ranges.front(), std::make_pair(e.startNs + 15000, e.startNs + 60000));
        checkEvidence(trace, e, sp, spillLane);
        QCOMPARE(sp->events.size(), Finding::kMaxEvents);
        QVERIFY(!spillLane.empty());
        checkEvidence(trace, e, small, dmaLanes);
        QCOMPARE(small->events.size(), Finding::kMaxEvents);
        checkEvidence(trace, e, t, coreLanes);
        QCOMPARE(t->ranges.size(), size_t(1));
        QCOMPARE(t->ranges.front(), std::make_pair(e.startNs, e.startNs + 50000));
    }

    // DMA busy 90 % of the window, the only engine 10 %: DMA-bound, pointing at the core's packets.
    void dmaBoundFires()
    {
        NtffWriter w(layout());
        w.addInstruction(NtffEngine::Tensor, 0, 0, 10 * kUs);
        for (int i = 0; i < 90; ++i)
            w.addDmaPacket(0, 1, int64_t(i) * kUs, int64_t(i + 1) * kUs, 65536, 0);
        const Trace trace = import(w);
        const EngineBreakdownResult e = EngineBreakdown::compute(trace);
        const auto r = Insights::run(trace, {});
        const Finding *f = find(r.findings, "dma-bound");
        QVERIFY(f);
        QCOMPARE(e.cores.size(), size_t(1));
        QVERIFY(near(f->value, 100.0 * double(e.cores[0].dmaActiveTimeNs) / double(e.denominatorNs)));
        QVERIFY(std::abs(f->value - 90.0) < 1.0);
        QCOMPARE(*f->recoverableNs, e.cores[0].dmaActiveTimeNs - 10000);
        std::vector<TrackId> lanes;
        for (const auto &q : e.dma)
            lanes.push_back(q.track);
        checkEvidence(trace, e, f, lanes);
        QCOMPARE(f->events.size(), size_t(50));
        QCOMPARE(f->ranges.size(), size_t(1)); // back-to-back packets: one section
        QCOMPARE(f->ranges.front(), std::make_pair(e.startNs, e.startNs + 90000));
    }

    void balancedCoreQuiet()
    {
        NtffWriter w(layout());
        w.addInstruction(NtffEngine::Tensor, 0, 0, 30 * kUs);
        w.addInstruction(NtffEngine::Vector, 0, 30 * kUs, 55 * kUs);
        w.addInstruction(NtffEngine::Scalar, 0, 55 * kUs, 75 * kUs);
        for (int i = 0; i < 100; ++i)
            w.addDmaPacket(0, 1, int64_t(i) * kUs / 4, int64_t(i) * kUs / 4 + kUs / 8, 65536, 0);
        const Trace trace = import(w);
        const auto r = Insights::run(trace, {});
        for (const char *rule : {"engine-bottleneck", "semaphore-wait", "dma-bound", "small-dma", "spill-reload", "throttling",
                                 "mfu-below-hfu", "tensor-transpose", "fusion-candidate", "device-idle"})
            QVERIFY2(!find(r.findings, rule), rule);
        QCOMPARE(r.metrics.averageDmaBytes, 65536.0);
    }

    void queueKinds()
    {
        QCOMPARE(dmaQueueKind("qSyncSpillReload0-Q1-E0"), DmaQueueKind::SpillReload);
        QCOMPARE(dmaQueueKind("qWeights3"), DmaQueueKind::Weights);
        QCOMPARE(dmaQueueKind("qIO0"), DmaQueueKind::Io);
        QCOMPARE(dmaQueueKind("qScalarIO0-Q0-E4"), DmaQueueKind::Io);
        QCOMPARE(dmaQueueKind("qSyncDMA2"), DmaQueueKind::Other);
        QCOMPARE(dmaQueueKind("qActivation1"), DmaQueueKind::Other);
    }
};

QTEST_GUILESS_MAIN(TestInsightsDevice)
#include "tst_insightsdevice.moc"
