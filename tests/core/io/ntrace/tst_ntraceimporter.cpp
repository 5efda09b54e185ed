// NtraceImporter: a capture session (ntrace.pb with trace_info.pb, cpu_util.pb, host_mem.pb beside it)
// in the lanes of system_profile.json. On the real capture, against counts written here from
// NTRACE_VERIFIED.md (not from the reader): 837 slices (398 dmem_buf_copyin, 395 nrt_dma_mem_alloc, ...),
// 2 sync points, 7,200 cpu_util samples of 12 CPUs, 600 host_mem samples, the two nc_exec_running on
// "hardware · NC 0 · core 4 / 5" lasting 982,590 and 14,763 ns at exactly the host times the sync rule
// gives, the device memory counters' final values, no warnings. Then sessions written by NtraceWriter:
// types resolved through trace_info (a writer numbering them backwards), a type no table names, a missing
// sync point, a missing or damaged trace_info, damaged sample files.
#include "corpus.h"
#include "filebytes.h"
#include "io/input/inputbuffer.h"
#include "io/ntrace/ntraceimporter.h"
#include "io/traceloader.h"
#include "ntracesession.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace lanescope;

namespace {

const QString kCapture = QStringLiteral("neuron-trn2-capture/i-0af76a70a6d3864dd_pid_713479/");

Trace importAt(const QString &dir)
{
    const std::string path = (dir + QStringLiteral("/ntrace.pb")).toStdString();
    InputBuffer in = InputBuffer::read(path, {});
    return NtraceImporter::import(in, path, {});
}

const Arg *argOf(const Trace &t, const Slice &s, std::string_view key)
{
    for (const Arg &a : t.args().args(s.args))
        if (t.str(a.key) == key)
            return &a;
    return nullptr;
}

int64_t intArg(const Trace &t, const Slice &s, std::string_view key)
{
    const Arg *a = argOf(t, s, key);
    return a && a->type == ArgType::Int ? a->value.i : INT64_MIN;
}

std::string trackName(const Trace &t, const Slice &s)
{
    const TrackId id = t.trackOfSlice(SliceId(uint32_t(&s - t.allSlices().data())));
    return std::string(t.str(t.track(id).name));
}

std::map<std::string, size_t> namesOf(const Trace &t)
{
    std::map<std::string, size_t> n;
    for (const Slice &s : t.allSlices())
        ++n[std::string(t.str(s.name))];
    return n;
}

const char *firstWarning(const Trace &t)
{
    return t.diagnostics().warnings().empty() ? "" : t.diagnostics().warnings().front().message.c_str();
}

const Track *counter(const Trace &t, const std::string &name)
{
    for (const Track &tr : t.tracks())
        if (tr.kind == TrackKind::Counter && t.str(tr.name) == name)
            return &tr;
    return nullptr;
}

} // namespace

class TestNtraceImporter : public QObject
{
    Q_OBJECT

private slots:
    void realCapture()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kCapture + QStringLiteral("ntrace.pb"));
        const Trace t = importAt(test::corpusFile(kCapture));
        QCOMPARE(t.metadata().format, std::string("neuron-ntrace"));
        QVERIFY2(!t.diagnostics().hasWarnings(), firstWarning(t));
        // one note: nrt_model_submit and kmgr_exec_core overlap on thread 713744 without nesting
        QCOMPARE(t.diagnostics().total(), uint64_t(1));
        QCOMPARE(t.allSlices().size(), size_t(837));
        QCOMPARE(t.allInstants().size(), size_t(2));
        const std::map<std::string, size_t> n = namesOf(t);
        QCOMPARE(n.at("dmem_buf_copyin"), size_t(398));
        QCOMPARE(n.at("nrt_dma_mem_alloc"), size_t(395));
        QCOMPARE(n.at("nrt_tensor_allocate"), size_t(9));
        QCOMPARE(n.at("nrt_tensor_write"), size_t(8));
        QCOMPARE(n.at("nrt_dma_mem_dealloc"), size_t(5));
        QCOMPARE(n.at("nrt_load"), size_t(4));
        QCOMPARE(n.at("nc_exec_running"), size_t(2));
        QCOMPARE(n.at("nc_model_switch"), size_t(2));
        QCOMPARE(n.at("exec_consume_gpsimd_stdio"), size_t(2));
        QCOMPARE(n.at("notification_consume_errors"), size_t(2));
        QCOMPARE(n.at("nrt_execute"), size_t(1));
        QCOMPARE(n.size(), size_t(19)); // + timestamp_sync_point as instants: 20 types

        // the device slices: one lane per physical core, host = cpu_timestamp_ns + (nc_ts - sync nc_ts)
        constexpr int64_t cpu = 1773237645757022494;
        const std::map<int64_t, int64_t> syncOf{{4, 257063241489802}, {5, 257063241488302}};
        const std::map<int64_t, int64_t> durations{{4, 982'590}, {5, 14'763}};
        int running = 0;
        for (const Slice &s : t.allSlices()) {
            if (t.str(s.name) != "nc_exec_running")
                continue;
            ++running;
            const int64_t core = intArg(t, s, "device_core_idx");
            QVERIFY(syncOf.count(core));
            QCOMPARE(trackName(t, s), "hardware · NC 0 · core " + std::to_string(core));
            QCOMPARE(s.duration, durations.at(core));
            QCOMPARE(s.start, cpu + (intArg(t, s, "nc_timestamp_ns") - syncOf.at(core)));
            QCOMPARE(intArg(t, s, "end_nc_timestamp_ns") - intArg(t, s, "nc_timestamp_ns"), durations.at(core));
            QCOMPARE(intArg(t, s, "exec_id"), int64_t(1));
            // named through system_trace: the model of its exec_id
            QCOMPARE(intArg(t, s, "model_id"), int64_t(171450338541704));
            const Arg *model = argOf(t, s, "model_name");
            QVERIFY(model && t.str(model->stringValue()).ends_with("model.MODULE_297095076442530781+fad94d7c.neff"));
        }
        QCOMPARE(running, 2);
        // the core-4 slice began at 1,773,237,645,757,029,906 (field 2 of its record): the rule lands on it
        for (const Slice &s : t.allSlices())
            if (t.str(s.name) == "nc_exec_running" && intArg(t, s, "device_core_idx") == 4)
                QCOMPARE(s.start, int64_t(1773237645757022494) + (257063241498730 - 257063241489802));

        // runtime lanes per NeuronCore and thread; args typed; end attributes merged
        bool alloc = false;
        for (const Slice &s : t.allSlices()) {
            if (t.str(s.name) != "nrt_dma_mem_alloc" || alloc)
                continue;
            alloc = true;
            QVERIFY(trackName(t, s).starts_with("neuron_rt · NC "));
            QVERIFY(trackName(t, s).find(" · thread ") != std::string::npos);
            const Arg *address = argOf(t, s, "physical_address");
            QVERIFY(address && address->type == ArgType::String && t.str(address->stringValue()).starts_with("0x"));
            const Arg *usage = argOf(t, s, "usage_type");
            QVERIFY(usage && usage->type == ArgType::String);
            QVERIFY(argOf(t, s, "allocated_bytes") && argOf(t, s, "allocated_bytes")->type == ArgType::Int);
            QVERIFY(argOf(t, s, "thread_id"));
        }
        QVERIFY(alloc);
        // nrt_execute -> both nc_exec_running (the system_profile.json rule)
        int flows = 0;
        for (const Flow &f : t.flows())
            flows += t.str(t.slice(f.from).name) == "nrt_execute" && t.str(t.slice(f.to).name) == "nc_exec_running";
        QCOMPARE(flows, 2);

        // counters: 12 CPUs x 600, 600 host memory samples, device memory per NeuronCore and usage type
        size_t cpuSamples = 0, cpuTracks = 0;
        for (const Track &tr : t.tracks())
            if (tr.kind == TrackKind::Counter && t.str(tr.name).starts_with("cpu_util · CPU ")) {
                ++cpuTracks;
                cpuSamples += t.counterSamples(TrackId(uint32_t(&tr - t.tracks().data()))).size();
            }
        QCOMPARE(cpuTracks, size_t(12));
        QCOMPARE(cpuSamples, size_t(7200));
        const Track *host = counter(t, "mem_usage (bytes)");
        QVERIFY(host);
        QCOMPARE(t.counterSamples(TrackId(uint32_t(host - t.tracks().data()))).size(), size_t(600));
        // net traced bytes at the end, nc 0 (NTRACE_VERIFIED.md 2.10)
        const std::map<std::string, double> last{{"act", 43'520}, {"act table", 83'968}, {"dma rings io", 65'024},
                                                 {"pe", 115'072}, {"pool", 315'136}};
        for (const auto &[usage, bytes] : last) {
            const Track *c = counter(t, "device memory · NC 0 · " + usage);
            QVERIFY2(c, usage.c_str());
            QCOMPARE(t.counterSamples(TrackId(uint32_t(c - t.tracks().data()))).back().value, bytes);
        }
        // what was found, for info and the folder
        QCOMPARE(*t.metadata().find("ntrace.records"), std::string("1676 records: 837 begin/end pairs, 2 single, 0 begins without an end"));
        QVERIFY(t.metadata().find("ntrace.sync_point.1")->find("-> core 4") != std::string::npos);
        QVERIFY(t.metadata().find("ntrace.sync_point.2")->find("-> core 5") != std::string::npos);
        QVERIFY(t.metadata().find("model.171450338541704"));
        QVERIFY(t.metadata().find("session_file.cpu_util.pb")->starts_with("loaded: read with ntrace.pb: 7,200 samples (12 CPUs x 600 times)"));
        QVERIFY(t.metadata().find("session_file.host_mem.pb")->starts_with("loaded: read with ntrace.pb: 600 samples"));
    }

    // Record types are named through trace_info's table, never by number: a writer numbering them
    // backwards gives the same trace.
    void typesResolvedThroughTheTable()
    {
        QTemporaryDir a, b;
        test::MiniSession m;
        QVERIFY(m.save(a.path()));
        std::reverse(m.typeNames.begin(), m.typeNames.end());
        QVERIFY(m.save(b.path()));
        const Trace x = importAt(a.path()), y = importAt(b.path());
        QVERIFY(!x.diagnostics().hasWarnings());
        QCOMPARE(namesOf(x), namesOf(y));
        QCOMPARE(namesOf(x).at("nc_exec_running"), size_t(2));
    }

    void miniSession()
    {
        QTemporaryDir dir;
        const test::MiniSession m;
        QVERIFY(m.save(dir.path()));
        const Trace t = importAt(dir.path());
        QVERIFY2(!t.diagnostics().hasWarnings(), firstWarning(t));
        for (const Slice &s : t.allSlices())
            if (t.str(s.name) == "nc_exec_running") {
                const int64_t core = intArg(t, s, "device_core_idx");
                QCOMPARE(s.start, test::MiniSession::kRunningAt + (core == 4 ? 0 : 2'000)); // the rule lands on field 2
            }
        const Track *tensor = counter(t, "device memory · NC 0 · tensor");
        QVERIFY(tensor);
        const auto samples = t.counterSamples(TrackId(uint32_t(tensor - t.tracks().data())));
        QCOMPARE(samples.size(), size_t(2));
        QCOMPARE(samples[0].value, 4096.0);
        QCOMPARE(samples[1].value, 0.0);
        QCOMPARE(samples[1].ts, test::MiniSession::kHost + 3'020'000); // when the deallocation returned
    }

    void unknownType()
    {
        QTemporaryDir dir;
        test::MiniSession m;
        QVERIFY(m.save(dir.path()));
        NtraceWriter::Session session;
        session.instanceId = m.instance;
        session.pid = m.pid;
        NtraceWriter shorter(session);
        std::vector<std::string> names = m.typeNames;
        names.resize(30); // trace_info's table lacks nrt_dma_mem_alloc (34) and the others past 29
        shorter.setTypeNames(names);
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("trace_info.pb")), shorter.traceInfo()));
        const Trace t = importAt(dir.path());
        const std::string message = "ntrace.pb: records of a type no entry of trace_info's ntrace_inspect_type names (named 'type N')";
        QCOMPARE(t.diagnostics().count(message), uint64_t(2)); // nrt_dma_mem_alloc, nrt_dma_mem_dealloc
        QVERIFY(namesOf(t).count("type 34"));
        QCOMPARE(namesOf(t).at("nc_exec_running"), size_t(2));
    }

    void missingSyncPoint()
    {
        QTemporaryDir dir;
        test::MiniSession m;
        m.syncPoints = false;
        QVERIFY(m.save(dir.path()));
        const Trace t = importAt(dir.path());
        QCOMPARE(t.diagnostics().count("ntrace.pb: device records without a timestamp_sync_point for their physical core (placed at "
                                       "the host timestamp the runtime wrote, field 2)"),
                 uint64_t(2 + 2)); // nc_exec_running and nc_model_switch of two cores
        for (const Slice &s : t.allSlices())
            if (t.str(s.name) == "nc_exec_running")
                QVERIFY(s.start >= test::MiniSession::kRunningAt && s.start <= test::MiniSession::kRunningAt + 2'000);
    }

    void missingTraceInfo()
    {
        QTemporaryDir dir;
        QVERIFY(test::MiniSession().save(dir.path()));
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("trace_info.pb"))));
        try {
            importAt(dir.path());
            QFAIL("no error");
        } catch (const ImportError &e) {
            QVERIFY(e.file().ends_with("/ntrace.pb"));
            QVERIFY2(e.problem().starts_with("trace_info.pb is missing beside it"), e.what());
            QVERIFY2(e.problem().find("ntrace_inspect_type") != std::string::npos, e.what());
            QVERIFY(e.problem().find("neuron-profile view") == std::string::npos);
        }
        // opened on its own through the loader: the same message
        const LoadResult r = TraceLoader::load(dir.filePath(QStringLiteral("ntrace.pb")).toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find("trace_info.pb is missing beside it") != std::string::npos, r.error.c_str());
    }

    // trace_info.pb cut: inside the type table the entries before the cut name their records (the
    // rest are "type N", counted); before the table there is nothing to name them with (an error).
    void truncatedTraceInfo()
    {
        QTemporaryDir dir;
        const test::MiniSession m;
        QVERIFY(m.save(dir.path()));
        const std::string info = m.writer().traceInfo();
        const size_t table = info.find("ntrace_inspect_type");
        QVERIFY(table != std::string::npos);
        for (size_t cut : {table + 400, info.size() - 3, size_t(10)}) {
            QVERIFY(test::writeFile(dir.filePath(QStringLiteral("trace_info.pb")), info.substr(0, cut)));
            if (cut == 10) {
                QVERIFY_THROWS_EXCEPTION(ImportError, importAt(dir.path()));
                continue;
            }
            const Trace t = importAt(dir.path());
            QCOMPARE(t.diagnostics().count("trace_info.pb: damaged or cut (what follows the damage is missing)"), uint64_t(1));
            QVERIFY(t.allSlices().size() >= 10);
        }
    }

    void damagedSampleFiles()
    {
        QTemporaryDir dir;
        QVERIFY(test::MiniSession().save(dir.path()));
        const std::string cpu = test::readFile(dir.filePath(QStringLiteral("cpu_util.pb")));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("cpu_util.pb")), cpu.substr(0, cpu.size() - 3)));
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("host_mem.pb"))));
        const Trace t = importAt(dir.path());
        QCOMPARE(t.diagnostics().count("cpu_util.pb: a record length runs past the end of the file (the rest of the file is skipped)"),
                 uint64_t(1));
        QCOMPARE(t.diagnostics().count("host_mem.pb: listed by trace_info.pb but missing beside ntrace.pb (no counters from it)"),
                 uint64_t(1));
        size_t cpuSamples = 0; // the 5 whole records
        for (const Track &tr : t.tracks())
            if (tr.kind == TrackKind::Counter && t.str(tr.name).starts_with("cpu_util"))
                cpuSamples += t.counterSamples(TrackId(uint32_t(&tr - t.tracks().data()))).size();
        QCOMPARE(cpuSamples, size_t(5));
        QCOMPARE(namesOf(t).at("nrt_execute"), size_t(1)); // the rest loads
    }
};

QTEST_GUILESS_MAIN(TestNtraceImporter)
#include "tst_ntraceimporter.moc"
