// SystemProfileReader on the shapes AWS's documentation shows for system_profile.json: every element
// wrapped in an object naming its kind ({"Neuron_Runtime_API_Event": {...}}, {"Framework_Event": {...}}),
// numbers written as strings ("size": "4", "tensor_id": "4900392441224765051", "cpu_id": "47"), mem_usage
// samples with a "duration". The same content in the plain form (tests/data/system_profile/aws_shapes_*.json)
// must give an identical Trace: same lanes, slices, args (types and values), counters and flows.
#include "io/input/inputbuffer.h"
#include "io/systemprofile/systemprofilereader.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QTest>

#include <sstream>

using namespace lanescope;

namespace {

std::string dataFile(const char *name) { return std::string(LANESCOPE_TEST_DATA) + "/system_profile/" + name; }

std::string argText(const Trace &t, const Arg &a)
{
    std::ostringstream o;
    o << t.str(a.key) << '=';
    switch (a.type) {
    case ArgType::Int: o << "i" << a.value.i; break;
    case ArgType::UInt: o << "u" << a.value.u; break;
    case ArgType::Double: o << "d" << a.value.d; break;
    case ArgType::Bool: o << "b" << a.value.i; break;
    case ArgType::String: o << "s'" << t.str(a.stringValue()) << "'"; break;
    case ArgType::Json: o << "j" << t.str(a.stringValue()); break;
    case ArgType::Null: o << "null"; break;
    }
    return o.str();
}

// Everything a reader of the trace can see, as text, one line per item.
std::vector<std::string> dump(const Trace &t)
{
    std::vector<std::string> out;
    for (uint32_t ti = 0; ti < t.tracks().size(); ++ti) {
        const std::string path = t.trackPath(TrackId(ti));
        for (const Slice &s : t.slices(TrackId(ti))) {
            std::string line = path + ": " + std::string(t.str(s.name)) + " @" + std::to_string(s.start) + "+" +
                               std::to_string(s.duration) + " d" + std::to_string(s.depth);
            for (const Arg &a : t.args().args(s.args))
                line += " " + argText(t, a);
            out.push_back(line);
        }
        for (const CounterSample &c : t.counterSamples(TrackId(ti)))
            out.push_back(path + ": sample @" + std::to_string(c.ts) + " = " + std::to_string(c.value));
    }
    for (const Flow &f : t.flows())
        out.push_back("flow " + std::string(t.str(f.name)) + " " + std::to_string(f.from.value) + " -> " + std::to_string(f.to.value));
    for (const Warning &w : t.diagnostics().warnings())
        out.push_back("warning " + w.message + " x" + std::to_string(w.count));
    return out;
}

const Arg *findArg(const Trace &t, std::string_view name, std::string_view key)
{
    for (const Slice &s : t.allSlices())
        if (t.str(s.name) == name)
            for (const Arg &a : t.args().args(s.args))
                if (t.str(a.key) == key)
                    return &a;
    return nullptr;
}

} // namespace

class TestSystemProfileReader : public QObject
{
    Q_OBJECT

private slots:
    void wrappedStringNumbersLoadLikeThePlainForm()
    {
        const LoadResult plain = TraceLoader::load(dataFile("aws_shapes_plain.json"));
        const LoadResult aws = TraceLoader::load(dataFile("aws_shapes_wrapped.json"));
        QVERIFY2(plain.ok(), plain.error.c_str());
        QVERIFY2(aws.ok(), aws.error.c_str());
        QCOMPARE(aws.trace->metadata().format, std::string("system-profile-json"));
        const std::vector<std::string> a = dump(*plain.trace), b = dump(*aws.trace);
        for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
            QCOMPARE(b[i], a[i]);
        QCOMPARE(b.size(), a.size());
        QCOMPARE(aws.trace->allSlices().size(), size_t(6));
        QCOMPARE(aws.trace->allCounterSamples().size(), plain.trace->allCounterSamples().size());
        QVERIFY(aws.trace->allCounterSamples().size() >= 4); // mem_usage and cpu_util, the durations ignored
        QCOMPARE(aws.trace->diagnostics().total(), uint64_t(0));
    }

    void numbersWrittenAsStringsKeepTheirExactValue()
    {
        const LoadResult aws = TraceLoader::load(dataFile("aws_shapes_wrapped.json"));
        QVERIFY2(aws.ok(), aws.error.c_str());
        const Trace &t = *aws.trace;
        const Arg *size = findArg(t, "nrt_tensor_write", "size");
        QVERIFY(size);
        QCOMPARE(size->type, ArgType::Int);
        QCOMPARE(size->value.i, int64_t(4));
        const Arg *tensor = findArg(t, "nrt_tensor_write", "tensor_id"); // beyond 2^53: a double would round it
        QVERIFY(tensor);
        QCOMPARE(tensor->type, ArgType::Int);
        QCOMPARE(tensor->value.i, int64_t(4900392441224765051LL));
        const Arg *huge = findArg(t, "nrt_tensor_read", "size"); // past int64: uint64, exact
        QVERIFY(huge);
        QCOMPARE(huge->type, ArgType::UInt);
        QCOMPARE(huge->value.u, uint64_t(18446744073709551000ULL));
        const Arg *name = findArg(t, "nrt_tensor_read", "tensor_name"); // strings stay strings
        QVERIFY(name && name->type == ArgType::String);
        QCOMPARE(t.str(name->stringValue()), std::string_view("out"));
    }

    void wrappedRuntimeCallsNestUnderTheFrameworkEvent()
    {
        const LoadResult aws = TraceLoader::load(dataFile("aws_shapes_wrapped.json"));
        QVERIFY2(aws.ok(), aws.error.c_str());
        const Trace &t = *aws.trace;
        int linked = 0;
        for (const Flow &f : t.flows())
            linked += t.str(t.slice(f.from).name) == "PjitFunction(step)";
        QCOMPARE(linked, 3); // parent_id "1" links the three runtime calls as 1 does in the plain form
        bool cpu47 = false;
        for (const Track &tr : t.tracks())
            cpu47 = cpu47 || t.str(tr.name).find("47") != std::string_view::npos;
        QVERIFY(cpu47);
    }

    void notAWrapperWhenTheFirstFieldIsArgs()
    {
        const std::string text = R"({"trace_events": [{"args": {"timestamp": 5, "duration": "7", "name": "nrt_execute", )"
                                 R"("group": "nrt-nc-000", "type": "11", "size": "12"}, "instance_id": "i-1", "process_id": "9"}]})";
        InputBuffer in = InputBuffer::fromBytes(text, "args.json", {});
        TraceBuilder b;
        const SystemProfileData d = SystemProfileReader::read(in, "args.json", b, {});
        QCOMPARE(d.events.size(), size_t(1));
        QCOMPARE(d.events[0].duration, int64_t(7));
        QCOMPARE(d.events[0].type, int64_t(11));
        QCOMPARE(d.events[0].pid, int64_t(9));
    }
};

QTEST_GUILESS_MAIN(TestSystemProfileReader)
#include "tst_systemprofilereader.moc"
