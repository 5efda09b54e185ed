// TraceMerger: whole traces appended into one builder below a parent group, times shifted, strings
// re-interned, args / flows / instants / counters / diagnostics / metadata / stats carried over.
#include "model/tracemerger.h"

#include <QTest>

#include <atomic>

using namespace lanescope;

namespace {

// process "python" / thread "main": outer [100, 200) with inner [120, 150) and a flow outer -> other
// thread's slice; an instant with a string arg; a counter track; a warning; metadata; stats.
Trace makeHost(const char *tag)
{
    TraceBuilder b;
    const GroupId proc = b.addGroup(GroupKind::Process, b.intern(std::string("python ") + tag), {}, 4242);
    b.group(proc).sortIndex = 7;
    const TrackId main = b.addTrack(proc, TrackKind::Slices, b.intern("main"), 1);
    const TrackId other = b.addTrack(proc, TrackKind::Slices, b.intern("worker"), 2);
    const TrackId mem = b.addTrack(proc, TrackKind::Counter, b.intern("memory"), 0);
    b.track(mem).unit = b.intern("MB");
    const StringId kNeff = b.intern("neff"), kN = b.intern("n");
    const std::array<Arg, 2> args = {Arg::makeString(kNeff, b.intern("neff_123")), Arg::makeInt(kN, 5)};
    const uint32_t outer = b.addSlice(main, 100, 100, b.intern("outer"), b.intern("cpu_op"), b.addArgs(args));
    b.addSlice(main, 120, 30, b.intern("inner"), b.intern("cpu_op"));
    const uint32_t target = b.addSlice(other, 300, 10, b.intern("kernel"), b.intern("kernel"));
    b.addFlow(FlowEnd::slice(outer), FlowEnd::slice(target), b.intern("ac2g"), b.intern("launch"), 77);
    const std::array<Arg, 1> iargs = {Arg::makeString(b.intern("what"), b.intern("marker text"))};
    b.addInstant(main, 130, b.intern("mark"), b.intern("instant"), b.addArgs(iargs), InstantScope::Process);
    b.addCounterSample(mem, 100, 1.5);
    b.addCounterSample(mem, 250, 2.5);
    b.diagnostics().warn("a problem", "byte 12", 3);
    b.metadata().entries.emplace_back("schemaVersion", "1");
    b.stats().eventsRead = 10;
    b.stats().bytesRead = 1000;
    b.stats().categories["cpu_op"] = 2;
    return b.finish();
}

// "device / core" with two lanes, like NtffImporter builds it.
Trace makeDevice()
{
    TraceBuilder b;
    const GroupId dev = b.addGroup(GroupKind::Device, b.intern("Neuron device"), {}, 0);
    const GroupId core = b.addGroup(GroupKind::NeuronCore, b.intern("NeuronCore 0 (sg00)"), dev, 0);
    const GroupId sems = b.addGroup(GroupKind::Counters, b.intern("semaphores"), core, 0);
    const TrackId pe = b.addTrack(core, TrackKind::Slices, b.intern("Tensor"), 0);
    const TrackId s8 = b.addTrack(sems, TrackKind::Counter, b.intern("semaphore 8"), 8);
    b.addSlice(pe, 0, 50, b.intern("MATMUL"), b.intern("instruction"));
    b.addSlice(pe, 60, 50, b.intern("MATMUL"), b.intern("instruction"));
    b.addCounterSample(s8, 10, 1);
    b.metadata().synthetic = true;
    return b.finish();
}

TrackId findTrack(const Trace &t, const std::string &path)
{
    for (uint32_t i = 0; i < t.tracks().size(); ++i)
        if (t.trackPath(TrackId(i)) == path)
            return TrackId(i);
    return {};
}

} // namespace

class TestTraceMerger : public QObject
{
    Q_OBJECT

private slots:
    void copiesEverythingShifted()
    {
        const Trace host = makeHost("a");
        TraceBuilder b;
        const GroupId top = b.addGroup(GroupKind::Process, b.intern("trace.json (framework)"));
        TraceMerger m(b);
        MergeOptions o;
        o.parent = top;
        o.timeOffsetNs = 1000;
        o.diagnosticsPrefix = "trace.json: ";
        o.metadataPrefix = "trace.json: ";
        const MergeResult r = m.append(host, o);
        QVERIFY(!r.cancelled);
        QCOMPARE(r.sliceCount, 3u);
        QCOMPARE(r.tracks.size(), size_t(3));
        const Trace t = b.finish();

        const TrackId main = findTrack(t, "trace.json (framework) / python a / main");
        QVERIFY(main.isValid());
        const auto s = t.slices(main);
        QCOMPARE(s.size(), size_t(2));
        QCOMPARE(s[0].start, int64_t(1100));
        QCOMPARE(s[0].duration, int64_t(100));
        QCOMPARE(t.str(s[0].name), std::string_view("outer"));
        QCOMPARE(s[1].depth, uint16_t(1));
        QCOMPARE(t.str(s[1].name), std::string_view("inner"));
        const auto args = t.args().args(s[0].args);
        QCOMPARE(args.size(), size_t(2));
        QCOMPARE(t.str(args[0].key), std::string_view("neff"));
        QCOMPARE(args[0].type, ArgType::String);
        QCOMPARE(t.str(args[0].stringValue()), std::string_view("neff_123"));
        QCOMPARE(args[1].value.i, int64_t(5));

        // group fields, instants, counters, flows
        const TrackGroup &proc = t.group(t.track(main).group);
        QCOMPARE(proc.externalId, int64_t(4242));
        QCOMPARE(proc.sortIndex, int64_t(7));
        QCOMPARE(proc.parent, top);
        const auto inst = t.instants(main);
        QCOMPARE(inst.size(), size_t(1));
        QCOMPARE(inst[0].ts, int64_t(1130));
        QCOMPARE(inst[0].scope, InstantScope::Process);
        QCOMPARE(t.str(t.args().args(inst[0].args)[0].stringValue()), std::string_view("marker text"));
        const TrackId mem = findTrack(t, "trace.json (framework) / python a / memory");
        QVERIFY(mem.isValid());
        QCOMPARE(t.str(t.track(mem).unit), std::string_view("MB"));
        QCOMPARE(t.counterSamples(mem).size(), size_t(2));
        QCOMPARE(t.counterSamples(mem)[1].ts, int64_t(1250));
        QCOMPARE(t.counterSamples(mem)[1].value, 2.5);
        QCOMPARE(t.flows().size(), size_t(1));
        const Flow &f = t.flows()[0];
        QCOMPARE(t.str(t.slice(f.from).name), std::string_view("outer"));
        QCOMPARE(t.str(t.slice(f.to).name), std::string_view("kernel"));
        QCOMPARE(f.externalId, uint64_t(77));
        QCOMPARE(t.str(f.category), std::string_view("ac2g"));

        // diagnostics, metadata, stats
        QCOMPARE(t.diagnostics().count("trace.json: a problem"), uint64_t(3));
        QVERIFY(t.metadata().find("trace.json: schemaVersion"));
        QCOMPARE(t.stats().eventsRead, uint64_t(10));
        QCOMPARE(t.stats().categories.at("cpu_op"), uint64_t(2));
        QVERIFY(!t.metadata().synthetic);
        QCOMPARE(t.startNs(), int64_t(1100));
    }

    void twoSourcesAndSkippedLevels()
    {
        const Trace host = makeHost("a");
        const Trace device = makeDevice();
        TraceBuilder b;
        TraceMerger m(b);
        MergeOptions ho;
        ho.parent = b.addGroup(GroupKind::Process, b.intern("host"));
        const MergeResult hr = m.append(host, ho);
        MergeOptions dopt;
        dopt.parent = b.addGroup(GroupKind::NeuronCore, b.intern("NeuronCore 0 · neff_1"));
        dopt.timeOffsetNs = 5000;
        dopt.skipGroupLevels = 2; // "Neuron device / NeuronCore 0 (sg00)" collapse into the parent
        const MergeResult dr = m.append(device, dopt);
        QCOMPARE(dr.firstSlice, hr.firstSlice + hr.sliceCount);
        QCOMPARE(dr.groups[0], dopt.parent);
        QCOMPARE(dr.groups[1], dopt.parent);
        const Trace t = b.finish();

        QVERIFY(findTrack(t, "NeuronCore 0 · neff_1 / Tensor").isValid());
        QVERIFY(findTrack(t, "NeuronCore 0 · neff_1 / semaphores / semaphore 8").isValid());
        const auto pe = t.slices(findTrack(t, "NeuronCore 0 · neff_1 / Tensor"));
        QCOMPARE(pe.size(), size_t(2));
        QCOMPARE(pe[0].start, int64_t(5000));
        QCOMPARE(pe[1].start, int64_t(5060));
        QVERIFY(t.metadata().synthetic); // any synthetic source makes the merge synthetic
        QCOMPARE(t.allSlices().size(), size_t(5));
        QCOMPARE(t.startNs(), int64_t(100));
        QCOMPARE(t.endNs(), int64_t(5110));
        // strings are one pool: "instruction" interned once
        QCOMPARE(t.strings().find("MATMUL").isValid(), true);
    }

    void sameSourceTwiceSideBySide() // the compare feature's use
    {
        const Trace a = makeHost("a");
        TraceBuilder b;
        TraceMerger m(b);
        MergeOptions o1, o2;
        o1.parent = b.addGroup(GroupKind::Global, b.intern("baseline"));
        o2.parent = b.addGroup(GroupKind::Global, b.intern("candidate"));
        o2.timeOffsetNs = -100;
        m.append(a, o1);
        m.append(a, o2);
        const Trace t = b.finish();
        QCOMPARE(t.flows().size(), size_t(2));
        QCOMPARE(t.str(t.slice(t.flows()[1].to).name), std::string_view("kernel"));
        QCOMPARE(t.slices(findTrack(t, "candidate / python a / main"))[0].start, int64_t(0));
        QCOMPARE(t.stats().eventsRead, uint64_t(20));
        QCOMPARE(t.diagnostics().count("a problem"), uint64_t(6));
    }

    void rebuiltWarningIsNotDoubleCounted()
    {
        TraceBuilder src;
        const TrackId tr = src.addTrack(src.addGroup(GroupKind::Process, src.intern("p")), TrackKind::Slices, src.intern("t"));
        src.addSlice(tr, 0, 10, src.intern("a"), {});
        src.addSlice(tr, 5, 10, src.intern("b"), {}); // overlaps without nesting
        const Trace s = src.finish();
        const std::string overlap(TraceBuilder::kOverlapNote);
        QCOMPARE(s.diagnostics().count(overlap), uint64_t(1));
        TraceBuilder b;
        TraceMerger(b).append(s, {});
        const Trace t = b.finish();
        QCOMPARE(t.diagnostics().count(overlap), uint64_t(1));
        QCOMPARE(t.diagnostics().warnings().size(), size_t(1));
    }

    void cancelStopsEarly()
    {
        const Trace a = makeHost("a");
        std::atomic<bool> cancel{true};
        TraceBuilder b;
        MergeOptions o;
        o.cancel = &cancel;
        const MergeResult r = TraceMerger(b).append(a, o);
        QVERIFY(r.cancelled);
    }

    void emptySource()
    {
        TraceBuilder b;
        const Trace empty = TraceBuilder().finish();
        const MergeResult r = TraceMerger(b).append(empty, {});
        QCOMPARE(r.sliceCount, 0u);
        QVERIFY(b.finish().empty());
    }
};

QTEST_GUILESS_MAIN(TestTraceMerger)
#include "tst_tracemerger.moc"
