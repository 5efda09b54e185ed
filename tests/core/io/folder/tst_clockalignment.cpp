// ClockAlignment: the pure rule that places device timelines on the host clock, on hand-made events
// (no files): sync points kept and linked, identity (hash / uuid as a whole token, lowest tier, time
// order, any framework trace when none shares the folder), order (unclaimed events of the process
// folder, the device's pid first), none (with the reason); hostExecutions on a small trace.
#include "io/folder/clockalignment.h"
#include "model/tracebuilder.h"

#include <QTest>

#include <cctype>

using namespace lanescope;

namespace {

using Host = ClockAlignment::HostTrace;
using Exec = ClockAlignment::HostExecution;
using Device = ClockAlignment::Device;

Exec exec(int host, uint32_t slice, int64_t start, std::string name, std::string args = {}, int tier = 0, int64_t pid = -1)
{
    std::string text = name + (args.empty() ? "" : " " + args);
    for (char &c : text)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return Exec{host, slice, start, tier, pid, std::move(name), std::move(text)};
}

Device device(std::vector<std::string> tokens, std::string key, int group = 0, int64_t pid = -1)
{
    return Device{std::move(tokens), std::move(key), group, pid, false, 0, {}};
}

bool startsWith(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

} // namespace

class TestClockAlignment : public QObject
{
    Q_OBJECT

private slots:
    void identityTakesMatchingEventsInTimeOrder()
    {
        const std::vector<Host> hosts = {{7, 0}};
        // Events out of time order; the hash appears as a whole token in two, inside a word in one.
        const std::vector<Exec> events = {exec(7, 3, 5000, "nrt_execute", "neff_abc12"), exec(7, 1, 1000, "nrt_execute", "neff_abc12"),
                                          exec(7, 2, 3000, "nrt_execute", "xabc12y")};
        const auto p = ClockAlignment::align(hosts, events, {device({"abc12"}, "abc12#0@0"), device({"abc12"}, "abc12#0@0")});
        QCOMPARE(p.size(), size_t(2));
        QCOMPARE(p[0].rule, AlignmentRule::Identity);
        QCOMPARE(p[0].offset, int64_t(1000));
        QCOMPARE(p[0].host, 7);
        QCOMPARE(p[0].hostSlice, uint32_t(1));
        QCOMPARE(p[1].offset, int64_t(5000));
        QVERIFY2(startsWith(p[0].note, "approximate: placed at nrt_execute ts=1000 (the NEFF hash abc12 appears in the event; "
                                       "execution 1 of 2 carrying it)"),
                 p[0].note.c_str());
        QVERIFY(p[0].aligned());
    }

    void identityPrefersRuntimeExecuteOverDriver()
    {
        const std::string uuid = "0123456789abcdef0123456789abcdef";
        const std::vector<Exec> events = {exec(0, 0, 100, "driver_call", uuid, 2), exec(0, 1, 900, "nrt_execute", uuid, 0)};
        const auto p = ClockAlignment::align({{0, 0}}, events, {device({uuid}, "u#0@0")});
        QCOMPARE(p[0].offset, int64_t(900));
        QVERIFY2(p[0].note.find("the uuid " + uuid) != std::string::npos, p[0].note.c_str());
    }

    void identityLooksInEveryFrameworkTraceWhenNoneSharesTheFolder()
    {
        const auto p = ClockAlignment::align({{4, 1}}, {exec(4, 0, 42, "nrt_execute", "h9")}, {device({"h9"}, "h9#0@0", 0)});
        QCOMPARE(p[0].rule, AlignmentRule::Identity);
        QCOMPARE(p[0].offset, int64_t(42));
    }

    void moreDevicesThanMatchingEvents()
    {
        const auto p = ClockAlignment::align({{0, 0}}, {exec(0, 0, 10, "nrt_execute", "h1")},
                                             {device({"h1"}, "k"), device({"h1"}, "k")});
        QCOMPARE(p[0].rule, AlignmentRule::Identity);
        QCOMPARE(p[1].rule, AlignmentRule::None);
        QCOMPARE(p[1].offset, int64_t(0));
        QCOMPARE(p[1].note, std::string("none: own clock, 0 = start of this device trace (2 device traces but only 1 host "
                                        "execution events carry NEFF hash h1)"));
    }

    void orderTakesUnclaimedEventsOfTheFolder()
    {
        // The identity match claims the event at 300; the two others go by order to 100 and 500.
        const std::vector<Exec> events = {exec(0, 0, 500, "nrt_execute"), exec(0, 1, 300, "nrt_execute", "h1"),
                                          exec(0, 2, 100, "nrt_execute"), exec(0, 3, 50, "nrt_load", {}, 1)};
        const auto p = ClockAlignment::align({{0, 0}}, events, {device({}, "a"), device({"h1"}, "h1"), device({"zz"}, "zz")});
        QCOMPARE(p[1].rule, AlignmentRule::Identity);
        QCOMPARE(p[1].offset, int64_t(300));
        QCOMPARE(p[0].rule, AlignmentRule::Order);
        QCOMPARE(p[0].offset, int64_t(100));
        QCOMPARE(p[2].rule, AlignmentRule::Order);
        QCOMPARE(p[2].offset, int64_t(500));
        QVERIFY2(startsWith(p[0].note, "approximate: placed at nrt_execute ts=100 (by order: device trace 1 of 2, execution "
                                       "event 1 of 2 without a hash or uuid match)"),
                 p[0].note.c_str());
    }

    void orderKeepsToTheDevicesPid()
    {
        const std::vector<Exec> events = {exec(0, 0, 100, "nrt_execute", {}, 0, 11), exec(0, 1, 200, "nrt_execute", {}, 0, 22)};
        const auto p = ClockAlignment::align({{0, 0}}, events, {device({}, "a", 0, 22)});
        QCOMPARE(p[0].offset, int64_t(200));
    }

    void orderFallsBackToDriverEvents()
    {
        const auto p = ClockAlignment::align({{0, 0}}, {exec(0, 0, 70, "nrt_load", {}, 1), exec(0, 1, 80, "ioctl", {}, 2)},
                                             {device({}, "a")});
        QCOMPARE(p[0].rule, AlignmentRule::Order);
        QCOMPARE(p[0].offset, int64_t(80));
    }

    void noneWithoutFrameworkTraceOrEvents()
    {
        // (a framework trace in another process folder: without any, device profiles are laid out in sequence)
        auto p = ClockAlignment::align({{0, 1}}, {}, {device({"h"}, "h")});
        QCOMPARE(p[0].rule, AlignmentRule::None);
        QCOMPARE(p[0].host, -1);
        QCOMPARE(p[0].note,
                 std::string("none: own clock, 0 = start of this device trace (no framework trace in its process folder)"));
        p = ClockAlignment::align({{0, 0}}, {}, {device({}, "a")});
        QCOMPARE(p[0].note, std::string("none: own clock, 0 = start of this device trace (the framework trace has no "
                                        "privateuse1 execution events)"));
        p = ClockAlignment::align({{0, 0}}, {exec(0, 0, 1, "nrt_execute")}, {device({}, "a"), device({}, "b")});
        QCOMPARE(p[1].note, std::string("none: own clock, 0 = start of this device trace (more device traces (2) than "
                                        "unmatched execution events (1))"));
    }

    void deviceProfilesOnlyAreLaidOutInSequence()
    {
        std::vector<Device> d = {device({"a"}, "a"), device({}, "b"), device({"c"}, "c", 1)};
        d[0].last = 100'000; // 100 us, the longest: gap 10 us
        d[1].first = 5'000;  // its first event 5 us after its own 0: placed at 110 us all the same
        d[1].last = 45'000;
        d[2].first = d[2].last = 0;
        const auto p = ClockAlignment::align({}, {}, d);
        QCOMPARE(p.size(), size_t(3));
        for (const auto &x : p) {
            QCOMPARE(x.rule, AlignmentRule::Sequence);
            QVERIFY(!x.aligned()); // not a host-clock placement: no "(aligned approx.)", no host link
            QCOMPARE(x.host, -1);
        }
        QCOMPARE(p[0].offset, int64_t(0));
        QCOMPARE(p[1].offset, int64_t(110'000 - 5'000));
        QCOMPARE(p[2].offset, int64_t(160'000));
        QCOMPARE(p[1].note, std::string("sequence: no framework or system trace; device trace 2 of 3 in folder order, starting at "
                                        "+110000 ns, a gap of 10000 ns after the previous one"));
        QCOMPARE(std::string(ClockAlignment::ruleName(AlignmentRule::Sequence)), std::string("sequence"));
        // short timelines: the gap is at least 1 us
        std::vector<Device> tiny = {device({}, "x"), device({}, "y")};
        tiny[0].last = 500;
        QCOMPARE(ClockAlignment::align({}, {}, tiny)[1].offset, int64_t(500 + ClockAlignment::kSequenceGapMinNs));
        // a device timeline placed by a system trace: no sequence, the others keep their own clock
        tiny[0].synced = true;
        tiny[0].syncOffset = 7;
        const auto q = ClockAlignment::align({}, {}, tiny);
        QCOMPARE(q[0].rule, AlignmentRule::SyncPoint);
        QCOMPARE(q[1].rule, AlignmentRule::None);
    }

    void syncPointPlacementIsKeptAndLinked()
    {
        Device d = device({"h1"}, "h1");
        d.synced = true;
        d.syncOffset = 123456;
        d.syncNote = "sync points: placed at nc_exec_running ts=123456 of system_profile.json (by order)";
        const auto p = ClockAlignment::align({{3, 0}}, {exec(3, 9, 100, "nrt_execute", "h1")}, {d});
        QCOMPARE(p[0].rule, AlignmentRule::SyncPoint);
        QCOMPARE(p[0].offset, int64_t(123456));
        QCOMPARE(p[0].note, d.syncNote);
        QCOMPARE(p[0].host, 3); // linked to the framework trace's runtime call
        QCOMPARE(p[0].hostSlice, uint32_t(9));
        // Unmatched, it keeps its note and has no host link.
        const auto q = ClockAlignment::align({}, {}, {d});
        QCOMPARE(q[0].note, d.syncNote);
        QCOMPARE(q[0].host, -1);
    }

    void ruleNames()
    {
        QCOMPARE(std::string(ClockAlignment::ruleName(AlignmentRule::SyncPoint)), std::string("sync-point"));
        QCOMPARE(std::string(ClockAlignment::ruleName(AlignmentRule::Identity)), std::string("identity"));
        QCOMPARE(std::string(ClockAlignment::ruleName(AlignmentRule::Order)), std::string("order"));
        QCOMPARE(std::string(ClockAlignment::ruleName(AlignmentRule::None)), std::string("none"));
    }

    void hostExecutionsOfATrace()
    {
        TraceBuilder b;
        const GroupId proc = b.addGroup(GroupKind::Process, b.intern("process 42"), {}, 42);
        const TrackId track = b.addTrack(proc, TrackKind::Slices, b.intern("thread 1"));
        b.addSlice(track, 100, 10, b.intern("aten::add"), b.intern("cpu_op"));
        b.addSlice(track, 200, 10, b.intern("nrt_execute"), b.intern("privateuse1_runtime"));
        b.addSlice(track, 300, 10, b.intern("nrt_load"), b.intern("privateuse1_runtime"));
        b.addSlice(track, 400, 10, b.intern("ioctl"), b.intern("privateuse1_driver"));
        const Trace t = b.finish();
        const auto events = ClockAlignment::hostExecutions(t, 5);
        QCOMPARE(events.size(), size_t(3));
        QCOMPARE(events[0].name, std::string("nrt_execute"));
        QCOMPARE(events[0].tier, 0);
        QCOMPARE(events[0].host, 5);
        QCOMPARE(events[0].pid, int64_t(42));
        QCOMPARE(events[1].tier, 1);
        QCOMPARE(events[2].tier, 2);
        QCOMPARE(events[2].start, int64_t(400));
    }
};

QTEST_GUILESS_MAIN(TestClockAlignment)
#include "tst_clockalignment.moc"
