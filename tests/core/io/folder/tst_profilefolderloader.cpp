// ProfileFolderLoader: the generated sample folder loads as one timeline (framework lanes + six device
// executions, each placed at its nrt_execute event and flagged approximate, every NEFF/NTFF paired by
// uuid); the alignment fallbacks (by hash for repeated executions, by order, none); real cs149 pairs
// through symbolic links; a folder's Kineto trace read streamed (the same trace event for event as the
// file alone, within a budget a whole read would not fit); progress, cancel and the TraceLoader entry point.
#include "analysis/deviceexecutions.h"
#include "corpus.h"
#include "filebytes.h"
#include "io/fileimporter.h"
#include "io/folder/profilefolderloader.h"
#include "io/input/inputbuffer.h"
#include "io/synthetic/ntffwriter.h"
#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <map>

using namespace lanescope;

namespace {

std::string ntffBytes(const std::string &uuid, const std::string &neffName, int64_t lengthPs = 10'000'000)
{
    NtffProfile layout;
    layout.uuid = uuid;
    layout.neffName = neffName;
    layout.subgraphName = "sg00";
    layout.programs.push_back(NtffWriter::makeProgram(NtffEngine::Tensor, {0xa6, 0xa4, 0xa6}, {2, 0, 3}));
    NtffWriter w(layout);
    w.addInstruction(NtffEngine::Tensor, 0, 1'000'000, 2'000'000); // origin at 2 µs
    w.addInstruction(NtffEngine::Tensor, 1, 2'000'000, 2'000'000 + lengthPs);
    w.addInstruction(NtffEngine::Tensor, 2, 2'000'000 + lengthPs, 2'100'000 + lengthPs);
    return w.bytes();
}

// A Kineto trace of pid 7 with the given privateuse1_runtime slices: (name, ts µs, dur µs, args).
std::string kineto(const std::vector<std::tuple<std::string, int, int, std::string>> &runtime)
{
    std::string j = R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "step", "pid": 7, "tid": 7, "ts": 1000, "dur": 9000})";
    for (const auto &[name, ts, dur, args] : runtime)
        j += R"(, {"ph": "X", "cat": "privateuse1_runtime", "name": ")" + name + R"(", "pid": 7, "tid": 7, "ts": )" +
             std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "args": {)" + args + "}}";
    return j + "]}";
}

const std::string *meta(const Trace &t, const std::string &key) { return t.metadata().find(key); }

std::vector<uint32_t> topGroups(const Trace &t)
{
    std::vector<uint32_t> out;
    for (uint32_t g = 0; g < t.groups().size(); ++g)
        if (!t.groups()[g].parent.isValid())
            out.push_back(g);
    return out;
}

// Earliest slice start among tracks below top group `g`.
int64_t firstSliceBelow(const Trace &t, uint32_t g)
{
    int64_t first = INT64_MAX;
    for (uint32_t i = 0; i < t.tracks().size(); ++i) {
        GroupId p = t.tracks()[i].group;
        while (p.isValid() && t.group(p).parent.isValid())
            p = t.group(p).parent;
        if (p.value == g && t.tracks()[i].sliceCount)
            first = std::min(first, t.slices(TrackId(i))[0].start);
    }
    return first;
}

// The executions lanes' slices by their `program` arg (the device timeline's program name).
// The device executions of each program (NEFF network name), in time order.
std::map<std::string, std::vector<DeviceExecution>> executionsByProgram(const Trace &t)
{
    std::map<std::string, std::vector<DeviceExecution>> out;
    const DeviceExecutions all = DeviceExecutions::build(t);
    for (const DeviceExecution &e : all.all())
        out[std::string(t.str(e.program))].push_back(e);
    for (auto &[program, list] : out)
        std::stable_sort(list.begin(), list.end(), [](const DeviceExecution &a, const DeviceExecution &b) { return a.start < b.start; });
    return out;
}

} // namespace

class TestProfileFolderLoader : public QObject
{
    Q_OBJECT

private slots:
    void sampleFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = SampleFolderWriter::write(dir.path().toStdString());
        // Without its system trace the sample exercises the approximate alignment (the exact one, at the
        // system trace's nc_exec_running events, is tested in tst_systemprofilejoin).
        QVERIFY(QFile::remove(dir.path() + QLatin1Char('/') + QString::fromStdString(SampleFolderWriter::runFolder()) + QStringLiteral("/system_profile.json")));
        const ProfileFolder folder = ProfileFolder::scan(root);
        std::vector<int> progress;
        LoadOptions o;
        o.progress = [&progress](int p) { progress.push_back(p); };
        const Trace t = ProfileFolderLoader::load(folder, o);
        QVERIFY(!progress.empty());
        QCOMPARE(progress.back(), 1000);
        for (size_t i = 1; i < progress.size(); ++i)
            QVERIFY2(progress[i] >= progress[i - 1], "progress goes backwards");

        QVERIFY(t.metadata().synthetic);
        QCOMPARE(t.metadata().format, std::string("profile-folder"));
        QCOMPARE(t.metadata().sourcePath, root);

        // The framework trace first, then one NeuronCore group holding the 18 device executions (6 programs x 3 steps).
        const auto tops = topGroups(t);
        QCOMPARE(tops.size(), size_t(2));
        QCOMPARE(t.str(t.groups()[tops[1]].name), std::string_view("NeuronCore 0"));
        const auto executions = executionsByProgram(t);
        QCOMPARE(executions.size(), size_t(6));
        for (const auto &[program, list] : executions)
            QCOMPARE(list.size(), size_t(SampleFolderWriter::kActiveSteps));
        QCOMPARE(t.str(t.groups()[tops[0]].name), std::string_view("trace.json (framework, pid 4242)"));
        std::map<std::string, std::vector<std::pair<int64_t, int64_t>>> calls; // neff hash -> its nrt_execute calls, in time order
        for (uint32_t i = 0; i < t.allSlices().size(); ++i) {
            const Slice &s = t.allSlices()[i];
            if (t.str(s.name) != "nrt_execute")
                continue;
            for (const Arg &a : t.args().args(s.args))
                if (t.str(a.key) == "neff")
                    calls[std::string(t.str(a.stringValue()))].emplace_back(s.start, s.end());
        }
        QCOMPARE(calls.size(), size_t(6));
        for (auto &[hash, list] : calls) {
            std::sort(list.begin(), list.end());
            QCOMPARE(list.size(), size_t(3)); // one per step
        }
        const std::string dirRel = SampleFolderWriter::runFolder().substr(std::string(SampleFolderWriter::kFolderName).size() + 1);
        int aligned = 0;
        for (const auto &x : SampleFolderWriter::executions()) {
            const std::string ntff = dirRel + "/" + x.ntffFile, neff = dirRel + "/" + x.neffFile;
            const std::string *al = meta(t, "alignment." + ntff);
            QVERIFY2(al, ntff.c_str());
            // the NTFF of step s is placed at the s-th nrt_execute carrying its NEFF hash
            const auto call = calls.at("neff_" + x.hash).at(size_t(x.step - 1));
            const auto ts = call.first, end = call.second; // not a structured binding: lambdas below capture them (clang 14)
            QVERIFY2(al->starts_with("approximate: placed at nrt_execute ts=" + std::to_string(ts) + " ("), al->c_str());
            QVERIFY2(al->find("execution " + std::to_string(x.step) + " of 3 carrying it") != std::string::npos, al->c_str());
            QVERIFY(meta(t, "file." + ntff));
            QVERIFY2(meta(t, "file." + ntff)->starts_with("paired with " + x.neffFile + " by uuid; loaded as 'NeuronCore 0 · neff_" + x.hash),
                     meta(t, "file." + ntff)->c_str());
            QVERIFY(meta(t, "file." + ntff)->find(ProfileFolderLoader::kAlignedSuffix) != std::string::npos);
            QVERIFY2(meta(t, "file." + neff)->starts_with("paired with "), meta(t, "file." + neff)->c_str());
            QVERIFY2(meta(t, "file." + neff)->find(x.ntffFile) != std::string::npos, meta(t, "file." + neff)->c_str());
            // its execution on the executions lane is named by its NEFF and launching op, and sits inside its nrt_execute
            const auto e = std::find_if(executions.begin(), executions.end(), [&](const auto &p) {
                return std::any_of(p.second.begin(), p.second.end(), [&](const DeviceExecution &d) { return d.start >= ts && d.start < end; });
            });
            QVERIFY2(e != executions.end(), x.hash.c_str());
            const DeviceExecution &d = e->second.at(size_t(x.step - 1)); // the program's executions in step order
            QCOMPARE(d.core.value, tops[1]);
            QVERIFY(d.start >= ts);
            QVERIFY(d.start < end);
            const std::string &name = d.name; // "<NEFF network name> · <framework op>"
            const size_t dot = name.find(" \xC2\xB7 ");
            QVERIFY2(dot != std::string::npos && name.starts_with("synthetic_rmsnorm_"), name.c_str());
            QCOMPARE(name.substr(dot + 4), x.op);
            ++aligned;
        }
        QCOMPARE(aligned, 18);
        QVERIFY(meta(t, "file.README_SYNTHETIC.txt")->starts_with("ignored: "));
        QVERIFY(meta(t, "file." + dirRel + "/trace.json")->starts_with("loaded: as 'trace.json (framework, pid 4242)'"));

        // The typed report: one per file found, in scan order, printed as the `file.<path>` entries.
        QCOMPARE(t.metadata().files.size(), folder.files().size());
        for (const FileReport &r : t.metadata().files) {
            QVERIFY2(meta(t, "file." + r.path), r.path.c_str());
            QCOMPARE(*meta(t, "file." + r.path), r.text());
            QCOMPARE(r.kind, folder.files()[size_t(folder.find(r.path))].kind);
            if (r.path.ends_with(".ntff")) {
                QCOMPARE(r.kind, FileFormat::Ntff);
                QCOMPARE(r.outcome, FileOutcome::Paired);
                QVERIFY2(r.detail.starts_with("paired with "), r.detail.c_str());
            }
        }

        // framework lanes, device lanes with NEFF semaphore names, one flow per execution
        bool driverLane = false, hostThread = false, namedSemaphore = false;
        for (uint32_t i = 0; i < t.tracks().size(); ++i) {
            const std::string path = t.trackPath(TrackId(i));
            driverLane = driverLane || path.ends_with("/ neuron driver (synthetic)");
            hostThread = hostThread || path.ends_with("/ thread 4242 (python3, synthetic)");
            namedSemaphore = namedSemaphore || path.ends_with("semaphore 8 (qSyncIO0)");
        }
        QVERIFY(driverLane);
        QVERIFY(hostThread);
        QVERIFY(namedSemaphore);
        int executionFlows = 0;
        for (const Flow &f : t.flows())
            if (t.str(f.name) == "device execution") {
                ++executionFlows;
                QCOMPARE(t.str(t.slice(f.from).name), std::string_view("nrt_execute"));
                QCOMPARE(t.slice(f.to).start >= t.slice(f.from).start, true);
            }
        QCOMPARE(executionFlows, 18); // one per NTFF: 6 per step x 3
        QVERIFY(t.stats().categories.at("instruction") > 0);
        QVERIFY(t.stats().categories.at("privateuse1_runtime") >= 18);
    }

    void byHashRepeatedExecutionsAndByOrder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString run = dir.filePath(QStringLiteral("i-0test_pid_7/"));
        // Two sessions of neff_55 (identified by the NEFF name recorded in the NTFF), two command-line
        // captures identified by nothing: they take the remaining nrt_execute events in order.
        QVERIFY(test::writeFile(run + QStringLiteral("trace.json"),
                  kineto({{"nrt_execute", 2000, 100, R"("neff": "neff_55.neff")"},
                          {"nrt_execute", 3000, 100, R"("External id": 1)"},
                          {"nrt_tensor_read", 3500, 100, R"("bytes": 4)"},
                          {"nrt_execute", 4000, 100, R"("neff_path": "/x/neff_55.neff")"},
                          {"nrt_execute", 5000, 100, R"("External id": 2)"}})));
        QVERIFY(test::writeFile(run + QStringLiteral("profile_nc_0_session_1.ntff"), ntffBytes("11111111111111111111111111111111", "/tmp/neff_55.neff")));
        QVERIFY(test::writeFile(run + QStringLiteral("profile_nc_0_session_0.ntff"), ntffBytes("11111111111111111111111111111111", "/tmp/neff_55.neff")));
        QVERIFY(test::writeFile(run + QStringLiteral("profile_exec_1.ntff"), ntffBytes("22222222222222222222222222222222", "graph.neff")));
        QVERIFY(test::writeFile(run + QStringLiteral("profile_exec_0.ntff"), ntffBytes("33333333333333333333333333333333", "graph.neff")));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("elsewhere/profile.ntff")), ntffBytes("44444444444444444444444444444444", "file.neff")));

        const LoadResult r = TraceLoader::load(dir.path().toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        const std::string p = "i-0test_pid_7/";
        QVERIFY(meta(t, "alignment." + p + "profile_nc_0_session_0.ntff")->starts_with("approximate: placed at nrt_execute ts=2000000 (the NEFF hash 55"));
        QVERIFY(meta(t, "alignment." + p + "profile_nc_0_session_0.ntff")->find("execution 1 of 2") != std::string::npos);
        QVERIFY(meta(t, "alignment." + p + "profile_nc_0_session_1.ntff")->starts_with("approximate: placed at nrt_execute ts=4000000"));
        QVERIFY(meta(t, "alignment." + p + "profile_exec_0.ntff")->starts_with("approximate: placed at nrt_execute ts=3000000 (by order"));
        QVERIFY(meta(t, "alignment." + p + "profile_exec_1.ntff")->starts_with("approximate: placed at nrt_execute ts=5000000 (by order"));
        const std::string *none = meta(t, "alignment.elsewhere/profile.ntff");
        QVERIFY(none);
        QVERIFY2(none->starts_with("none: own clock"), none->c_str());
        QVERIFY(meta(t, "file." + p + "profile_exec_0.ntff")->starts_with("unpaired: no NEFF in the folder has its uuid 3333"));
        // the unaligned timeline keeps its 0-based clock; the aligned ones start at their events
        // One NeuronCore group per instance (process folder), the executions in time order on it.
        int unaligned = 0, session0 = 0;
        for (uint32_t g : topGroups(t)) {
            const std::string name(t.str(t.groups()[g].name));
            if (name == "NeuronCore 0") { // elsewhere/: a process folder without a label
                ++unaligned;
                QCOMPARE(firstSliceBelow(t, g), int64_t(0));
            }
        }
        const auto executions = executionsByProgram(t);
        QCOMPARE(executions.size(), size_t(5));
        const auto s0 = executions.find("neff_55 \xC2\xB7 i-0test (pid 7) \xC2\xB7 session 0");
        QVERIFY(s0 != executions.end());
        QCOMPARE(s0->second.size(), size_t(1));
        QCOMPARE(t.str(t.group(s0->second.front().core).name), std::string_view("NeuronCore 0 \xC2\xB7 i-0test (pid 7)"));
        QCOMPARE(s0->second.front().start, int64_t(2000000));
        session0 = 1;
        QCOMPARE(unaligned, 1);
        QCOMPARE(session0, 1);
    }

    void sampleHasOneNeuronCoreGroup()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const LoadResult r = TraceLoader::load(SampleFolderWriter::write(dir.path().toStdString()));
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        // was 153 lanes in 8 top groups (6 of them "NeuronCore 0 · neff_<hash>"); 44 with the "layers"
        // and "HLO ops" lanes the NEFFs' debug chain gives
        QCOMPARE(t.tracks().size(), size_t(44));
        size_t cores = 0;
        for (uint32_t g : topGroups(t))
            cores += t.groups()[g].kind == GroupKind::NeuronCore;
        QCOMPARE(cores, size_t(1));
        const DeviceExecutions all = DeviceExecutions::build(t);
        QCOMPARE(all.all().size(), size_t(18)); // 6 programs x 3 steps
        for (size_t i = 1; i < all.all().size(); ++i)
            QVERIFY(all.all()[i].start >= all.all()[i - 1].end); // in time order, none overlapping
        // every instruction of every execution on the one Tensor / Vector / ... lane each
        std::map<std::string, int> lanes;
        for (const Track &tr : t.tracks())
            ++lanes[std::string(t.str(tr.name))];
        QCOMPARE(lanes["Scalar"], 1);
        QCOMPARE(lanes["executions"], 1);
        QCOMPARE(lanes["layers"], 1);
        QCOMPARE(lanes["HLO ops"], 1);
        QCOMPARE(t.diagnostics().count("device executions overlap in time on NeuronCore 0 (a clock-alignment problem: a core runs "
                                       "one NEFF at a time); kept on separate lane sets, not merged"),
                 uint64_t(0));
        // the launching op -> the execution's slice
        int launched = 0;
        for (const Flow &f : t.flows())
            if (t.str(f.name) == "launched execution") {
                ++launched;
                QCOMPARE(t.str(t.slice(f.to).category), std::string_view("neff_execution"));
                QVERIFY(t.str(t.slice(f.from).category) == "cpu_op");
            }
        QCOMPARE(launched, 18);
    }

    void hundredExecutionsOnOneCoreShareTheirLanes()
    {
        // An eager-mode capture: the sample's six NTFFs again and again (102 device profiles, no host trace),
        // laid out one after another, all on NeuronCore 0.
        QTemporaryDir sample, dir;
        QVERIFY(sample.isValid() && dir.isValid());
        SampleFolderWriter::write(sample.path().toStdString());
        const QString run = sample.path() + QLatin1Char('/') + QString::fromStdString(SampleFolderWriter::runFolder()) + QLatin1Char('/');
        std::vector<QString> ntffs;
        for (const auto &x : SampleFolderWriter::executions())
            ntffs.push_back(run + QString::fromStdString(x.ntffFile));
        for (int k = 0; k < 102; ++k)
            QVERIFY(QFile::copy(ntffs[size_t(k) % ntffs.size()], dir.filePath(QStringLiteral("exec_%1.ntff").arg(k, 3, 10, QLatin1Char('0')))));
        const LoadResult r = TraceLoader::load(dir.path().toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        QCOMPARE(topGroups(t).size(), size_t(1));
        QVERIFY2(t.tracks().size() <= 60, std::to_string(t.tracks().size()).c_str());
        QCOMPARE(t.tracks().size(), size_t(33)); // the union of the six programs' lanes + the executions lane
        const DeviceExecutions all = DeviceExecutions::build(t);
        QCOMPARE(all.all().size(), size_t(102));
        for (size_t i = 1; i < all.all().size(); ++i)
            QVERIFY(all.all()[i].start > all.all()[i - 1].end);
        QVERIFY(meta(t, "alignment")->starts_with("sequence: 102 device profiles without a framework or system trace"));
        QVERIFY(meta(t, "alignment.exec_005.ntff")->starts_with("sequence: no framework or system trace; device trace 6 of 102"));
        QVERIFY(meta(t, "alignment.exec_101.ntff")->starts_with("sequence: no framework or system trace; device trace 102 of 102"));
        QCOMPARE(t.diagnostics().total() > 0, true); // the NTFFs' own notes only, no overlap
        for (const Warning &w : t.diagnostics().warnings())
            QVERIFY2(w.message.find("overlap in time") == std::string::npos, w.message.c_str());
    }

    void overlappingExecutionsGetASecondSetOfLanes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Two executions placed by order 5 us apart, each 10 us long: impossible on one core, kept apart.
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("trace.json")),
                  kineto({{"nrt_execute", 2000, 100, R"("External id": 1)"}, {"nrt_execute", 2005, 100, R"("External id": 2)"}})));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("profile_exec_0.ntff")), ntffBytes("66666666666666666666666666666666", "graph.neff")));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("profile_exec_1.ntff")), ntffBytes("77777777777777777777777777777777", "graph.neff")));
        const LoadResult r = TraceLoader::load(dir.path().toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        QCOMPARE(t.diagnostics().count("device executions overlap in time on NeuronCore 0 (a clock-alignment problem: a core runs "
                                       "one NEFF at a time); kept on separate lane sets, not merged"),
                 uint64_t(1));
        const DeviceExecutions all = DeviceExecutions::build(t);
        QCOMPARE(all.all().size(), size_t(2));
        QCOMPARE(all.all()[0].core, all.all()[1].core);
        QVERIFY(all.all()[0].laneSet != all.all()[1].laneSet);
        int tensorLanes = 0;
        for (uint32_t i = 0; i < t.tracks().size(); ++i)
            tensorLanes += t.str(t.tracks()[i].name) == "Tensor";
        QCOMPARE(tensorLanes, 2);
        bool second = false;
        for (uint32_t i = 0; i < t.tracks().size(); ++i)
            second = second || t.trackPath(TrackId(i)) == "NeuronCore 0 / overlapping executions (set 2) / Tensor";
        QVERIFY(second);
    }

    void moreDevicesThanEvents()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("trace.json")), kineto({{"nrt_execute", 2000, 100, R"("neff": "neff_9")"}})));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("9_instid_0_vnc_0.ntff")), ntffBytes("55555555555555555555555555555555", "neff_9.neff")));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("9_instid_1_vnc_0.ntff")), ntffBytes("55555555555555555555555555555555", "neff_9.neff")));
        const LoadResult r = TraceLoader::load(dir.path().toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(meta(*r.trace, "alignment.9_instid_0_vnc_0.ntff")->starts_with("approximate: placed at nrt_execute ts=2000000"));
        const std::string *second = meta(*r.trace, "alignment.9_instid_1_vnc_0.ntff");
        QVERIFY2(second->starts_with("none: own clock") && second->find("only 1 host execution events") != std::string::npos,
                 second->c_str());
    }

    void realCs149PairsThroughSymlinks()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QDir corpus(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4")));
        for (const QString &n : corpus.entryList(QDir::Files))
            QVERIFY(QFile::link(corpus.filePath(n), dir.filePath(n)));
        const LoadResult r = TraceLoader::load(dir.path().toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        QCOMPARE(topGroups(t).size(), size_t(1)); // one NeuronCore, both executions on it
        QCOMPARE(*meta(t, "file.stream_256k_fd1k.ntff"),
                 std::string("paired with stream_256k_fd1k.neff by uuid; loaded as 'NeuronCore 0 · stream_256k_fd1k'"));
        QVERIFY(meta(t, "file.part2_file_pool_1_float16.neff")->starts_with("unpaired: no NTFF in the folder has its uuid"));
        QVERIFY(meta(t, "alignment.stream_256k_fd2k.ntff")->starts_with("sequence: no framework or system trace; device trace 2 of 2"));
        QCOMPARE(*meta(t, "stream_256k_fd1k.ntff: neff.compiler_version"), std::string("2.18.121.0+9e31e41a"));
        bool named = false;
        for (uint32_t i = 0; i < t.tracks().size(); ++i)
            named = named || t.trackPath(TrackId(i)) == "NeuronCore 0 / semaphores / semaphore 8 (qSyncIO0)";
        QVERIFY(named); // semaphore 8 belongs to qSPIO0 in the NEFF's def.json
        QVERIFY(t.diagnostics().count("stream_256k_fd1k.ntff: instructions starting before the trace window (skipped)") > 0);
    }

    void realNeuronProfileJsonExports()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json/"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString corpus = lanescope::test::corpusFile(QStringLiteral("neuron-profile-json/"));
        // An export next to the NTFF it came from: the NTFF is loaded, the export listed as ignored.
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("pair"))));
        QVERIFY(QFile::link(corpus + QStringLiteral("profile_128x128x256.ntff"), dir.filePath(QStringLiteral("pair/profile_128x128x256.ntff"))));
        QVERIFY(QFile::link(corpus + QStringLiteral("profile_128x128x256.json"), dir.filePath(QStringLiteral("pair/profile_128x128x256.json"))));
        // An export alone: loaded as a device timeline of its own.
        QVERIFY(QFile::link(corpus + QStringLiteral("profile_128x128x384.json"), dir.filePath(QStringLiteral("profile_128x128x384.json"))));
        const LoadResult r = TraceLoader::load(dir.path().toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        QVERIFY(meta(t, "file.pair/profile_128x128x256.json")->starts_with("ignored: export of an NTFF with the same uuid"));
        const std::string *alone = meta(t, "file.profile_128x128x384.json");
        QVERIFY2(alone->starts_with("loaded: as 'NeuronCore 0 · profile_128x128x384 (neuron-profile JSON)'"), alone->c_str());
        QVERIFY(meta(t, "alignment.profile_128x128x384.json")->starts_with("sequence: "));
        QCOMPARE(topGroups(t).size(), size_t(1));
    }

    // The trace.json of a folder is read through the formats table's stream reader, as the file alone
    // is: under a memory budget below its size (which InputBuffer::read refuses, so a whole read could
    // not load it) it loads, and it is the file's trace event for event, below its folder group.
    void frameworkTraceIsStreamed()
    {
        const QString gz = QStringLiteral("tracelens/b200_eager_trace.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(gz);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string trace = dir.filePath(QStringLiteral("run/trace.json")).toStdString();
        {
            // the real trace as the profiler writes it: plain JSON named trace.json
            const InputBuffer text = InputBuffer::read(lanescope::test::corpusFile(gz).toStdString(), {});
            QVERIFY(test::writeFile(QString::fromStdString(trace), std::string(text.view())));
        }
        LoadOptions tight;
        tight.memoryBudget = QFileInfo(QString::fromStdString(trace)).size() - 1;
        QVERIFY_THROWS_EXCEPTION(ImportError, InputBuffer::read(trace, tight));
        const LoadResult alone = FileImporter::load(trace, tight);
        QVERIFY2(alone.ok(), alone.error.c_str());
        const LoadResult folder = TraceLoader::load(dir.filePath(QStringLiteral("run")).toStdString(), tight);
        QVERIFY2(folder.ok(), folder.error.c_str());
        const Trace &a = *alone.trace, &f = *folder.trace;
        QCOMPARE(f.metadata().format, std::string("profile-folder"));
        const auto tops = topGroups(f);
        QCOMPARE(tops.size(), size_t(1));
        const std::string top = std::string(f.str(f.groups()[tops[0]].name)) + " / ";
        QVERIFY2(top.starts_with("trace.json (framework, pid "), top.c_str());
        QVERIFY(meta(f, "file.trace.json")->starts_with("loaded: as '" + top.substr(0, top.size() - 3) + "', " +
                                                        std::to_string(a.allSlices().size()) + " slices"));

        QVERIFY(a.allSlices().size() > 10000);
        QCOMPARE(f.allSlices().size(), a.allSlices().size());
        QCOMPARE(f.tracks().size(), a.tracks().size());
        for (uint32_t i = 0; i < a.tracks().size(); ++i)
            QCOMPARE(f.trackPath(TrackId(i)), top + a.trackPath(TrackId(i)));
        auto sameArgs = [&](ArgSetId x, ArgSetId y) {
            const auto p = a.args().args(x), q = f.args().args(y);
            if (p.size() != q.size())
                return false;
            for (size_t k = 0; k < p.size(); ++k)
                if (a.str(p[k].key) != f.str(q[k].key) || p[k].type != q[k].type ||
                    (p[k].type == ArgType::String || p[k].type == ArgType::Json ? a.str(p[k].stringValue()) != f.str(q[k].stringValue())
                                                                                : p[k].value.u != q[k].value.u))
                    return false;
            return true;
        };
        for (uint32_t i = 0; i < a.allSlices().size(); ++i) {
            const Slice &x = a.allSlices()[i], &y = f.allSlices()[i];
            if (x.start != y.start || x.duration != y.duration || x.depth != y.depth || x.flags != y.flags ||
                a.str(x.name) != f.str(y.name) || a.str(x.category) != f.str(y.category) || !sameArgs(x.args, y.args) ||
                a.trackOfSlice(SliceId(i)) != f.trackOfSlice(SliceId(i)))
                QFAIL(("slice #" + std::to_string(i) + " differs").c_str());
        }
        QCOMPARE(f.allInstants().size(), a.allInstants().size());
        for (size_t i = 0; i < a.allInstants().size(); ++i)
            QVERIFY(a.allInstants()[i].ts == f.allInstants()[i].ts && a.str(a.allInstants()[i].name) == f.str(f.allInstants()[i].name));
        QCOMPARE(f.allCounterSamples().size(), a.allCounterSamples().size());
        for (size_t i = 0; i < a.allCounterSamples().size(); ++i)
            QVERIFY(a.allCounterSamples()[i].ts == f.allCounterSamples()[i].ts &&
                    a.allCounterSamples()[i].value == f.allCounterSamples()[i].value);
        QCOMPARE(f.flows().size(), a.flows().size());
        for (size_t i = 0; i < a.flows().size(); ++i)
            QVERIFY(a.flows()[i].from == f.flows()[i].from && a.flows()[i].to == f.flows()[i].to &&
                    a.str(a.flows()[i].name) == f.str(f.flows()[i].name));
        QCOMPARE(f.stats().eventsRead, a.stats().eventsRead);
        QCOMPARE(f.stats().categories, a.stats().categories);
        // the file's own metadata and warnings, named by its path in the folder
        for (const auto &[k, v] : a.metadata().entries)
            QVERIFY2(meta(f, "trace.json: " + k) && *meta(f, "trace.json: " + k) == v, k.c_str());
        for (const Warning &w : a.diagnostics().warnings())
            QVERIFY2(f.diagnostics().count("trace.json: " + w.message) == w.count || f.diagnostics().count(w.message) == w.count,
                     w.message.c_str());
    }

    void nothingToLoad()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const LoadResult empty = TraceLoader::load(dir.path().toStdString());
        QVERIFY(!empty.ok());
        QVERIFY2(empty.error.find("holds no files") != std::string::npos, empty.error.c_str());
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("ntrace.pb")), "x"));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("broken.ntff")), std::string("\x05\x10\x00\x00\x00", 5) + std::string(200, '\0')));
        const LoadResult r = TraceLoader::load(dir.path().toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find("no file in this folder has a timeline") != std::string::npos, r.error.c_str());
        QVERIFY2(r.error.find("ntrace.pb: not readable") != std::string::npos, r.error.c_str());
    }

    void failedFileIsReportedNotThrown()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("trace.json")), kineto({})));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("bad.json")), R"({"traceEvents": [{"ph": "X", "name": "a" "ts": 1}]})"));
        const LoadResult r = TraceLoader::load(dir.path().toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const std::string *bad = meta(*r.trace, "file.bad.json");
        QVERIFY(bad);
        QVERIFY2(bad->starts_with("not readable: "), bad->c_str());
        QCOMPARE(topGroups(*r.trace).size(), size_t(1));
    }

    void oneMemoryBudgetForTheFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = SampleFolderWriter::write(dir.path().toStdString());
        LoadOptions o;
        o.memoryBudget = 64 * 1024; // enough for the first files only
        const LoadResult r = TraceLoader::load(root, o);
        QVERIFY2(r.ok(), r.error.c_str());
        int refused = 0;
        for (const auto &[k, v] : r.trace->metadata().entries)
            refused += k.starts_with("file.") && v.find("memory budget") != std::string::npos;
        QVERIFY(refused > 0);
    }

    void cancel()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = SampleFolderWriter::write(dir.path().toStdString());
        std::atomic<bool> stop{false};
        LoadOptions o;
        o.cancel = &stop;
        o.progress = [&stop](int p) {
            if (p > 100)
                stop = true;
        };
        const LoadResult r = TraceLoader::load(root, o);
        QVERIFY(!r.ok());
        QVERIFY(r.cancelled);
    }
};

QTEST_GUILESS_MAIN(TestProfileFolderLoader)
#include "tst_profilefolderloader.moc"
