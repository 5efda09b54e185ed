// SystemProfileImporter over hand-written system_profile.json cases that follow the fields documented in
// formats.md section 1 exactly (no real export is public): lanes instance > process > framework /
// neuron_rt / hardware, parent_id nesting and links, tensor args, counters, the sync-point clock rule,
// and the edge cases (string / int ids, missing or dangling parent_id, repeated ids, unknown type,
// no sync point, empty trace_events, truncated file).
#include "compress.h"
#include "io/input/inputbuffer.h"
#include "io/systemprofile/systemprofileimporter.h"
#include "io/systemprofile/systemprofilereader.h"
#include "io/traceloader.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <map>

using namespace lanescope;

namespace {

std::string dataFile(const char *name) { return std::string(LANESCOPE_TEST_DATA) + "/system_profile/" + name; }

Trace importFile(const char *name)
{
    InputBuffer in = InputBuffer::read(dataFile(name), {});
    return SystemProfileImporter::import(in, dataFile(name), {});
}

// slice name -> (start, duration, depth, track path)
struct Seen
{
    int64_t start = 0, duration = 0;
    int depth = 0;
    std::string track;
    ArgSetId args;
};
std::map<std::string, Seen> byName(const Trace &t)
{
    std::map<std::string, Seen> out;
    for (uint32_t ti = 0; ti < t.tracks().size(); ++ti)
        for (const Slice &s : t.slices(TrackId(ti)))
            out[std::string(t.str(s.name))] = {s.start, s.duration, s.depth, t.trackPath(TrackId(ti)), s.args};
    return out;
}

const Arg *argOf(const Trace &t, ArgSetId id, std::string_view key)
{
    for (const Arg &a : t.args().args(id))
        if (t.str(a.key) == key)
            return &a;
    return nullptr;
}

std::map<std::string, int> flowCount(const Trace &t)
{
    std::map<std::string, int> out;
    for (const Flow &f : t.flows())
        ++out[std::string(t.str(f.category)) + "/" + std::string(t.str(f.name)) + ": " + std::string(t.str(t.slice(f.from).name)) +
              " -> " + std::string(t.str(t.slice(f.to).name))];
    return out;
}

} // namespace

class TestSystemProfileImporter : public QObject
{
    Q_OBJECT

private slots:
    void sniffedAndLoadedByContent()
    {
        const LoadResult r = TraceLoader::load(dataFile("basic.json"));
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->metadata().format, std::string("system-profile-json"));
        QCOMPARE(TraceLoader::sniffPath(dataFile("basic.json")), FileFormat::SystemProfileJson);
        QCOMPARE(TraceLoader::sniff("{\"traceEvents\": [], \"trace_events\": []}", 40), FileFormat::ChromeJson);
    }

    void lanesArgsAndCounters()
    {
        const Trace t = importFile("basic.json");
        QCOMPARE(t.diagnostics().total(), uint64_t(0));
        const auto seen = byName(t);
        QCOMPARE(seen.size(), size_t(7));
        QCOMPARE(seen.at("PjitFunction(step)").track, std::string("instance i-0abc / process 4242 / framework 77"));
        QCOMPARE(seen.at("nrt_execute").track, std::string("instance i-0abc / process 4242 / neuron_rt · NC 0"));
        QCOMPARE(seen.at("nrt_tensor_read").track, std::string("instance i-0abc / process 4242 / neuron_rt · NC 1"));
        QCOMPARE(seen.at("nc_exec_running").track, std::string("instance i-0abc / process 4242 / hardware · NC 0"));
        // kbl_exec_pre names nrt_execute (same lane) as its parent and lies inside it: nested
        QCOMPARE(seen.at("nrt_execute").depth, 0);
        QCOMPARE(seen.at("kbl_exec_pre").depth, 1);
        // tensor call: size, id and name in the args
        const ArgSetId w = seen.at("nrt_tensor_write").args;
        QVERIFY(argOf(t, w, "size") && argOf(t, w, "tensor_id") && argOf(t, w, "tensor_name"));
        QCOMPARE(argOf(t, w, "size")->value.i, int64_t(4096));
        QCOMPARE(argOf(t, w, "tensor_id")->value.i, int64_t(12));
        QCOMPARE(t.str(argOf(t, w, "tensor_name")->stringValue()), std::string_view("input0"));
        QCOMPARE(argOf(t, w, "parent_id")->value.i, int64_t(1));
        // hardware moved to the host clock: 1700000000000000000 + (503700 - 500000)
        QCOMPARE(seen.at("nc_exec_running").start, int64_t(1700000000000003700));
        QCOMPARE(seen.at("timestamp_sync_point").start, int64_t(1700000000000000000));
        QVERIFY(t.metadata().find("clock.hardware · NC 0"));
        QVERIFY(t.metadata().find("clock.hardware · NC 0")->starts_with("host clock: 2 events moved with 1 timestamp_sync_point"));
        // unknown top-level keys are kept
        QVERIFY(t.metadata().find("profiler_version"));
        QCOMPARE(*t.metadata().find("profiler_version"), std::string("2.99 (hand-written test case)"));
        // links: parent_id across lanes, nrt_execute -> nc_exec_running by time; none for the read (its
        // thread's framework slice ends before it) and none for kbl_exec_pre (same-lane parent)
        const auto flows = flowCount(t);
        QCOMPARE(flows.size(), size_t(3));
        QCOMPARE(flows.at("nrt/parent_id: PjitFunction(step) -> nrt_tensor_write"), 1);
        QCOMPARE(flows.at("nrt/parent_id: PjitFunction(step) -> nrt_execute"), 1);
        QCOMPARE(flows.at("exec/hardware execution: nrt_execute -> nc_exec_running"), 1);
        // counters
        std::map<std::string, std::vector<double>> counters;
        for (uint32_t ti = 0; ti < t.tracks().size(); ++ti)
            if (t.tracks()[ti].kind == TrackKind::Counter)
                for (const CounterSample &c : t.counterSamples(TrackId(ti)))
                    counters[std::string(t.str(t.tracks()[ti].name))].push_back(c.value);
        QCOMPARE(counters.size(), size_t(4));
        QCOMPARE(counters.at("mem_usage (bytes)"), (std::vector<double>{1048576, 2097152}));
        QCOMPARE(counters.at("mem_usage (%)"), (std::vector<double>{12.5, 25.0}));
        QCOMPARE(counters.at("cpu_util · CPU 0"), (std::vector<double>{40.0}));
        QCOMPARE(counters.at("cpu_util · CPU 3"), (std::vector<double>{90.5}));
        QCOMPARE(t.stats().eventsRead, uint64_t(7 + 2 + 2));
        QCOMPARE(t.stats().categories.at("neuron_rt"), uint64_t(4));
        QCOMPARE(t.stats().categories.at("neuron_hw"), uint64_t(2));
        QCOMPARE(t.stats().categories.at("framework"), uint64_t(1));
    }

    void edgeCases()
    {
        const Trace t = importFile("edge_ids.json");
        const auto seen = byName(t);
        QCOMPARE(seen.size(), size_t(11)); // the event without a timestamp is skipped
        QCOMPARE(t.diagnostics().count("trace_events without an integer timestamp skipped"), uint64_t(1));
        // "10" and 10 are one id; a string id names its parent too
        QCOMPARE(seen.at("by_string_parent").depth, 1);
        // without a parent_id, or with one naming nothing, an event still nests by time on its lane
        QCOMPARE(seen.at("no_parent_field").depth, 1);
        QCOMPARE(seen.at("dangling_parent").depth, 1);
        QCOMPARE(seen.at("repeat_a").depth, 1);
        QCOMPARE(t.diagnostics().count("parent_id that names no event (kept at the top of its lane)"), uint64_t(1));
        QCOMPARE(t.diagnostics().count("ids that repeat (parent_id names the first event with the id)"), uint64_t(1));
        QCOMPARE(t.diagnostics().count("parent_id names an event on the same lane that does not contain it in time (nested by time)"),
                 uint64_t(2)); // named_parent ("abc") and outside_parent
        // unknown type: its own lane, counted
        QCOMPARE(seen.at("mystery").track, std::string("instance i-1 / process 9 / type 42 · NC 2"));
        QCOMPARE(seen.at("mystery2").track, seen.at("mystery").track);
        QCOMPARE(t.diagnostics().count("events of an undocumented type (kept on their own lane 'type 42')"), uint64_t(2));
        // hardware without sync points: device clock, warned, said in the metadata
        QCOMPARE(seen.at("nc_exec_running").start, int64_t(5000));
        QCOMPARE(t.diagnostics().count("hardware events without a timestamp_sync_point for their NeuronCore (kept on the device clock)"),
                 uint64_t(1));
        QVERIFY(t.metadata().find("clock.hardware · NC 2")->starts_with("device clock: "));
        QCOMPARE(t.flows().size(), size_t(0));
    }

    void syncPointArithmetic_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("host");
        // sync points (device -> host): 100 -> 1000000, 10100 -> 1010500 (the clocks drift by 500 ns)
        QTest::newRow("before every sync point: the first") << "nc_exec_running@50" << qint64(1000000 + 50 - 100);
        QTest::newRow("between: the last one before") << "nc_exec_running@5100" << qint64(1000000 + 5100 - 100);
        QTest::newRow("after the last") << "cc_running" << qint64(1010500 + 20100 - 10100);
        QTest::newRow("sync point at its host time") << "timestamp_sync_point@100" << qint64(1000000);
        QTest::newRow("host events untouched") << "nrt_execute" << qint64(1000000);
    }
    void syncPointArithmetic()
    {
        QFETCH(QString, name);
        QFETCH(qint64, host);
        const Trace t = importFile("sync_two.json");
        std::vector<int64_t> starts;
        const std::string n = name.section(QLatin1Char('@'), 0, 0).toStdString();
        for (const Slice &s : t.allSlices())
            if (t.str(s.name) == n)
                starts.push_back(s.start);
        std::sort(starts.begin(), starts.end());
        QVERIFY(!starts.empty());
        const int64_t want = host;
        QVERIFY2(std::find(starts.begin(), starts.end(), want) != starts.end(), name.toUtf8().constData());
    }

    void linksByTimeWithoutParentIds()
    {
        const Trace t = importFile("sync_two.json");
        const auto flows = flowCount(t);
        // nc_exec_running at host 1005000 lies inside nrt_execute [1000000, 1020000]; the one at 999950 does not
        QCOMPARE(flows.at("exec/hardware execution: nrt_execute -> nc_exec_running"), 1);
        QCOMPARE(flows.at("nrt/runtime call: jit_step -> nrt_execute"), 1);
        QCOMPARE(flows.size(), size_t(2));
    }

    void emptyTraceEvents()
    {
        const Trace t = importFile("empty.json");
        QCOMPARE(t.allSlices().size(), size_t(0));
        QCOMPARE(t.diagnostics().count("trace_events is empty: the system profile holds no events"), uint64_t(1));
    }

    // A system_profile.json cut inside "trace_events" (a crashed export; written as neuron-profile writes
    // it, one event per line): the events before the cut load, one warning names the byte where the text
    // ends, plain and compressed alike.
    void cutFileLoadsCompleteEvents_data()
    {
        QTest::addColumn<QString>("compression");
        for (const char *c : {"plain", "gzip", "zstd"})
            QTest::newRow(c) << QString::fromLatin1(c);
    }
    void cutFileLoadsCompleteEvents()
    {
        QFETCH(QString, compression);
        QFile f(QString::fromStdString(dataFile("truncated.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        const std::string raw = text.toStdString();
        const std::string bytes = compression == QLatin1String("gzip")   ? test::gzipOf(raw)
                                  : compression == QLatin1String("zstd") ? test::zstdOf(raw)
                                                                          : raw;
        InputBuffer in = InputBuffer::fromBytes(bytes, "cut.json", {});
        const Trace t = SystemProfileImporter::import(in, "cut.json", {});
        // what a whole file of the complete events holds: the text up to the last event line's "}," closed
        const std::string repaired = raw.substr(0, raw.rfind("},\n") + 1) + "\n  ]\n}\n";
        InputBuffer whole = InputBuffer::fromBytes(repaired, "whole.json", {});
        const Trace w0 = SystemProfileImporter::import(whole, "whole.json", {});
        QVERIFY(!w0.diagnostics().hasWarnings());
        QVERIFY(w0.allSlices().size() >= 2);
        QCOMPARE(t.allSlices().size(), w0.allSlices().size());
        QCOMPARE(t.diagnostics().total(DiagnosticSeverity::Warning), uint64_t(1));
        const Warning &w = *std::find_if(t.diagnostics().warnings().begin(), t.diagnostics().warnings().end(),
                                         [](const Warning &x) { return !x.isNote(); });
        QVERIFY2(w.message.starts_with("the file ends inside the \"trace_events\" array (truncated"), w.message.c_str());
        QVERIFY2(w.firstSeen.starts_with("byte " + std::to_string(raw.size())), w.firstSeen.c_str());
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expect");
        QTest::newRow("cut before the events") << QByteArray("{\"trace_events\"") << "truncated file";
        QTest::newRow("no trace_events") << QByteArray("{\"other\": 1}") << "no \"trace_events\" array";
        QTest::newRow("trace_events not an array") << QByteArray("{\"trace_events\": 3}") << "expected \"trace_events\" to be an array";
        QTest::newRow("not JSON") << QByteArray("hello") << "expected '{'";
        QTest::newRow("empty") << QByteArray("") << "file is empty";
    }
    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expect);
        InputBuffer in = InputBuffer::fromBytes(std::string_view(bytes.constData(), size_t(bytes.size())), "x.json", {});
        try {
            SystemProfileImporter::import(in, "x.json", {});
            QFAIL("no error");
        } catch (const ImportError &e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(expect), e.what());
            QVERIFY2(std::string(e.what()).starts_with("x.json"), e.what());
        }
    }

    void ids_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("equal");
        QTest::newRow("int text and int") << "12" << " 12 " << true;
        QTest::newRow("hex") << "0x10" << "16" << true;
        QTest::newRow("negative") << "-1" << "18446744073709551615" << true;
        QTest::newRow("names") << "abc" << "abc" << true;
        QTest::newRow("different names") << "abc" << "abd" << false;
        QTest::newRow("name vs number") << "abc" << "12" << false;
    }
    void ids()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, equal);
        QCOMPARE(SystemProfileReader::idFromText(a.toStdString()) == SystemProfileReader::idFromText(b.toStdString()), equal);
    }

    void coreOfGroup_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<qint64>("core");
        QTest::newRow("nrt-nc-000") << "nrt-nc-000" << qint64(0);
        QTest::newRow("nrt-nc-017") << "nrt-nc-017" << qint64(17);
        QTest::newRow("framework") << "framework-4242" << qint64(-1);
        QTest::newRow("no digits") << "nrt-nc-" << qint64(-1);
        QTest::newRow("letters") << "nrt-nc-0a" << qint64(-1);
    }
    void coreOfGroup()
    {
        QFETCH(QString, group);
        QFETCH(qint64, core);
        QCOMPARE(SystemProfileImporter::coreOfGroup(group.toStdString()), int64_t(core));
    }
};

QTEST_GUILESS_MAIN(TestSystemProfileImporter)
#include "tst_systemprofileimporter.moc"
