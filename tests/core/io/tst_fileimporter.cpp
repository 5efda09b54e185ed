// FileImporter: one file recognised by content and read by its importer; every failure comes back as
// a LoadResult naming the file (and the byte offset where there is one), a cancel as `cancelled`,
// never as an exception. The multi-rank loader and TraceLoader both read single files through it.
#include "compress.h"
#include "corpus.h"
#include "filebytes.h"

#include "io/fileimporter.h"
#include "io/traceloader.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

} // namespace

class TestFileImporter : public QObject
{
    Q_OBJECT

private slots:
    void kinetoTrace()
    {
        QTemporaryDir dir;
        const QString path = test::writeFileIn(dir, QStringLiteral("t.json"), R"({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10.5, "dur": 4.25},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 20, "dur": 1}]})");
        const LoadResult r = FileImporter::load(path.toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->allSlices().size(), size_t(2));
        QCOMPARE(r.trace->startNs(), int64_t(10500));
        // TraceLoader reads a file the same way.
        QCOMPARE(TraceLoader::load(path.toStdString()).trace->allSlices().size(), size_t(2));
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << QStringLiteral(": at byte 0: file is empty; expected a trace");
        QTest::newRow("text") << QByteArray("hello, not a trace\n") << QStringLiteral(": at byte 0: unrecognised file format");
        // cut inside its first event: nothing to show (cut later, it loads what is complete: tst_kinetodiagnostics)
        QTest::newRow("cut JSON") << QByteArray("{\"traceEvents\": [{\"ph\": \"X\", \"na")
                                  << QStringLiteral(": at byte ");
    }
    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = test::writeFileIn(dir, QStringLiteral("bad.json"), bytes);
        const LoadResult r = FileImporter::load(path.toStdString());
        QVERIFY(!r.ok() && !r.cancelled);
        QVERIFY2(QString::fromStdString(r.error).startsWith(path + expected), r.error.c_str());
    }

    void missingFile()
    {
        const LoadResult r = FileImporter::load("/nonexistent/lanescope/trace.json");
        QVERIFY(!r.ok());
        QVERIFY2(r.error.starts_with("/nonexistent/lanescope/trace.json: "), r.error.c_str());
    }

    // run(): what a load throws becomes the result.
    void runTurnsThrowsIntoResults()
    {
        const LoadResult cancelled = FileImporter::run("x.json", []() -> Trace { throw LoadCancelled(); });
        QVERIFY(cancelled.cancelled && !cancelled.ok());
        QCOMPARE(cancelled.error, std::string("x.json: load cancelled"));
        const LoadResult bad = FileImporter::run("x.json", []() -> Trace { throw ImportError("x.json", 17, "expected ','"); });
        QCOMPARE(bad.error, std::string("x.json: at byte 17: expected ','"));
        const LoadResult memory = FileImporter::run("x.json", []() -> Trace { throw std::bad_alloc(); });
        QCOMPARE(memory.error, std::string("x.json: out of memory while loading"));
    }

    // A compressed file of another format is read from the stream that sniffed it: a real NTFF and a
    // real neuron-profile JSON, gzip and zstd, load exactly as the plain files do.
    void compressedOtherFormats_data()
    {
        QTest::addColumn<QString>("rel");
        QTest::addColumn<QString>("tool");
        for (const char *tool : {"gzip", "zstd"}) {
            QTest::addRow("ntff %s", tool) << QStringLiteral("neuron-profile-json/profile_128x128x256.ntff") << QString::fromLatin1(tool);
            QTest::addRow("neuron json %s", tool) << QStringLiteral("neuron-profile-json/profile_128x128x384.json") << QString::fromLatin1(tool);
        }
    }
    void compressedOtherFormats()
    {
        QFETCH(QString, rel);
        QFETCH(QString, tool);
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        QFile in(test::corpusFile(rel));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray plain = in.readAll();
        QTemporaryDir dir;
        const QString name = QFileInfo(rel).fileName();
        const QString plainPath = test::writeFileIn(dir, name, plain);
        const std::string bytes = plain.toStdString();
        const bool gzip = tool == QLatin1String("gzip");
        const QString packed = test::writeFileIn(dir, name + (gzip ? QStringLiteral(".gz") : QStringLiteral(".zst")),
                                         QByteArray::fromStdString(gzip ? test::gzipOf(bytes) : test::zstdOf(bytes)));
        const LoadResult a = FileImporter::load(plainPath.toStdString());
        const LoadResult b = FileImporter::load(packed.toStdString());
        QVERIFY2(a.ok(), a.error.c_str());
        QVERIFY2(b.ok(), b.error.c_str());
        QCOMPARE(b.trace->allSlices().size(), a.trace->allSlices().size());
        QVERIFY(a.trace->allSlices().size() > 100);
        QCOMPARE(b.trace->tracks().size(), a.trace->tracks().size());
        for (size_t i = 0; i < a.trace->allSlices().size(); ++i) {
            const Slice &x = a.trace->allSlices()[i], &y = b.trace->allSlices()[i];
            QVERIFY(x.start == y.start && x.duration == y.duration && a.trace->str(x.name) == b.trace->str(y.name));
        }
        QCOMPARE(b.trace->metadata().format, a.trace->metadata().format);
    }

    // A real corpus trace loads whole through it.
    void corpusFile()
    {
        const QString rel = QStringLiteral("hta/trace_filter__sampled_rank-1.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const LoadResult r = FileImporter::load(test::corpusFile(rel).toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.trace->metadata().find("distributedInfo"));
    }
};

QTEST_GUILESS_MAIN(TestFileImporter)
#include "tst_fileimporter.moc"
