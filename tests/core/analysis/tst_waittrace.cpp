// WaitTrace: hand-built NeuronCore traces with known answers, the way the NTFF importer builds them
// (engine lanes of a NeuronCore group, category "instruction", semaphore flows producer -> waiter named
// "S[n] >= v"), and the corpus export: every step goes back in time and the trace ends in a stop the
// header names.
#include "corpus.h"

#include "analysis/dependencygraph.h"
#include "analysis/waittrace.h"
#include "io/traceloader.h"
#include "model/trace.h"
#include "model/tracebuilder.h"

#include <QTest>

using namespace lanescope;

namespace {

struct Built
{
    Trace trace;
    std::map<std::string, SliceId> byName; // each name once
};

// lane, start, duration, name; flows (from name, to name).
Built build(const std::vector<std::tuple<const char *, int64_t, int64_t, const char *>> &instrs,
            const std::vector<std::pair<const char *, const char *>> &flows)
{
    TraceBuilder b;
    const GroupId dev = b.addGroup(GroupKind::Device, b.intern("Neuron device"));
    const GroupId core = b.addGroup(GroupKind::NeuronCore, b.intern("NeuronCore 0"), dev);
    std::map<std::string, TrackId> lanes;
    std::map<std::string, uint32_t> provisional;
    const StringId cat = b.intern("instruction");
    for (const auto &[lane, start, dur, name] : instrs) {
        auto [it, added] = lanes.try_emplace(lane);
        if (added)
            it->second = b.addTrack(core, TrackKind::Async, b.intern(lane));
        // the opcode is the name's first word ("EVENT_SEMAPHORE#1" -> EVENT_SEMAPHORE); names kept apart by the tag
        provisional[name] = b.addSlice(it->second, start, dur, b.intern(name), cat);
    }
    for (const auto &[from, to] : flows)
        b.addFlow(FlowEnd::slice(provisional.at(from)), FlowEnd::slice(provisional.at(to)), b.intern("semaphore"), b.intern("S[3] >= 1"), 3);
    Built out{b.finish(), {}};
    for (uint32_t i = 0; i < out.trace.allSlices().size(); ++i)
        out.byName[std::string(out.trace.str(out.trace.allSlices()[i].name))] = SliceId(i);
    return out;
}

} // namespace

class TestWaitTrace : public QObject
{
    Q_OBJECT

private slots:
    // MATMUL follows a semaphore wait on its engine: the trace stops at the wait, its length and the
    // producer that released it.
    void semaphoreWait()
    {
        const Built t = build({{"Scalar", 0, 100, "ACTIVATE"}, {"Tensor", 10, 90, "EVENT_SEMAPHORE"}, {"TensorMatrix", 100, 50, "MATMUL"}},
                              {{"ACTIVATE", "EVENT_SEMAPHORE"}});
        const DependencyGraph g = DependencyGraph::build(t.trace);
        const WaitTraceResult r = WaitTrace::upstream(t.trace, g, t.byName.at("MATMUL"));
        QCOMPARE(r.stop, WaitTraceResult::Stop::SemaphoreWait);
        QCOMPARE(r.steps.size(), size_t(2));
        QCOMPARE(r.steps[1].via, WaitStep::Via::Engine); // TensorMatrix and Tensor are one engine
        QCOMPARE(r.wait, t.byName.at("EVENT_SEMAPHORE"));
        QCOMPARE(r.waitNs, int64_t(90));
        QCOMPARE(r.engine, std::string("Tensor"));
        QCOMPARE(r.releasedBy, t.byName.at("ACTIVATE"));
        QCOMPARE(r.semaphore, std::string("S[3] >= 1"));
    }

    // A producer that ends after the engine's previous instruction is what the instruction waited for:
    // the trace follows it, then ends at the start of the producer's engine.
    void laterProducerThenStart()
    {
        const Built t = build({{"Scalar", 0, 300, "ACTIVATE"}, {"Tensor", 100, 50, "LDWEIGHTS"}, {"Tensor", 310, 10, "MATMUL"}},
                              {{"ACTIVATE", "MATMUL"}});
        const DependencyGraph g = DependencyGraph::build(t.trace);
        const WaitTraceResult r = WaitTrace::upstream(t.trace, g, t.byName.at("MATMUL"));
        QCOMPARE(r.steps.size(), size_t(2));
        QCOMPARE(r.steps[1].slice, t.byName.at("ACTIVATE"));
        QCOMPARE(r.steps[1].via, WaitStep::Via::Semaphore);
        QCOMPARE(r.stop, WaitTraceResult::Stop::EngineStart);
    }

    // Idle with no producer: an idle gap of 490 ns (>= kMinIdleGapNs); a 50 ns gap is stepped over.
    void idleGap()
    {
        const Built t = build({{"Vector", 0, 10, "TENSOR_COPY"}, {"Vector", 60, 10, "TENSOR_ADD"}, {"Vector", 560, 20, "TENSOR_MUL"}}, {});
        const DependencyGraph g = DependencyGraph::build(t.trace);
        const WaitTraceResult r = WaitTrace::upstream(t.trace, g, t.byName.at("TENSOR_MUL"));
        QCOMPARE(r.stop, WaitTraceResult::Stop::IdleGap);
        QCOMPARE(r.wait, t.byName.at("TENSOR_MUL"));
        QCOMPARE(r.waitNs, int64_t(490));
        const WaitTraceResult r2 = WaitTrace::upstream(t.trace, g, t.byName.at("TENSOR_ADD"));
        QCOMPARE(r2.stop, WaitTraceResult::Stop::EngineStart); // 50 ns is issue latency, not a wait
        QCOMPARE(r2.steps.size(), size_t(2));
    }

    // On the corpus export: from every Tensor-engine MATMUL, each step starts no later than the one it
    // came from, and each trace ends in a wait or at the engine's start.
    void corpus()
    {
        const QString rel = QStringLiteral("neuron-profile-json/profile_128x128x1024.json");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const LoadResult loaded = TraceLoader::load(test::corpusFile(rel).toStdString());
        QVERIFY2(loaded.ok(), loaded.error.c_str());
        const Trace &t = *loaded.trace;
        const DependencyGraph g = DependencyGraph::build(t);
        int traced = 0, waits = 0;
        for (uint32_t i = 0; i < t.allSlices().size(); ++i) {
            if (t.str(t.allSlices()[i].name) != "MATMUL")
                continue;
            const WaitTraceResult r = WaitTrace::upstream(t, g, SliceId(i));
            ++traced;
            QVERIFY(r.stop != WaitTraceResult::Stop::NotAnInstruction && r.stop != WaitTraceResult::Stop::MaxSteps);
            for (size_t k = 1; k < r.steps.size(); ++k)
                QVERIFY(t.slice(r.steps[k].slice).start <= t.slice(r.steps[k - 1].slice).start);
            if (r.stop == WaitTraceResult::Stop::SemaphoreWait) {
                ++waits;
                QCOMPARE(t.str(t.slice(r.wait).name), std::string_view("EVENT_SEMAPHORE"));
                QCOMPARE(r.waitNs, t.slice(r.wait).duration);
            }
        }
        QCOMPARE(traced, 3);
        QVERIFY(waits >= 1);
    }
};

QTEST_GUILESS_MAIN(TestWaitTrace)
#include "tst_waittrace.moc"
