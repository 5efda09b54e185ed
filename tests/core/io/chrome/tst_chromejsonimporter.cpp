// ChromeJsonImporter on hand-written documents: every phase of formats.md section 2 and the error paths.
#include "io/chrome/chromejsonimporter.h"
#include "io/chrome/chrometraceassembler.h"
#include "io/input/inputbuffer.h"
#include "model/argint.h"

#include <QtTest>

#include <limits>
#include <optional>

using namespace lanescope;

namespace {

Trace importText(const std::string &json)
{
    LoadOptions opt;
    InputBuffer in = InputBuffer::fromBytes(json, "test.json", opt);
    return ChromeJsonImporter::import(in, "test.json", opt);
}

QString importError(const std::string &json)
{
    try {
        importText(json);
    } catch (const ImportError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

const Track *findTrack(const Trace &t, std::string_view name)
{
    for (const Track &tr : t.tracks())
        if (t.str(tr.name) == name)
            return &tr;
    return nullptr;
}

std::string sliceName(const Trace &t, SliceId id) { return std::string(t.str(t.slice(id).name)); }

} // namespace

class TestChromeJsonImporter : public QObject
{
    Q_OBJECT
private slots:
    void objectAndArrayForms()
    {
        const Trace a = importText(R"({"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1}]})");
        const Trace b = importText(R"([{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1}])");
        QCOMPARE(a.allSlices().size(), size_t(1));
        QCOMPARE(b.allSlices().size(), size_t(1));
        QCOMPARE(a.allSlices()[0].start, int64_t(1000));
        QCOMPARE(a.allSlices()[0].duration, int64_t(2000));
    }

    void unterminatedArray_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("no bracket") << QStringLiteral(R"([{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1})");
        QTest::newRow("trailing comma") << QStringLiteral("[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":1},\n");
        QTest::newRow("trailing whitespace") << QStringLiteral("[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":1}, \n\n  ");
    }
    void unterminatedArray()
    {
        QFETCH(QString, json);
        const Trace t = importText(json.toStdString());
        QCOMPARE(t.allSlices().size(), size_t(1));
        // the format makes the closing ']' optional: a note, not a warning (docs/diagnostics.md)
        QCOMPARE(t.diagnostics().count("array of events is not terminated (accepted: the format makes the closing ']' optional)"), uint64_t(1));
        QVERIFY(!t.diagnostics().hasWarnings());
    }

    void timestampsDigitExact_data()
    {
        QTest::addColumn<QString>("ts");
        QTest::addColumn<qint64>("ns");
        QTest::newRow("epoch fraction") << QStringLiteral("1699999999123456.789") << qint64(1699999999123456789LL);
        QTest::newRow("string") << QStringLiteral("\"1699999999123456.789\"") << qint64(1699999999123456789LL);
        QTest::newRow("integer") << QStringLiteral("42") << qint64(42000);
        QTest::newRow("negative") << QStringLiteral("-1.5") << qint64(-1500);
        QTest::newRow("extra digits truncated") << QStringLiteral("1.2345678") << qint64(1234);
        QTest::newRow("exponent") << QStringLiteral("1.5e3") << qint64(1500000);
    }
    void timestampsDigitExact()
    {
        QFETCH(QString, ts);
        QFETCH(qint64, ns);
        const Trace t = importText(R"([{"ph":"i","name":"a","ts":)" + ts.toStdString() + R"(,"pid":1,"tid":1,"s":"t"}])");
        QCOMPARE(t.allInstants().size(), size_t(1));
        QCOMPARE(qint64(t.allInstants()[0].ts), ns);
    }

    void escapedStrings()
    {
        // names and string args with escapes are unescaped; plain ones are taken in place
        const Trace t = importText("[{\"ph\":\"X\",\"name\":\"a\\\"b\\\\c\\u00e9\",\"cat\":\"k\\/x\",\"ts\":1,\"dur\":1,"
                                   "\"pid\":1,\"tid\":1,\"args\":{\"s\":\"tab\\there\",\"p\":\"plain\"}}]");
        QCOMPARE(t.str(t.allSlices()[0].name), std::string_view("a\"b\\c\xc3\xa9"));
        QCOMPARE(t.str(t.allSlices()[0].category), std::string_view("k/x"));
        const auto args = t.args().args(t.allSlices()[0].args);
        QCOMPARE(t.str(args[0].stringValue()), std::string_view("tab\there"));
        QCOMPARE(t.str(args[1].stringValue()), std::string_view("plain"));
    }

    void stringAndNegativeIds()
    {
        const Trace t = importText(R"([
            {"ph":"X","name":"a","ts":1,"dur":1,"pid":"CPU functions","tid":-5},
            {"ph":"X","name":"b","ts":3,"dur":1,"pid":"CPU functions","tid":"-5"},
            {"ph":"X","name":"c","ts":5,"dur":1,"pid":"","tid":""},
            {"ph":"M","name":"thread_name","pid":"CPU functions","tid":-5,"args":{"name":"main"}}])");
        QCOMPARE(t.allSlices().size(), size_t(3));
        const Track *main = findTrack(t, "main");
        QVERIFY(main);
        QCOMPARE(main->sliceCount, 2u); // -5 and "-5" are the same thread
        QCOMPARE(t.str(t.group(main->group).name), std::string_view("CPU functions"));
    }

    void beginEndMatching()
    {
        const Trace t = importText(R"([
            {"ph":"B","name":"outer","ts":0,"pid":1,"tid":1},
            {"ph":"B","name":"inner","ts":1,"pid":1,"tid":1,"args":{"a":1}},
            {"ph":"E","ts":2,"pid":1,"tid":1,"args":{"b":2}},
            {"ph":"E","ts":5,"pid":1,"tid":1},
            {"ph":"E","ts":6,"pid":1,"tid":1},
            {"ph":"B","name":"open","ts":7,"pid":1,"tid":1},
            {"ph":"X","name":"last","ts":8,"dur":2,"pid":1,"tid":2}])");
        QCOMPARE(t.diagnostics().count("E events without a matching B (ignored)"), uint64_t(1));
        QCOMPARE(t.diagnostics().count("B events without an E (shown running to the end of the trace)"), uint64_t(1));
        const auto s = t.allSlices();
        // track 1 sorted: outer(0..5), inner(1..2), open(7..10)
        QCOMPARE(t.str(s[0].name), std::string_view("outer"));
        QCOMPARE(s[0].duration, int64_t(5000));
        QCOMPARE(s[0].depth, uint16_t(0));
        QCOMPARE(t.str(s[1].name), std::string_view("inner"));
        QCOMPARE(s[1].depth, uint16_t(1));
        QCOMPARE(t.args().args(s[1].args).size(), size_t(2)); // B and E args merged
        QCOMPARE(t.str(s[2].name), std::string_view("open"));
        QVERIFY(s[2].has(SliceFlag::Unfinished));
        QCOMPARE(s[2].end(), t.endNs());
        QCOMPARE(t.parent(SliceId(1)), SliceId(0));
    }

    void outOfOrderBeginEnd()
    {
        // catapult sorts by time before matching: E written before its B still closes it
        const Trace t = importText(R"([
            {"ph":"E","ts":4,"pid":1,"tid":1},
            {"ph":"B","name":"a","ts":1,"pid":1,"tid":1}])");
        QCOMPARE(t.allSlices().size(), size_t(1));
        QCOMPARE(t.allSlices()[0].duration, int64_t(3000));
        QVERIFY(t.diagnostics().empty());
    }

    void mismatchedEndName()
    {
        const Trace t = importText(R"([
            {"ph":"B","name":"a","ts":1,"pid":1,"tid":1},
            {"ph":"E","name":"b","ts":2,"pid":1,"tid":1}])");
        QCOMPARE(t.diagnostics().count("E events whose name differs from the open B (closed the innermost B anyway)"), uint64_t(1));
        QCOMPARE(t.allSlices()[0].duration, int64_t(1000));
    }

    void instantsByScope()
    {
        const Trace t = importText(R"([
            {"ph":"i","name":"t","ts":1,"pid":1,"tid":1},
            {"ph":"I","name":"p","ts":1,"pid":1,"tid":1,"s":"p"},
            {"ph":"i","name":"g","ts":1,"pid":1,"tid":1,"s":"g"}])");
        QCOMPARE(t.allInstants().size(), size_t(3));
        QVERIFY(findTrack(t, "Process instants"));
        QVERIFY(findTrack(t, "Global instants"));
    }

    void counters()
    {
        const Trace t = importText(R"([
            {"ph":"C","name":"mem","ts":1,"pid":1,"args":{"used":10,"free":5.5}},
            {"ph":"C","name":"mem","ts":2,"pid":1,"args":{"used":12,"free":3}},
            {"ph":"C","name":"q","ts":2,"pid":1,"args":{"value":7}}])");
        const Track *used = findTrack(t, "mem used");
        const Track *freeT = findTrack(t, "mem free");
        const Track *q = findTrack(t, "q");
        QVERIFY(used && freeT && q);
        QCOMPARE(used->kind, TrackKind::Counter);
        QCOMPARE(used->counterCount, 2u);
        const auto samples = t.counterSamples(TrackId(uint32_t(freeT - t.tracks().data())));
        QCOMPARE(samples[0].value, 5.5);
        QCOMPARE(samples[1].ts, int64_t(2000));
    }

    void asyncNestable()
    {
        const Trace t = importText(R"([
            {"ph":"b","name":"req","cat":"c","id":"0x10","ts":1,"pid":1,"tid":1},
            {"ph":"b","name":"sub","cat":"c","id":"0x10","ts":2,"pid":1,"tid":1},
            {"ph":"n","name":"mark","cat":"c","id":"0x10","ts":3,"pid":1,"tid":1},
            {"ph":"e","name":"sub","cat":"c","id":"0x10","ts":4,"pid":1,"tid":1},
            {"ph":"e","name":"req","cat":"c","id":"0x10","ts":6,"pid":1,"tid":1},
            {"ph":"b","name":"req","cat":"c","id":"0x11","ts":2,"pid":1,"tid":2},
            {"ph":"e","name":"req","cat":"c","id":"0x11","ts":3,"pid":1,"tid":2}])");
        const Track *req = findTrack(t, "req");
        QVERIFY(req);
        QCOMPARE(req->kind, TrackKind::Async);
        QCOMPARE(req->sliceCount, 3u); // both ids share the "req" lane, packed by depth
        QCOMPARE(req->instantCount, 1u);
        QVERIFY(t.diagnostics().empty());
    }

    void flowV1Binding()
    {
        // s binds to the enclosing slice; f with bp:e to the enclosing slice (start inclusive);
        // f without bp to the next slice that starts.
        const Trace t = importText(R"([
            {"ph":"X","name":"launch","ts":10,"dur":5,"pid":1,"tid":1},
            {"ph":"X","name":"kernel","ts":20,"dur":5,"pid":2,"tid":7},
            {"ph":"X","name":"later","ts":40,"dur":5,"pid":2,"tid":7},
            {"ph":"s","cat":"ac2g","name":"ac2g","id":1,"ts":11,"pid":1,"tid":1},
            {"ph":"f","cat":"ac2g","name":"ac2g","id":1,"ts":20,"bp":"e","pid":2,"tid":7},
            {"ph":"s","cat":"x","name":"n","id":2,"ts":12,"pid":1,"tid":1},
            {"ph":"t","cat":"x","name":"n","id":2,"ts":21,"pid":2,"tid":7},
            {"ph":"f","cat":"x","name":"n","id":2,"ts":30,"pid":2,"tid":7},
            {"ph":"f","cat":"x","name":"n","id":99,"ts":30,"pid":2,"tid":7}])");
        QCOMPARE(t.flows().size(), size_t(3));
        QCOMPARE(sliceName(t, t.flows()[0].from), std::string("launch"));
        QCOMPARE(sliceName(t, t.flows()[0].to), std::string("kernel"));
        QCOMPARE(sliceName(t, t.flows()[1].to), std::string("kernel")); // step t at 21
        QCOMPARE(sliceName(t, t.flows()[2].from), std::string("kernel"));
        QCOMPARE(sliceName(t, t.flows()[2].to), std::string("later")); // next slice after 30
        QCOMPARE(t.diagnostics().count("flow ends without a start"), uint64_t(1));
        QCOMPARE(t.flowsFrom(t.flows()[0].from).size(), size_t(2));
    }

    // rocprof (v1, tblextr.py / sqlitedb.py before 2024) writes ts, dur, pid and tid as strings of
    // digits, opens its array with an empty {} and links a runtime call to its device work with s / t
    // pairs (cat "DataFlow", name "dep"); the shape below is sqlitedb.py's open_json / label_json /
    // dump_json / flow_json output. Perfetto reads such numbers; so does Lanescope, with notes only.
    void rocprofNumericStrings()
    {
        const Trace t = importText(R"({ "traceEvents":[{}
,{"args":{"name":"0 CPU HIP API"},"ph":"M","pid":2,"name":"process_name","sort_index":0}
,{"args":{"name":"1 GPU0"},"ph":"M","pid":6,"name":"process_name","sort_index":1}
,{"args":{"name":"2 COPY"},"ph":"M","pid":1,"name":"process_name","sort_index":2}
,{"ph":"X","name":"hipLaunchKernel","pid":"2","tid":"4242","ts":"100","dur":"8",
  "args":{
    "BeginNs":"1000100000",
    "EndNs":"1000108000"
  }
}
,{"ph":"X","name":"vectoradd_float","pid":"6","tid":"0","ts":"110","dur":"30",
  "args":{
    "gpu-id":"0",
    "grd":"1048576"
  }
}
,{"ph":"X","name":"CopyHostToDevice","pid":"1","tid":"0","ts":"50.5","dur":"20",
  "args":{
    "BeginNs":"1000050500"
  }
}
,{"ph":"C","name":"mem","pid":"1","ts":"60","args":{"used":"1024","free":"1e3"}}
,{"ts":100,"ph":"s","cat":"DataFlow","id":"7","pid":2,"tid":4242,"name":"dep"}
,{"ts":110,"ph":"t","cat":"DataFlow","id":"7","pid":6,"tid":0,"name":"dep"}
],
"otherData": {
    "AMDGPU": "gfx90a"
  }
}
)");
        QCOMPARE(t.allSlices().size(), size_t(3));
        const Track *gpu = nullptr;
        for (const Track &tr : t.tracks())
            if (t.str(t.group(tr.group).name) == "1 GPU0")
                gpu = &tr;
        QVERIFY(gpu);
        QCOMPARE(gpu->sliceCount, 1u);
        const Slice *kernel = nullptr;
        for (const Slice &sl : t.allSlices())
            if (t.str(sl.name) == "vectoradd_float")
                kernel = &sl;
        QVERIFY(kernel);
        QCOMPARE(kernel->start, int64_t(110000)); // "110" us
        QCOMPARE(kernel->duration, int64_t(30000));
        for (const Slice &sl : t.allSlices())
            if (t.str(sl.name) == "CopyHostToDevice")
                QCOMPARE(sl.start, int64_t(50500)); // "50.5" us
        // the counter's string values are read as numbers
        const Track *used = findTrack(t, "mem used");
        const Track *freeT = findTrack(t, "mem free");
        QVERIFY(used && freeT);
        QCOMPARE(t.counterSamples(TrackId(uint32_t(used - t.tracks().data())))[0].value, 1024.0);
        QCOMPARE(t.counterSamples(TrackId(uint32_t(freeT - t.tracks().data())))[0].value, 1000.0);
        // the s / t flow is drawn from the launch to the kernel
        QCOMPARE(t.flows().size(), size_t(1));
        QCOMPARE(sliceName(t, t.flows()[0].from), std::string("hipLaunchKernel"));
        QCOMPARE(sliceName(t, t.flows()[0].to), std::string("vectoradd_float"));
        QCOMPARE(t.diagnostics().total(DiagnosticSeverity::Warning), uint64_t(0));
        // 4 events with numbers in strings (3 X, the C), 2 flow events with a string id
        QCOMPARE(t.diagnostics().count(ChromeTraceAssembler::kNumericStrings), uint64_t(6));
        QCOMPARE(t.diagnostics().count(ChromeTraceAssembler::kEmptyEvents), uint64_t(1));
        QCOMPARE(t.diagnostics().count(ChromeTraceAssembler::kCounterStrings), uint64_t(2));
        QCOMPARE(t.diagnostics().count(ChromeTraceAssembler::kFlowsEndAtStep), uint64_t(1));
        // an event that has fields but no ts is still lost data: a warning
        const Trace lost = importText(R"([{"ph":"X","name":"a","dur":1,"pid":1,"tid":1}])");
        QCOMPARE(lost.diagnostics().count("events without ts skipped"), uint64_t(1));
        QCOMPARE(lost.diagnostics().total(DiagnosticSeverity::Warning), uint64_t(1));
        // and another producer's flow that stops at a step lost its end
        const Trace cut = importText(R"([{"ph":"X","name":"a","ts":1,"dur":5,"pid":1,"tid":1},
            {"ph":"X","name":"b","ts":10,"dur":5,"pid":1,"tid":2},
            {"ph":"s","cat":"x","name":"n","id":1,"ts":2,"pid":1,"tid":1},
            {"ph":"t","cat":"x","name":"n","id":1,"ts":11,"pid":1,"tid":2}])");
        QCOMPARE(cut.diagnostics().count("flow starts without an end"), uint64_t(1));
    }

    void flowV2BindId()
    {
        const Trace t = importText(R"([
            {"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1,"bind_id":"0x1","flow_out":true},
            {"ph":"X","name":"b","ts":3,"dur":1,"pid":1,"tid":2,"bind_id":"0x1","flow_in":true,"flow_out":true},
            {"ph":"B","name":"c","ts":5,"pid":1,"tid":3,"bind_id":"0x1","flow_in":true},
            {"ph":"E","ts":6,"pid":1,"tid":3}])");
        QCOMPARE(t.flows().size(), size_t(2));
        QCOMPARE(sliceName(t, t.flows()[0].from), std::string("a"));
        QCOMPARE(sliceName(t, t.flows()[0].to), std::string("b"));
        QCOMPARE(sliceName(t, t.flows()[1].to), std::string("c"));
    }

    void metadataAndStats()
    {
        const Trace t = importText(R"({"displayTimeUnit":"ns","deviceProperties":[{"id":0}],
            "distributedInfo":{"rank":3},"baseTimeNanoseconds":1700000000000000000,
            "traceEvents":[
            {"ph":"M","name":"process_name","pid":7,"args":{"name":"GPU 0"}},
            {"ph":"M","name":"process_sort_index","pid":7,"args":{"sort_index":-3}},
            {"ph":"M","name":"thread_sort_index","pid":7,"tid":1,"args":{"sort_index":5}},
            {"ph":"X","cat":"kernel","name":"k","ts":1,"dur":1,"pid":7,"tid":1,"args":{"big":18446744073709551615,"neg":-1,"f":1.5,"s":"x","b":true,"n":null,"o":{"k":[1,2]}}},
            {"cat":"cpu_op","name":"no phase"},
            {"ph":"O","name":"snap","id":1,"ts":1,"pid":7}]})");
        QCOMPARE(t.stats().eventsRead, uint64_t(6));
        QCOMPARE(t.stats().phases.at("M"), uint64_t(3));
        QCOMPARE(t.stats().phases.at(""), uint64_t(1));
        QCOMPARE(t.stats().categories.at("kernel"), uint64_t(1));
        QCOMPARE(t.stats().categories.at("cpu_op"), uint64_t(1));
        QVERIFY(t.metadata().find("displayTimeUnit"));
        QCOMPARE(*t.metadata().find("displayTimeUnit"), std::string("ns"));
        QCOMPARE(*t.metadata().find("distributedInfo"), std::string(R"({"rank":3})"));
        QCOMPARE(*t.metadata().find("baseTimeNanoseconds"), std::string("1700000000000000000"));
        QVERIFY(t.metadata().find("deviceProperties"));
        QCOMPARE(t.str(t.groups()[0].name), std::string_view("GPU 0"));
        QCOMPARE(t.groups()[0].sortIndex, int64_t(-3));
        QCOMPARE(t.tracks()[0].sortIndex, int64_t(5));
        const auto args = t.args().args(t.allSlices()[0].args);
        QCOMPARE(args.size(), size_t(7));
        QCOMPARE(args[0].type, ArgType::UInt);
        QCOMPARE(args[0].value.u, uint64_t(18446744073709551615ull));
        QCOMPARE(args[1].type, ArgType::Int);
        QCOMPARE(args[2].type, ArgType::Double);
        QCOMPARE(args[3].type, ArgType::String);
        QCOMPARE(args[4].type, ArgType::Bool);
        QCOMPARE(args[5].type, ArgType::Null);
        QCOMPARE(args[6].type, ArgType::Json);
        QCOMPARE(t.str(args[6].stringValue()), std::string_view(R"({"k":[1,2]})"));
        QCOMPARE(t.diagnostics().count("object snapshot events (N/O/D) skipped"), uint64_t(1));
    }

    // A sort index no int64 holds (3.96e35, -1e300) is no sort index: ignored, never converted
    // (undefined behaviour; fuzz_jsonwindows, tests/data/fuzz-regressions/fuzz_jsonwindows/). A
    // fractional one in range is truncated, as before.
    void sortIndexOutOfRangeIgnored()
    {
        const Trace t = importText(R"([
            {"ph":"M","name":"process_sort_index","pid":7,"args":{"sort_index":-1e300}},
            {"ph":"M","name":"thread_sort_index","pid":7,"tid":1,"args":{"sort_index":396181e30}},
            {"ph":"M","name":"thread_sort_index","pid":7,"tid":2,"args":{"sort_index":2.75}},
            {"ph":"X","name":"a","ts":1,"dur":1,"pid":7,"tid":1},
            {"ph":"X","name":"b","ts":1,"dur":1,"pid":7,"tid":2}])");
        const Trace plain = importText(R"([{"ph":"X","name":"a","ts":1,"dur":1,"pid":7,"tid":1}])");
        QCOMPARE(t.groups()[0].sortIndex, plain.groups()[0].sortIndex);
        const auto sortOf = [](const Trace &trace, std::string_view slice) {
            for (uint32_t i = 0; i < trace.tracks().size(); ++i)
                for (const Slice &s : trace.slices(TrackId(i)))
                    if (trace.str(s.name) == slice)
                        return trace.tracks()[i].sortIndex;
            return int64_t(-999);
        };
        QCOMPARE(sortOf(t, "a"), sortOf(plain, "a")); // tid 1: its own default
        QCOMPARE(sortOf(t, "b"), int64_t(2));
    }

    // argInt, what every reader of integer args goes through.
    void argIntValue()
    {
        const StringId k;
        QCOMPARE(argInt(Arg::makeInt(k, -5)), std::optional<int64_t>(-5));
        QCOMPARE(argInt(Arg::makeUInt(k, UINT64_MAX)), std::optional<int64_t>(INT64_MAX));
        QCOMPARE(argInt(Arg::makeDouble(k, -2.9)), std::optional<int64_t>(-2));
        QCOMPARE(argInt(Arg::makeDouble(k, -0x1p63)), std::optional<int64_t>(INT64_MIN));
        QCOMPARE(argInt(Arg::makeDouble(k, 0x1p62)), std::optional<int64_t>(int64_t(1) << 62));
        for (double d : {0x1p63, -0x1p64, 1e300, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()})
            QVERIFY2(!argInt(Arg::makeDouble(k, d)), qPrintable(QString::number(d)));
        QVERIFY(!argInt(Arg::makeBool(k, true)));
        QVERIFY(!argInt(Arg::makeNull(k)));
    }

    void deepNestingInArgs()
    {
        // 100,000 levels inside an event: either a clear error or a load, never a crash or stack overflow
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        const std::string doc = R"([{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1,"args":{"deep":)" + deep + "}}]";
        QString err;
        size_t slices = 0;
        try {
            slices = importText(doc).allSlices().size();
        } catch (const ImportError &e) {
            err = QString::fromStdString(e.what());
        }
        QVERIFY2(slices == 1 || err.contains(QStringLiteral("test.json: at byte")), qPrintable(err));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QString() << QStringLiteral("file is empty");
        QTest::newRow("whitespace") << QStringLiteral("  \n ") << QStringLiteral("file is empty");
        QTest::newRow("not json") << QStringLiteral("hello") << QStringLiteral("at byte 0: expected '{' or '['");
        QTest::newRow("not a trace") << QStringLiteral(R"({"nodes":[1,2]})") << QStringLiteral("no \"traceEvents\" array");
        QTest::newRow("array of arrays") << QStringLiteral("[[1,2],[3]]") << QStringLiteral("not a Chrome/Kineto trace");
        QTest::newRow("unescaped quote") << QStringLiteral(R"({"traceEvents":[{"ph":"X","name":"a"b"c","ts":1}]})") << QStringLiteral("at byte 3");
        // cut before the event array (a cut inside it loads what is complete: tst_kinetodiagnostics)
        QTest::newRow("truncated object") << QStringLiteral("{\"displayTimeUnit\":\"ms\",\"traceEv") << QStringLiteral("truncated");
        QTest::newRow("deep nesting") << QString(QStringLiteral("[") + QString(2000, QLatin1Char('[')) + QString(2000, QLatin1Char(']')) + QStringLiteral("]")) << QStringLiteral("not a Chrome/Kineto trace");
    }
    void errors()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const QString err = importError(json.toStdString());
        QVERIFY2(err.startsWith(QStringLiteral("test.json: ")), qPrintable(err));
        QVERIFY2(err.contains(expected), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestChromeJsonImporter)
#include "tst_chromejsonimporter.moc"
