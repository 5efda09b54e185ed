// The TorchNeuron capture layouts of ../shared/docs (formats.md section 1, explorer.md "Capture layouts"),
// opened as folders (ProfileFolder::scan + ProfileFolderLoader through TraceLoader) from the top folder
// and from the timestamp folder:
//   native PyTorch  profile_output/<instance>_pid_<pid>/<timestamp>/ trace.json, neff_<H>_vnc_0.neff,
//                   profile_nc_0_session_0.ntff, ntrace.pb, trace_info.pb, cpu_util.pb, host_mem.pb;
//   vLLM            <instance>_pid_<pid>/<timestamp>/profile_nc_0_session_0.ntff beside neffs/graph_<H>.neff.
// The NEFF / NTFF pairs are real (corpus neuron-cs149-asst4, linked under the layout's names); each NTFF
// must be paired with its NEFF by the header uuid and placed on the host clock at its nrt_execute; the
// .pb files here are stand-ins (a few protobuf bytes), so ntrace.pb is listed as not readable, naming the
// table trace_info.pb lacks, and the session files as not read with it. Also the generated native layout
// (SampleFolderWriter, layout "native"), whose .pb files are a real session: its NTFFs are placed at
// their nc_exec_running by ntrace.pb's sync points.
#include "analysis/deviceexecutions.h"
#include "corpus.h"
#include "filebytes.h"
#include "io/folder/profilefolder.h"
#include "io/folder/profilefolderloader.h"
#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <string>
#include <vector>

using namespace lanescope;

namespace {

const std::vector<std::string> kProtobufFiles = {"ntrace.pb", "trace_info.pb", "cpu_util.pb", "host_mem.pb"};

void linkCorpus(const QString &corpusName, const QString &to)
{
    QVERIFY(QDir().mkpath(QFileInfo(to).absolutePath()));
    QVERIFY2(QFile::link(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4/") + corpusName), to), qPrintable(to));
}

// The framework trace torch-neuronx writes beside the device files (Kineto JSON), in the shape of the
// generated sample's trace.json (SampleFolderWriter; no real TorchNeuron trace.json is public): a
// ProfilerStep whose cpu_op launches the NEFF through a privateuse1_runtime nrt_execute naming it, and
// the driver's nc_exec_running on a thread of its own.
std::string frameworkTrace(int64_t pid, const std::string &neff)
{
    const std::string p = std::to_string(pid), t2 = std::to_string(pid + 1);
    return R"({"schemaVersion": 1, "displayTimeUnit": "ms", "traceEvents": [)"
           R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": )" + p + R"(, "tid": )" + p +
           R"(, "ts": 1000.000, "dur": 900.000, "args": {"External id": 1}}, )"
           R"({"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": )" + p + R"(, "tid": )" + p +
           R"(, "ts": 1100.000, "dur": 600.000, "args": {"External id": 2}}, )"
           R"({"ph": "X", "cat": "privateuse1_runtime", "name": "nrt_execute", "pid": )" + p + R"(, "tid": )" + p +
           R"(, "ts": 1200.000, "dur": 400.000, "args": {"External id": 2, "neff": ")" + neff + R"(", "nc_idx": 0}}, )"
           R"({"ph": "X", "cat": "privateuse1_driver", "name": "nc_exec_running", "pid": )" + p + R"(, "tid": )" + t2 +
           R"(, "ts": 1210.000, "dur": 380.000, "args": {"External id": 2, "neff": ")" + neff + R"(", "nc": 0}}, )"
           R"({"ph": "M", "name": "process_name", "pid": )" + p + R"(, "tid": 0, "args": {"name": "python3"}}]})";
}

// Protobuf bytes in the runtime's place (field 1, a length-delimited message): recognised by name only.
void writeProtobufFiles(const QString &dir)
{
    for (const std::string &pb : kProtobufFiles)
        QVERIFY(test::writeFile(dir + QLatin1Char('/') + QString::fromStdString(pb), std::string("\x0a\x04\x08\x01\x10\x02", 6)));
}

const std::string *meta(const Trace &t, const std::string &key) { return t.metadata().find(key); }

const FileReport *report(const Trace &t, const std::string &path)
{
    for (const FileReport &r : t.metadata().files)
        if (r.path == path)
            return &r;
    return nullptr;
}

// The start and end of the one nrt_execute of the framework trace.
std::pair<int64_t, int64_t> nrtExecute(const Trace &t)
{
    for (const Slice &s : t.allSlices())
        if (t.str(s.name) == "nrt_execute")
            return {s.start, s.end()};
    return {-1, -1};
}

// Checks a loaded layout: `ntff` (relative to the opened folder) paired with `neff` by uuid and placed
// at the nrt_execute naming it, its device execution inside that call, the .pb files of `pbDir` not
// readable with the export hint.
void checkLayout(const Trace &t, const std::string &ntff, const std::string &neff, const std::string &pbDir)
{
    QCOMPARE(t.metadata().format, std::string("profile-folder"));
    // the partner is named by its file name beside the NTFF, else by its path in the opened folder
    auto dirOf = [](const std::string &p) { return p.substr(0, p.rfind('/') + 1); };
    const std::string partner = dirOf(neff) == dirOf(ntff) ? neff.substr(neff.rfind('/') + 1) : neff;
    const std::string *paired = meta(t, "file." + ntff);
    QVERIFY2(paired, ntff.c_str());
    QVERIFY2(paired->starts_with("paired with " + partner + " by uuid; loaded as 'NeuronCore 0 · "), paired->c_str());
    QVERIFY2(paired->find(ProfileFolderLoader::kAlignedSuffix) != std::string::npos, paired->c_str());
    const FileReport *n = report(t, neff);
    QVERIFY2(n, neff.c_str());
    QCOMPARE(n->kind, FileFormat::Neff);
    QCOMPARE(n->outcome, FileOutcome::Paired);
    QVERIFY2(meta(t, ntff + ": neff.file") && *meta(t, ntff + ": neff.file") == neff, neff.c_str());

    const auto [callStart, callEnd] = nrtExecute(t);
    QVERIFY(callStart >= 0);
    const std::string *al = meta(t, "alignment." + ntff);
    QVERIFY2(al, ntff.c_str());
    QVERIFY2(al->starts_with("approximate: placed at nrt_execute ts=" + std::to_string(callStart) + " ("), al->c_str());
    const DeviceExecutions executions = DeviceExecutions::build(t);
    QCOMPARE(executions.all().size(), size_t(1));
    const DeviceExecution &e = executions.all().front();
    QVERIFY(e.start >= callStart);
    QVERIFY(e.start < callEnd);
    int launched = 0;
    for (const Flow &f : t.flows())
        launched += t.str(f.name) == "device execution" && t.str(t.slice(f.from).name) == "nrt_execute";
    QCOMPARE(launched, 1);

    for (const std::string &pb : kProtobufFiles) {
        const std::string path = pbDir + pb;
        const FileReport *r = report(t, path);
        QVERIFY2(r, path.c_str());
        QVERIFY2(r->detail.find("neuron-profile view") == std::string::npos, r->detail.c_str()); // no hint to AWS's old export
        if (pb == "ntrace.pb") {
            QCOMPARE(r->kind, FileFormat::NeuronTrace);
            QCOMPARE(r->outcome, FileOutcome::NotReadable);
            QVERIFY2(r->detail.find("ntrace_inspect_type") != std::string::npos, r->detail.c_str());
            QVERIFY2(meta(t, "file." + path)->starts_with("not readable: "), meta(t, "file." + path)->c_str());
        } else {
            QCOMPARE(r->kind, FileFormat::NeuronProtobuf);
            QCOMPARE(r->outcome, FileOutcome::Ignored);
            QVERIFY2(r->detail.find("ntrace.pb, which cannot be read") != std::string::npos, r->detail.c_str());
        }
    }
    QCOMPARE(t.diagnostics().count("system traces that cannot be read (the rest of the folder loads)"), uint64_t(1));
}

} // namespace

class TestTorchNeuronLayouts : public QObject
{
    Q_OBJECT

private slots:
    void nativePyTorchCapture()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string hash = "8435203145634209123", process = "i-0abc1234def567890_pid_1234", stamp = "20250601_120000";
        const std::string runRel = process + "/" + stamp + "/";
        const QString run = dir.filePath(QStringLiteral("profile_output/") + QString::fromStdString(runRel));
        const std::string neff = "neff_" + hash + "_vnc_0.neff";
        linkCorpus(QStringLiteral("stream_256k_fd1k.neff"), run + QString::fromStdString(neff));
        linkCorpus(QStringLiteral("stream_256k_fd1k.ntff"), run + QStringLiteral("profile_nc_0_session_0.ntff"));
        QVERIFY(test::writeFile(run + QStringLiteral("trace.json"), frameworkTrace(1234, "neff_" + hash)));
        writeProtobufFiles(run);

        // the top folder
        const LoadResult top = TraceLoader::load(dir.filePath(QStringLiteral("profile_output")).toStdString());
        QVERIFY2(top.ok(), top.error.c_str());
        checkLayout(*top.trace, runRel + "profile_nc_0_session_0.ntff", runRel + neff, runRel);
        const std::string *host = meta(*top.trace, "file." + runRel + "trace.json");
        QVERIFY2(host && host->starts_with("loaded: as 'trace.json (framework, pid 1234)'"), host ? host->c_str() : "missing");
        // the timestamp folder
        const LoadResult one = TraceLoader::load(run.toStdString());
        QVERIFY2(one.ok(), one.error.c_str());
        checkLayout(*one.trace, "profile_nc_0_session_0.ntff", neff, "");
    }

    void vllmCapture()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4/stream_256k_fd2k.ntff"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string hash = "5120019938204411783", runRel = "i-0fedcba987654321_pid_77/20250601_130000/";
        const QString run = dir.filePath(QStringLiteral("vllm_profile/") + QString::fromStdString(runRel));
        const std::string neff = "neffs/graph_" + hash + ".neff";
        linkCorpus(QStringLiteral("stream_256k_fd2k.neff"), run + QString::fromStdString(neff));
        linkCorpus(QStringLiteral("stream_256k_fd2k.ntff"), run + QStringLiteral("profile_nc_0_session_0.ntff"));
        // a NEFF of another graph compiled in the same run, which no NTFF here executed
        linkCorpus(QStringLiteral("stream_256k_fd1k.neff"), run + QStringLiteral("neffs/graph_1111111111111111111.neff"));
        QVERIFY(test::writeFile(run + QStringLiteral("trace.json"), frameworkTrace(77, "graph_" + hash)));
        writeProtobufFiles(run);

        const ProfileFolder scanned = ProfileFolder::scan(dir.filePath(QStringLiteral("vllm_profile")).toStdString());
        const int g = scanned.find(runRel + neff);
        QVERIFY(g >= 0);
        QCOMPARE(scanned.files()[size_t(g)].name.pattern, std::string("neffs/graph_<H>.neff"));
        QCOMPARE(scanned.files()[size_t(g)].pairedBy, PairedBy::Uuid);

        const LoadResult top = TraceLoader::load(dir.filePath(QStringLiteral("vllm_profile")).toStdString());
        QVERIFY2(top.ok(), top.error.c_str());
        checkLayout(*top.trace, runRel + "profile_nc_0_session_0.ntff", runRel + neff, runRel);
        const FileReport *other = report(*top.trace, runRel + "neffs/graph_1111111111111111111.neff");
        QVERIFY(other);
        QCOMPARE(other->outcome, FileOutcome::Unpaired);
        const LoadResult one = TraceLoader::load(run.toStdString());
        QVERIFY2(one.ok(), one.error.c_str());
        checkLayout(*one.trace, "profile_nc_0_session_0.ntff", neff, "");
    }

    // The generated native layout: one NTFF per session (step), each paired by uuid with the one NEFF and
    // placed at the nrt_execute of its step.
    void generatedNativeLayout()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SampleFolderWriter::Options o;
        o.layout = SampleFolderWriter::kNativeLayout;
        const std::string root = SampleFolderWriter::write(dir.path().toStdString(), o);
        QVERIFY(root.ends_with(std::string("/") + SampleFolderWriter::kNativeFolderName));
        o.variant = "torch.rms_norm"; // what write() chose
        const std::vector<SampleFolderWriter::Execution> runs = SampleFolderWriter::executions(o);
        QCOMPARE(runs.size(), size_t(SampleFolderWriter::kActiveSteps));
        const std::string runRel = SampleFolderWriter::runFolder(o).substr(std::string(SampleFolderWriter::kNativeFolderName).size() + 1) + "/";
        const std::string runDir = root + "/" + runRel;
        QVERIFY(!QFileInfo::exists(QString::fromStdString(runDir + "system_profile.json")));
        for (const std::string &pb : SampleFolderWriter::nativeProtobufFiles())
            QVERIFY2(QFileInfo::exists(QString::fromStdString(runDir + pb)), pb.c_str());

        for (const std::string &open : {root, runDir}) {
            const std::string prefix = open == root ? runRel : std::string();
            const LoadResult r = TraceLoader::load(open);
            QVERIFY2(r.ok(), r.error.c_str());
            const Trace &t = *r.trace;
            // the framework trace's calls (ntrace.pb has its own nrt_execute of each)
            std::vector<std::pair<int64_t, int64_t>> calls, running;
            for (const Slice &s : t.allSlices()) {
                if (t.str(s.name) == "nrt_execute" && t.str(s.category) == "privateuse1_runtime")
                    calls.emplace_back(s.start, s.end());
                if (t.str(s.name) == "nc_exec_running" && t.str(s.category) == "neuron_hw")
                    running.emplace_back(s.start, s.end());
            }
            std::sort(calls.begin(), calls.end());
            std::sort(running.begin(), running.end());
            QCOMPARE(calls.size(), runs.size());
            QCOMPARE(running.size(), runs.size());
            for (const SampleFolderWriter::Execution &x : runs) {
                QVERIFY(x.neffFile.ends_with("_vnc_0.neff"));
                QCOMPARE(x.ntffFile, "profile_nc_0_session_" + std::to_string(x.step - 1) + ".ntff");
                const std::string *paired = meta(t, "file." + prefix + x.ntffFile);
                QVERIFY2(paired && paired->starts_with("paired with " + x.neffFile + " by uuid"), paired ? paired->c_str() : x.ntffFile.c_str());
                // at its nc_exec_running of ntrace.pb, exactly (the sync point of its execution), inside its call
                const std::string *al = meta(t, "alignment." + prefix + x.ntffFile);
                const auto [runStart, runEnd] = running[size_t(x.step - 1)];
                QVERIFY2(al && al->starts_with("sync points: placed at nc_exec_running ts=" + std::to_string(runStart) + " of "),
                         al ? al->c_str() : x.ntffFile.c_str());
                QVERIFY(runStart > calls[size_t(x.step - 1)].first && runEnd < calls[size_t(x.step - 1)].second);
                QVERIFY2(paired->find(ProfileFolderLoader::kAlignedSuffix) == std::string::npos, paired->c_str());
            }
            for (const std::string &pb : SampleFolderWriter::nativeProtobufFiles()) {
                const FileReport *pr = report(t, prefix + pb);
                QVERIFY2(pr, pb.c_str());
                QCOMPARE(pr->outcome, FileOutcome::Loaded);
            }
            QVERIFY(!t.diagnostics().hasWarnings());
            QCOMPARE(DeviceExecutions::build(t).all().size(), runs.size());
        }
    }

    void nativeLayoutRefusesManyPrograms()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SampleFolderWriter::Options o;
        o.layout = SampleFolderWriter::kNativeLayout;
        o.variant = "naive";
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, SampleFolderWriter::write(dir.path().toStdString(), o));
        o.variant.clear();
        o.layout = "flat";
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, SampleFolderWriter::write(dir.path().toStdString(), o));
    }
};

QTEST_GUILESS_MAIN(TestTorchNeuronLayouts)
#include "tst_torchneuronlayouts.moc"
