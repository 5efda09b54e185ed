// ProfileFolder: naming variants of formats.md section 1, recognition by content, NEFF <-> NTFF pairing
// (uuid first, name hash second, never by guess), grouping by process folder / rank, and a walk that
// survives symbolic-link loops, FIFOs, unreadable files and deep trees. Real NEFF/NTFF pairs of the
// corpus are used through symbolic links in a temporary folder (never copied into the repository).
#include "corpus.h"
#include "io/folder/folderscan.h"
#include "io/folder/profilefolder.h"
#include "io/formats.h"
#include "io/synthetic/neffwriter.h"
#include "io/synthetic/ntffwriter.h"
#include "io/traceloader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <atomic>
#include <set>

#include <sys/stat.h>
#include <unistd.h>

using namespace lanescope;

#include "compress.h"
#include "filebytes.h"
using lanescope::test::gzipOf;

namespace {

std::string ntffBytes(const std::string &uuid, const std::string &neffName = "graph.neff")
{
    NtffProfile layout;
    layout.uuid = uuid;
    layout.neffName = neffName;
    layout.subgraphName = "sg00";
    layout.programs.push_back(NtffWriter::makeProgram(NtffEngine::Tensor, {0xa6, 0xa4, 0xa6}, {2, 0, 3}));
    NtffWriter w(layout);
    w.addInstruction(NtffEngine::Tensor, 0, 1'000'000, 1'100'000);
    w.addInstruction(NtffEngine::Tensor, 1, 1'200'000, 1'300'000);
    w.addInstruction(NtffEngine::Tensor, 2, 1'400'000, 1'500'000);
    return w.bytes();
}

std::string neffBytes(const std::string &uuid)
{
    NeffWriter w;
    w.setUuid(uuid);
    return w.bytes();
}

const FolderFile &fileAt(const ProfileFolder &pf, const char *rel)
{
    const int i = pf.find(rel);
    if (i < 0)
        qFatal("not listed: %s", rel);
    return pf.files()[size_t(i)];
}

const std::string kUuidA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const std::string kUuidB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const std::string kUuidC = "cccccccccccccccccccccccccccccccc";
const std::string kZero(32, '0');

} // namespace

class TestProfileFolder : public QObject
{
    Q_OBJECT

private slots:
    void namingVariants_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("hash");
        QTest::addColumn<qint64>("instance");
        QTest::addColumn<qint64>("core");
        QTest::addColumn<qint64>("session");
        QTest::addColumn<qint64>("rank");
        QTest::addColumn<qint64>("exec");
        QTest::addColumn<QString>("instanceId");
        QTest::addColumn<qint64>("pid");
        auto row = [](const char *tag, const char *path, const char *pattern, const char *hash, qint64 inst, qint64 core,
                      qint64 session, qint64 rank, qint64 exec, const char *iid, qint64 pid) {
            QTest::newRow(tag) << QString::fromUtf8(path) << QString::fromUtf8(pattern) << QString::fromUtf8(hash) << inst
                               << core << session << rank << exec << QString::fromUtf8(iid) << pid;
        };
        row("inspect neff", "neff_1234567890.neff", "neff_<H>.neff", "1234567890", -1, -1, -1, -1, -1, "", -1);
        row("inspect ntff", "1234567890_instid_0_vnc_3.ntff", "<H>_instid_<I>_vnc_<N>.ntff", "1234567890", 0, 3, -1, -1, -1, "", -1);
        row("vnc neff", "neff_77_vnc_1.neff", "neff_<H>_vnc_<N>.neff", "77", -1, 1, -1, -1, -1, "", -1);
        row("vnc ntff", "77_vnc_2.ntff", "<H>_vnc_<M>.ntff", "77", -1, 2, -1, -1, -1, "", -1);
        row("session", "i-0abc_pid_99/1700000000/profile_nc_1_session_4.ntff", "profile_nc_<N>_session_<S>.ntff", "", -1, 1, 4,
            -1, -1, "i-0abc", 99);
        row("session neff", "i-0abc_pid_99/1700000000/neff_5_vnc_0.neff", "neff_<H>_vnc_<N>.neff", "5", -1, 0, -1, -1, -1,
            "i-0abc", 99);
        row("vllm", "out/neffs/graph_abc123.neff", "neffs/graph_<H>.neff", "abc123", -1, -1, -1, -1, -1, "", -1);
        row("graph elsewhere", "graph_42.neff", "graph_<H>.neff", "42", -1, -1, -1, -1, -1, "", -1);
        row("rank", "profile_rank_3.ntff", "profile_rank_<i>.ntff", "", -1, -1, -1, 3, -1, "", -1);
        row("exec", "profile_exec_12.ntff", "profile_exec_<N>.ntff", "", -1, -1, -1, -1, 12, "", -1);
        row("cli", "profile.ntff", "<name>.ntff", "", -1, -1, -1, -1, -1, "", -1);
        row("cli neff", "file.neff", "<name>.neff", "", -1, -1, -1, -1, -1, "", -1);
        row("framework rank", "neuron_framework_trace_rank_2.json", "neuron_framework_trace_rank_<N>.json", "", -1, -1, -1, 2,
            -1, "", -1);
        row("compressed", "neuron_framework_trace_rank_5.json.gz", "neuron_framework_trace_rank_<N>.json", "", -1, -1, -1, 5,
            -1, "", -1);
        row("pid folder", "i-0123456789abcdef0_pid_31337/trace.json", "", "", -1, -1, -1, -1, -1, "i-0123456789abcdef0", 31337);
        row("nested pid", "run/ip-10-0-0-1_pid_7/2025/neff_9.neff", "neff_<H>.neff", "9", -1, -1, -1, -1, -1, "ip-10-0-0-1", 7);
        row("not a hash", "profile_vnc_0.ntff", "<name>.ntff", "", -1, -1, -1, -1, -1, "", -1);
        row("plain json", "trace.json", "", "", -1, -1, -1, -1, -1, "", -1);
        // Edges of the hand-written matcher that replaced the regular expressions (checked against them
        // on 2 million generated names when it was written).
        row("only an extension", ".neff", "", "", -1, -1, -1, -1, -1, "", -1);
        row("hash then text", "neff_abc_vnc_1x.neff", "<name>.neff", "", -1, -1, -1, -1, -1, "", -1);
        row("empty hash", "neff_.neff", "<name>.neff", "", -1, -1, -1, -1, -1, "", -1);
        row("last pid wins", "a_pid_1_pid_2/x.json", "", "", -1, -1, -1, -1, -1, "a_pid_1", 2);
        row("pid needs an id", "_pid_5/x.json", "", "", -1, -1, -1, -1, -1, "", -1);
        row("pid needs digits", "a_pid_/x.json", "", "", -1, -1, -1, -1, -1, "", -1);
        row("pid digits to the end", "a_pid_12x/x.json", "", "", -1, -1, -1, -1, -1, "", -1);
        row("huge core", "77_vnc_12345678901234567890.ntff", "<H>_vnc_<M>.ntff", "77", -1, -1, -1, -1, -1, "", -1);
    }

    void namingVariants()
    {
        QFETCH(QString, path);
        const FolderNameInfo n = ProfileFolder::parseName(path.toStdString());
        QTEST(QString::fromStdString(n.pattern), "pattern");
        QTEST(QString::fromStdString(n.hash), "hash");
        QTEST(qint64(n.instanceIndex), "instance");
        QTEST(qint64(n.core), "core");
        QTEST(qint64(n.session), "session");
        QTEST(qint64(n.rank), "rank");
        QTEST(qint64(n.exec), "exec");
        QTEST(QString::fromStdString(n.instanceId), "instanceId");
        QTEST(qint64(n.pid), "pid");
    }

    void recognisedByContent()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string kineto = R"({"schemaVersion": 1, "traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]})";
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("trace.json")), kineto));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("rank0.pt.trace.json.gz")), gzipOf(kineto)));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("array.json")), R"([{"ph": "B", "name": "x", "ts": 1, "pid": 1, "tid": 1})"));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("config.json")), R"({"learning_rate": 0.1})"));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("system_profile.json")), R"({"trace_events": [{"timestamp": 1, "name": "nrt_execute"}]})"));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("export.json")),
                  R"({"nc_mem_usage": [], "metadata": [{"ntff_version": 5, "first_hw_timestamp": 0}], "neff_header": [{"uuid": "CCCCCCCC-cccc-cccc-cccc-cccccccccccc"}]})"));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("ntrace.pb")), std::string("\x0a\x03\x01\x02\x03", 5)));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("cpu_util.pb")), std::string("\x08\x01", 2)));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("notes.txt")), "hello"));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("empty.json")), ""));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("renamed.bin")), ntffBytes(kUuidC))); // an NTFF by content, whatever its name
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("fake.neff")), "not a neff at all"));

        const ProfileFolder pf = ProfileFolder::scan(dir.path().toStdString());
        QCOMPARE(pf.files().size(), size_t(12));
        QCOMPARE(fileAt(pf, "trace.json").kind, FileFormat::ChromeJson);
        QCOMPARE(fileAt(pf, "trace.json").status, FileOutcome::Loaded);
        QCOMPARE(fileAt(pf, "rank0.pt.trace.json.gz").kind, FileFormat::ChromeJson);
        QCOMPARE(fileAt(pf, "rank0.pt.trace.json.gz").compression, std::string("gzip"));
        QCOMPARE(fileAt(pf, "array.json").kind, FileFormat::ChromeJson);
        QCOMPARE(fileAt(pf, "config.json").status, FileOutcome::Ignored);
        QVERIFY(fileAt(pf, "config.json").detail.find("not a trace") != std::string::npos);
        QCOMPARE(fileAt(pf, "system_profile.json").kind, FileFormat::SystemProfileJson);
        QCOMPARE(fileAt(pf, "system_profile.json").status, FileOutcome::Loaded);
        // ntrace.pb by its name (protobuf has no magic number), loaded with its session files; those are
        // listed as read with it (the loader says what it did with them: tst_ntracefolder)
        QCOMPARE(fileAt(pf, "ntrace.pb").kind, FileFormat::NeuronTrace);
        QCOMPARE(fileAt(pf, "ntrace.pb").status, FileOutcome::Loaded);
        QCOMPARE(fileAt(pf, "cpu_util.pb").kind, FileFormat::NeuronProtobuf);
        QCOMPARE(fileAt(pf, "cpu_util.pb").status, FileOutcome::Ignored);
        QVERIFY(fileAt(pf, "cpu_util.pb").detail.find("ntrace.pb") != std::string::npos);
        QCOMPARE(fileAt(pf, "notes.txt").status, FileOutcome::Ignored);
        QVERIFY(fileAt(pf, "notes.txt").detail.starts_with("text file"));
        QCOMPARE(fileAt(pf, "empty.json").detail, std::string("empty file"));
        QCOMPARE(fileAt(pf, "renamed.bin").kind, FileFormat::Ntff);
        QCOMPARE(fileAt(pf, "renamed.bin").uuid, kUuidC);
        QCOMPARE(fileAt(pf, "renamed.bin").neffName, std::string("graph.neff"));
        QCOMPARE(fileAt(pf, "fake.neff").kind, FileFormat::Unknown);
        QVERIFY(fileAt(pf, "fake.neff").detail.find("not a NEFF header") != std::string::npos);
        // The neuron-profile export of the NTFF that is here too: the NTFF is loaded instead.
        QCOMPARE(fileAt(pf, "export.json").kind, FileFormat::NeuronProfileJson);
        QCOMPARE(fileAt(pf, "export.json").uuid, kUuidC);
        QCOMPARE(fileAt(pf, "export.json").status, FileOutcome::Ignored);
        QVERIFY(fileAt(pf, "export.json").detail.find("renamed.bin") != std::string::npos);
        for (const FolderFile &f : pf.files())
            QVERIFY2(!f.detail.empty() || f.status == FileOutcome::Loaded, f.relativePath.c_str()); // nothing silent
    }

    void deviceProfileModelRecognisedByName()
    {
        // `neuron-profile view --output-format json` beside system_profile.json writes device_profile_model_<id>.json.
        // A real export whose known keys all sit past the probed 4 MiB (a long first field): recognised by its
        // name, loaded as a device timeline; the same bytes under another name stay unknown.
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json/profile_128x128x384.json"));
        QFile src(lanescope::test::corpusFile(QStringLiteral("neuron-profile-json/profile_128x128x384.json")));
        QVERIFY(src.open(QIODevice::ReadOnly));
        const QByteArray original = src.readAll();
        QVERIFY(original.startsWith('{'));
        const std::string padded = "{\"exporter_note\": \"" + std::string(FolderScan::kJsonProbeBytes + 1024, 'x') + "\", " +
                                   original.mid(1).toStdString();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("device_profile_model_3.json")), padded));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("other.json")), padded));
        const ProfileFolder pf = ProfileFolder::scan(dir.path().toStdString());
        QCOMPARE(fileAt(pf, "device_profile_model_3.json").kind, FileFormat::NeuronProfileJson);
        QCOMPARE(fileAt(pf, "device_profile_model_3.json").status, FileOutcome::Loaded);
        QCOMPARE(fileAt(pf, "other.json").kind, FileFormat::Unknown);
        QCOMPARE(fileAt(pf, "other.json").status, FileOutcome::Ignored);
        QVERIFY(Formats::isNeuronProfileExportName("device_profile_model_12.json"));
        QVERIFY(!Formats::isNeuronProfileExportName("device_profile_model_.json"));
        QVERIFY(!Formats::isNeuronProfileExportName("device_profile_model_1.json.txt"));
        const LoadResult r = TraceLoader::load(dir.path().toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.trace->stats().categories.at("instruction") > 0);
        bool core = false;
        for (const TrackGroup &g : r.trace->groups())
            core = core || g.kind == GroupKind::NeuronCore;
        QVERIFY(core);
    }

    void uuidBeatsNames()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("neff_111.neff")), neffBytes(kUuidA)));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("neff_222.neff")), neffBytes(kUuidB)));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("111_instid_0_vnc_0.ntff")), ntffBytes(kUuidB))); // name says 111, uuid says 222
        const ProfileFolder pf = ProfileFolder::scan(dir.path().toStdString());
        const FolderFile &ntff = fileAt(pf, "111_instid_0_vnc_0.ntff");
        QCOMPARE(ntff.status, FileOutcome::Paired);
        QCOMPARE(ntff.pairedBy, PairedBy::Uuid);
        QCOMPARE(pf.files()[size_t(ntff.pairedWith.at(0))].relativePath, std::string("neff_222.neff"));
        QCOMPARE(pf.statusText(ntff), std::string("paired with neff_222.neff by uuid"));
        const FolderFile &n111 = fileAt(pf, "neff_111.neff");
        QCOMPARE(n111.status, FileOutcome::Unpaired);
        QVERIFY2(n111.detail.find("has the hash in its name but uuid " + kUuidB) != std::string::npos, n111.detail.c_str());
        QCOMPARE(fileAt(pf, "neff_222.neff").status, FileOutcome::Paired);
    }

    void nameHashOnlyWhenUuidUnknown()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("neff_333_vnc_0.neff")), neffBytes(kUuidC)));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("333_vnc_1.ntff")), ntffBytes(kZero))); // no uuid recorded
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("neff_444.neff")), neffBytes(kUuidA)));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("444_vnc_0.ntff")), ntffBytes(kUuidB))); // both known, different: no pair
        const ProfileFolder pf = ProfileFolder::scan(dir.path().toStdString());
        const FolderFile &a = fileAt(pf, "333_vnc_1.ntff");
        QCOMPARE(a.status, FileOutcome::Paired);
        QCOMPARE(a.pairedBy, PairedBy::NameHash);
        QVERIFY(pf.statusText(a).find("by the hash in the names") != std::string::npos);
        const FolderFile &b = fileAt(pf, "444_vnc_0.ntff");
        QCOMPARE(b.status, FileOutcome::Unpaired);
        QVERIFY2(b.detail.find("no NEFF in the folder has its uuid " + kUuidB) != std::string::npos, b.detail.c_str());
        QVERIFY2(b.detail.find("neff_444.neff has the hash 444 in its name but uuid " + kUuidA) != std::string::npos, b.detail.c_str());
        QCOMPARE(fileAt(pf, "neff_444.neff").status, FileOutcome::Unpaired);
    }

    void oneNeffManyCoresAndGroups()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString p1 = QStringLiteral("i-0abc_pid_100/1700000000/"), p2 = QStringLiteral("i-0abc_pid_200/");
        QVERIFY(test::writeFile(dir.filePath(p1 + QStringLiteral("neff_5.neff")), neffBytes(kUuidA)));
        QVERIFY(test::writeFile(dir.filePath(p1 + QStringLiteral("5_instid_0_vnc_0.ntff")), ntffBytes(kUuidA)));
        QVERIFY(test::writeFile(dir.filePath(p1 + QStringLiteral("5_instid_0_vnc_1.ntff")), ntffBytes(kUuidA)));
        QVERIFY(test::writeFile(dir.filePath(p2 + QStringLiteral("neff_5.neff")), neffBytes(kUuidA))); // same program in another process
        QVERIFY(test::writeFile(dir.filePath(p2 + QStringLiteral("profile_nc_0_session_0.ntff")), ntffBytes(kUuidA, "/tmp/neff_5.neff")));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("profile_rank_1.ntff")), ntffBytes(kUuidB)));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("neuron_framework_trace_rank_1.json")), R"({"traceEvents": []})"));
        const ProfileFolder pf = ProfileFolder::scan(dir.path().toStdString());
        const FolderFile &n1 = fileAt(pf, "i-0abc_pid_100/1700000000/neff_5.neff");
        QCOMPARE(n1.pairedWith.size(), size_t(2)); // one per core
        const FolderFile &s = fileAt(pf, "i-0abc_pid_200/profile_nc_0_session_0.ntff");
        QCOMPARE(pf.files()[size_t(s.pairedWith.at(0))].relativePath, std::string("i-0abc_pid_200/neff_5.neff")); // same folder first
        QCOMPARE(pf.groups().size(), size_t(3));
        std::set<std::string> labels;
        for (const FolderGroup &g : pf.groups())
            labels.insert(g.label);
        QVERIFY(labels.count("i-0abc (pid 100)"));
        QVERIFY(labels.count("i-0abc (pid 200)"));
        QVERIFY(labels.count("rank 1"));
        const FolderFile &r = fileAt(pf, "profile_rank_1.ntff");
        QCOMPARE(pf.groups()[size_t(r.group)].rank, int64_t(1));
        QCOMPARE(fileAt(pf, "neuron_framework_trace_rank_1.json").group, r.group);
        QCOMPARE(r.status, FileOutcome::Unpaired);
        QVERIFY2(r.detail.find("it was recorded for 'graph.neff'") != std::string::npos, r.detail.c_str());
    }

    void realCs149Folder()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QDir corpus(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4")));
        const QStringList names = corpus.entryList(QDir::Files);
        QVERIFY(names.size() >= 8);
        for (const QString &n : names)
            QVERIFY(QFile::link(corpus.filePath(n), dir.filePath(n)));
        const ProfileFolder pf = ProfileFolder::scan(dir.path().toStdString());
        QCOMPARE(pf.files().size(), size_t(names.size()));
        for (const char *stem : {"stream_256k_fd1k", "stream_256k_fd2k"}) {
            const FolderFile &ntff = fileAt(pf, (std::string(stem) + ".ntff").c_str());
            const FolderFile &neff = fileAt(pf, (std::string(stem) + ".neff").c_str());
            QCOMPARE(ntff.kind, FileFormat::Ntff);
            QCOMPARE(neff.kind, FileFormat::Neff);
            QCOMPARE(ntff.status, FileOutcome::Paired);
            QCOMPARE(ntff.pairedBy, PairedBy::Uuid);
            QCOMPARE(ntff.uuid, neff.uuid);
            QCOMPARE(pf.files()[size_t(ntff.pairedWith.at(0))].relativePath, neff.relativePath);
            QCOMPARE(pf.statusText(neff), "paired with " + std::string(stem) + ".ntff by uuid");
        }
        QCOMPARE(fileAt(pf, "stream_256k_fd1k.ntff").uuid, std::string("3e35b3d8249d4b1599fa3691933d7c87"));
        int part2 = 0;
        for (const FolderFile &f : pf.files())
            if (f.relativePath.starts_with("part2_")) {
                ++part2;
                QCOMPARE(f.kind, FileFormat::Neff);
                QCOMPARE(f.status, FileOutcome::Unpaired);
                QVERIFY2(f.detail.find("no NTFF in the folder has its uuid " + f.uuid) != std::string::npos, f.detail.c_str());
                QVERIFY(pf.statusText(f).starts_with("unpaired: "));
            }
        QCOMPARE(part2, 4);
    }

    void hostileWalkDoesNotHang()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString sub = dir.filePath(QStringLiteral("a/b"));
        QVERIFY(QDir().mkpath(sub));
        QVERIFY(QFile::link(dir.path(), sub + QStringLiteral("/loop")));               // back to the root
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("a")), sub + QStringLiteral("/up"))); // back to an ancestor
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("self")), dir.filePath(QStringLiteral("self")))); // resolves to itself
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("gone")), dir.filePath(QStringLiteral("dangling"))));
        QVERIFY(::mkfifo(dir.filePath(QStringLiteral("fifo")).toLocal8Bit().constData(), 0600) == 0);
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("a/trace.json")), R"({"traceEvents": []})"));
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("a/trace.json")), dir.filePath(QStringLiteral("alias.json"))));
        QString deep = dir.filePath(QStringLiteral("d"));
        for (int i = 0; i < ProfileFolder::kMaxDepth + 2; ++i)
            deep += QStringLiteral("/d");
        QVERIFY(QDir().mkpath(deep));
        QVERIFY(test::writeFile(deep + QStringLiteral("/deep.json"), R"({"traceEvents": []})"));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral(".git/objects"))));

        const ProfileFolder pf = ProfileFolder::scan(dir.path().toStdString());
        QVERIFY(pf.find("a/b/loop/") >= 0);
        QVERIFY(fileAt(pf, "a/b/loop/").detail.find("symbolic link loop") != std::string::npos);
        QVERIFY(fileAt(pf, "a/b/up/").detail.find("symbolic link loop back to a") != std::string::npos);
        QCOMPARE(fileAt(pf, "self").status, FileOutcome::NotReadable);
        QCOMPARE(fileAt(pf, "dangling").status, FileOutcome::NotReadable);
        QVERIFY(fileAt(pf, "dangling").detail.find("broken symbolic link") != std::string::npos);
        QCOMPARE(fileAt(pf, "fifo").status, FileOutcome::Ignored);
        QVERIFY(fileAt(pf, "fifo").detail.find("FIFO") != std::string::npos);
        QCOMPARE(fileAt(pf, "a/trace.json").status, FileOutcome::Loaded);
        QCOMPARE(fileAt(pf, "alias.json").status, FileOutcome::Ignored); // the same file twice is listed once
        QVERIFY(fileAt(pf, ".git/").detail.find("hidden") != std::string::npos);
        bool tooDeep = false;
        for (const FolderFile &f : pf.files())
            tooDeep = tooDeep || f.detail.find("deeper than") != std::string::npos;
        QVERIFY(tooDeep);
        QVERIFY(pf.diagnostics().count("symbolic link loops (not followed)") >= 2);
        QCOMPARE(pf.diagnostics().count("folders deeper than the scan depth (not scanned)"), uint64_t(1));
    }

    // As root, chmod 000 does not stop reading: the scan then runs with the effective uid of "nobody"
    // (restored right after), so the permission check is real either way.
    void unreadableFileAndFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("secret.ntff"));
        QVERIFY(test::writeFile(path, ntffBytes(kUuidA)));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("locked"))));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("locked/trace.json")), R"({"traceEvents": []})"));
        QVERIFY(::chmod(path.toLocal8Bit().constData(), 0) == 0);
        QVERIFY(::chmod(dir.filePath(QStringLiteral("locked")).toLocal8Bit().constData(), 0) == 0);
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0755) == 0);
        struct Restore
        {
            QString file, folder;
            uid_t uid = ::geteuid();
            bool switched = false;
            ~Restore()
            {
                if (switched && ::seteuid(uid) != 0)
                    qFatal("cannot restore the effective uid");
                ::chmod(file.toLocal8Bit().constData(), 0600);
                ::chmod(folder.toLocal8Bit().constData(), 0700);
            }
        } restore{path, dir.filePath(QStringLiteral("locked"))};
        if (::geteuid() == 0) {
            if (::seteuid(65534) != 0)
                QSKIP("running as root and cannot switch to uid 65534: the unreadable case cannot be checked here");
            restore.switched = true;
        }
        const ProfileFolder pf = ProfileFolder::scan(dir.path().toStdString());
        if (restore.switched) {
            QVERIFY(::seteuid(restore.uid) == 0);
            restore.switched = false;
        }
        QCOMPARE(pf.files().size(), size_t(2));
        const FolderFile &f = fileAt(pf, "secret.ntff");
        QCOMPARE(f.status, FileOutcome::NotReadable);
        QVERIFY2(f.detail.find("cannot open: Permission denied") != std::string::npos, f.detail.c_str());
        const FolderFile &d = fileAt(pf, "locked/");
        QCOMPARE(d.status, FileOutcome::NotReadable);
        QVERIFY2(d.detail.find("cannot read folder") != std::string::npos, d.detail.c_str());
        QCOMPARE(pf.diagnostics().count("folders that cannot be read (skipped)"), uint64_t(1));
    }

    void notAFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("x.json")), "{}"));
        QVERIFY_THROWS_EXCEPTION(ImportError, ProfileFolder::scan(dir.filePath(QStringLiteral("x.json")).toStdString()));
        QVERIFY_THROWS_EXCEPTION(ImportError, ProfileFolder::scan(dir.filePath(QStringLiteral("missing")).toStdString()));
        const ProfileFolder empty = ProfileFolder::scan(dir.filePath(QStringLiteral(".")).toStdString());
        QCOMPARE(empty.files().size(), size_t(1));
    }

    void cancel()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("x.json")), "{}"));
        std::atomic<bool> stop{true};
        LoadOptions o;
        o.cancel = &stop;
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, ProfileFolder::scan(dir.path().toStdString(), o));
    }

    // The typed report and its one-line text (what `file.<path>` and the SQLite files table print).
    void reportText()
    {
        QCOMPARE(FileReport({"x.ntff", FileFormat::Ntff, FileOutcome::Paired, "paired with x by uuid"}).text(),
                 std::string("paired with x by uuid"));
        QCOMPARE(FileReport({"x", FileFormat::Ntff, FileOutcome::Unpaired, "no NEFF"}).text(), std::string("unpaired: no NEFF"));
        QCOMPARE(FileReport({"x", FileFormat::NeuronProtobuf, FileOutcome::NotReadable, "schema"}).text(),
                 std::string("not readable: schema"));
        QCOMPARE(FileReport({"x", FileFormat::Unknown, FileOutcome::Ignored, "empty file"}).text(), std::string("ignored: empty file"));
        QCOMPARE(FileReport({"x", FileFormat::ChromeJson, FileOutcome::Loaded, "as 'x'"}).text(), std::string("loaded: as 'x'"));
        QCOMPARE(FileReport({"x", FileFormat::ChromeJson, FileOutcome::Loaded, ""}).text(), std::string("loaded"));
        QCOMPARE(std::string(fileOutcomeName(FileOutcome::NotReadable)), std::string("not_readable"));
        QCOMPARE(std::string(Formats::folderKind(FileFormat::ChromeJson)), std::string("chrome-trace"));
        QCOMPARE(std::string(Formats::folderKind(FileFormat::Unknown)), std::string("other"));
    }
};

QTEST_GUILESS_MAIN(TestProfileFolder)
#include "tst_profilefolder.moc"
