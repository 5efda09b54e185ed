// NeuronCoreLanes: one group per (instance, NeuronCore), an executions lane with one slice per device
// execution (named by NEFF network name and launching op, args program / ntff / neff / alignment), and
// executions that overlap in time on one core put on a second set of lanes with a counted warning.
// The whole path through real NTFFs and the profile-folder loader is in tst_profilefolderloader.
#include "analysis/deviceexecutions.h"
#include "io/ntff/neuroncorelanes.h"
#include "model/trace.h"

#include <QTest>

using namespace lanescope;

namespace {

NeuronCoreLanes::Execution exec(int instance, int64_t core, int64_t start, int64_t end, std::string program, std::string op = {})
{
    NeuronCoreLanes::Execution e;
    e.instance = instance;
    e.instanceLabel = instance ? " \xC2\xB7 i-1 (pid 2)" : "";
    e.core = core;
    e.start = start;
    e.end = end;
    e.program = program;
    e.networkName = program + ".neff";
    e.launchedBy = std::move(op);
    e.ntff = program + ".ntff";
    e.neff = program + ".neff";
    e.alignment = "approximate: test";
    return e;
}

std::string argString(const Trace &t, SliceId s, std::string_view key)
{
    for (const Arg &a : t.args().args(t.slice(s).args))
        if (t.str(a.key) == key)
            return a.type == ArgType::String ? std::string(t.str(a.stringValue())) : std::to_string(a.value.i);
    return {};
}

} // namespace

class TestNeuronCoreLanes : public QObject
{
    Q_OBJECT

private slots:
    void oneGroupPerCoreAndOverlapsOnASecondSet()
    {
        TraceBuilder b;
        const std::vector<NeuronCoreLanes::Execution> list = {
            exec(0, 0, 150, 250, "neff_2", "aten::mul"), // given out of time order: placed by start
            exec(0, 0, 0, 100, "neff_1", "aten::pow"),
            exec(0, 0, 200, 300, "neff_3"),              // overlaps neff_2 on core 0
            exec(0, 1, 0, 50, "neff_4"),                 // another core
            exec(1, 0, 0, 10, "neff_5"),                 // another instance
            exec(0, 0, 310, 400, "neff_6"),              // after both: back on the core's own lanes
        };
        const auto placed = NeuronCoreLanes::place(b, list, 1000);
        QCOMPARE(placed.size(), list.size());
        QCOMPARE(placed[0].parent, placed[1].parent);
        QCOMPARE(placed[5].parent, placed[1].parent);
        QCOMPARE(placed[0].set, 0);
        QCOMPARE(placed[2].set, 1);
        QVERIFY(placed[2].parent != placed[0].parent);
        QVERIFY(placed[3].parent != placed[0].parent);
        QVERIFY(placed[4].parent != placed[0].parent);
        const Trace t = b.finish();

        QCOMPARE(t.str(t.group(placed[0].parent).name), std::string_view("NeuronCore 0"));
        QCOMPARE(t.group(placed[0].parent).kind, GroupKind::NeuronCore);
        QCOMPARE(t.group(placed[0].parent).sortIndex, int64_t(1000));
        QCOMPARE(t.str(t.group(placed[3].parent).name), std::string_view("NeuronCore 1"));
        QCOMPARE(t.group(placed[3].parent).externalId, int64_t(1));
        QCOMPARE(t.str(t.group(placed[4].parent).name), std::string_view("NeuronCore 0 \xC2\xB7 i-1 (pid 2)"));
        const TrackGroup &second = t.group(placed[2].parent);
        QCOMPARE(t.str(second.name), std::string_view("overlapping executions (set 2)"));
        QCOMPARE(second.parent, placed[0].parent);

        // one overlap on core 0: counted once, named, never merged
        QCOMPARE(t.diagnostics().warnings().size(), size_t(1));
        const Warning &w = t.diagnostics().warnings().front();
        QVERIFY2(w.message.starts_with("device executions overlap in time on NeuronCore 0"), w.message.c_str());
        QCOMPARE(w.count, uint64_t(1));
        QCOMPARE(w.firstSeen, std::string("neff_3.ntff"));

        // the executions lanes, read back the way LaunchIndex and EngineBreakdown read them
        const DeviceExecutions all = DeviceExecutions::build(t);
        QCOMPARE(all.all().size(), size_t(6));
        QCOMPARE(all.all()[0].name, std::string("neff_1.neff \xC2\xB7 aten::pow"));
        QCOMPARE(all.all()[0].number, uint32_t(1));
        std::map<std::string, const DeviceExecution *> byProgram;
        for (const DeviceExecution &e : all.all())
            byProgram[std::string(t.str(e.program))] = &e;
        const DeviceExecution &n2 = *byProgram.at("neff_2"), &n3 = *byProgram.at("neff_3");
        QCOMPARE(n2.start, int64_t(150));
        QCOMPARE(n2.end, int64_t(250));
        QCOMPARE(n2.core, placed[0].parent);
        QCOMPARE(n3.core, placed[0].parent); // the second set still belongs to core 0
        QCOMPARE(n3.laneSet, placed[2].parent);
        QCOMPARE(byProgram.at("neff_4")->name, std::string("neff_4.neff (neff_4)")); // no launching op known
        QCOMPARE(argString(t, n2.slice, "launched_by"), std::string("aten::mul"));
        QCOMPARE(argString(t, n2.slice, "ntff"), std::string("neff_2.ntff"));
        QCOMPARE(argString(t, n2.slice, "neff"), std::string("neff_2.neff"));
        QCOMPARE(argString(t, n2.slice, "execution"), std::string("2")); // second on its core
        QCOMPARE(argString(t, n3.slice, "lane_set"), std::string("2"));
        QCOMPARE(argString(t, byProgram.at("neff_6")->slice, "execution"), std::string("4"));

        // which execution holds a time, per lane set
        QCOMPARE(all.find(placed[0].parent, 160), int(&n2 - all.all().data()));
        QCOMPARE(all.find(placed[2].parent, 260), int(&n3 - all.all().data()));
        QCOMPARE(all.find(placed[0].parent, 280), -1); // between neff_2 and neff_6 on the core's own set
        QCOMPARE(all.find(placed[0].parent, -5), -1);
        QCOMPARE(all.label(t, 0), std::string("1: neff_1.neff \xC2\xB7 aten::pow (NeuronCore 0)"));
    }

    void noExecutionsNoLanes()
    {
        TraceBuilder b;
        QVERIFY(NeuronCoreLanes::place(b, {}, 0).empty());
        const Trace t = b.finish();
        QCOMPARE(t.groups().size(), size_t(0));
        QVERIFY(DeviceExecutions::build(t).empty());
    }
};

QTEST_GUILESS_MAIN(TestNeuronCoreLanes)
#include "tst_neuroncorelanes.moc"
