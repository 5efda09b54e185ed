// ExecutionNeff (core/analysis/executionneff.h): the NEFF behind a device execution, on the bundled
// sample folder (NEFF/NTFF pairs written by NeffWriter/NtffWriter and loaded through the real folder
// loader), on a corpus NEFF/NTFF pair, and nothing for a GPU trace.
#include "corpus.h"

#include "analysis/executionneff.h"
#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace lanescope;

namespace {

// The first slice on a track whose group path contains `group` and whose name is `name` (empty: any).
SliceId firstSlice(const Trace &t, std::string_view group, std::string_view name = {})
{
    for (uint32_t tr = 0; tr < t.tracks().size(); ++tr) {
        if (t.groupPath(t.tracks()[tr].group).find(group) == std::string::npos)
            continue;
        const auto sl = t.slices(TrackId(tr));
        for (uint32_t i = 0; i < sl.size(); ++i)
            if (name.empty() || t.str(sl[i].name) == name)
                return t.sliceId(TrackId(tr), i);
    }
    return {};
}

} // namespace

class TestExecutionNeff : public QObject
{
    Q_OBJECT

private slots:
    void sampleFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SampleFolderWriter::write(dir.path().toStdString());
        const QString folder = dir.filePath(QString::fromStdString(SampleFolderWriter::runFolder()));
        const LoadResult r = TraceLoader::load(folder.toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        std::set<std::string> neffFiles;
        for (const auto &e : SampleFolderWriter::executions())
            neffFiles.insert(e.neffFile);

        // an instruction of a device timeline: the NEFF paired with its NTFF
        const SliceId instruction = firstSlice(t, "NeuronCore");
        QVERIFY(instruction.isValid());
        const std::string neff = ExecutionNeff::find(t, instruction);
        QVERIFY2(!neff.empty(), t.groupPath(t.track(t.trackOfSlice(instruction)).group).c_str());
        QVERIFY2(neffFiles.count(QFileInfo(QString::fromStdString(neff)).fileName().toStdString()), neff.c_str());
        QVERIFY(QFileInfo::exists(QString::fromStdString(neff)));
        QCOMPARE(QFileInfo(QString::fromStdString(neff)).absolutePath(), QFileInfo(folder).absoluteFilePath());

        // a host execution event (system trace's nc_exec_running): the NEFF of the timeline it starts,
        // one per execution (18: 6 per step), six different programs
        std::set<std::string> fromHost;
        int hostEvents = 0;
        for (uint32_t i = 0; i < t.allSlices().size(); ++i) {
            if (t.str(t.allSlices()[i].name) != "nc_exec_running")
                continue;
            const std::string n = ExecutionNeff::find(t, SliceId(i));
            if (n.empty())
                continue; // the framework trace's copy of the event; the system trace's one starts the timeline
            ++hostEvents;
            QVERIFY(!ExecutionNeff::deviceGroup(t, SliceId(i)).value ||
                    t.group(ExecutionNeff::deviceGroup(t, SliceId(i))).kind == GroupKind::NeuronCore);
            fromHost.insert(QFileInfo(QString::fromStdString(n)).fileName().toStdString());
        }
        QCOMPARE(hostEvents, int(SampleFolderWriter::executions().size()));
        QCOMPARE(fromHost, neffFiles);

        // a framework op is no device execution
        const SliceId op = firstSlice(t, "framework", "aten::pow");
        QVERIFY(op.isValid());
        QCOMPARE(ExecutionNeff::find(t, op), std::string());
        QCOMPARE(ExecutionNeff::find(t, SliceId()), std::string());
    }

    void corpusPairInAFolder()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff"));
        QTemporaryDir dir;
        for (const char *f : {"stream_256k_fd1k.ntff", "stream_256k_fd1k.neff"})
            QVERIFY(QFile::link(test::corpusFile(QStringLiteral("neuron-cs149-asst4/") + QLatin1String(f)),
                                dir.filePath(QLatin1String(f))));
        const LoadResult r = TraceLoader::load(dir.path().toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const SliceId instruction = firstSlice(*r.trace, "NeuronCore");
        QVERIFY(instruction.isValid());
        QCOMPARE(QFileInfo(QString::fromStdString(ExecutionNeff::find(*r.trace, instruction))).fileName(),
                 QStringLiteral("stream_256k_fd1k.neff"));
    }

    void gpuTraceHasNone()
    {
        const LoadResult r = TraceLoader::load(LANESCOPE_TEST_DATA "/cli_info_small.json");
        QVERIFY2(r.ok(), r.error.c_str());
        for (uint32_t i = 0; i < r.trace->allSlices().size(); ++i)
            QCOMPARE(ExecutionNeff::find(*r.trace, SliceId(i)), std::string());
    }
};

QTEST_GUILESS_MAIN(TestExecutionNeff)
#include "tst_executionneff.moc"
