// ExportJob (File > Export as SQLite / as Parquet): the export runs off the GUI thread, reports progress
// and one finished() on the GUI thread; the Parquet export writes one file per table of the SQLite
// export (the same row source), with the trace's slice count in slices.parquet read back by Lanescope's
// Parquet reader; a failure names the file; cancel() stops it without a result left behind.
#include "smalltrace.h"

#include "io/parquet/parquettablereader.h"
#include "session/exportjob.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;

class TestExportJob : public QObject
{
    Q_OBJECT
private slots:
    void parquetFolder()
    {
        QTemporaryDir dir;
        const auto trace = test::loadSmallTrace(dir, 3000);
        QVERIFY(trace);
        ExportJob job;
        QSignalSpy done(&job, &ExportJob::finished);
        const QString out = dir.filePath(QStringLiteral("exported"));
        QVERIFY(job.start(trace, out, {}, ExportJob::Format::Parquet));
        QVERIFY(!job.start(trace, out, {}, ExportJob::Format::Parquet)); // one at a time
        QVERIFY(done.wait(60000));
        QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(2).toString()));
        QCOMPARE(done.at(0).at(1).toString(), out);
        const QStringList files = QDir(out).entryList({QStringLiteral("*.parquet")}, QDir::Files);
        for (const char *table : {"slices", "tracks", "args", "flows", "ops", "notes", "warnings"})
            QVERIFY2(files.contains(QStringLiteral("%1.parquet").arg(QLatin1String(table))), table);
        parquet::Table slices;
        std::string error;
        QVERIFY2(parquet::TableReader::read(QDir(out).filePath(QStringLiteral("slices.parquet")).toStdString(), &slices, &error),
                 error.c_str());
        QCOMPARE(slices.rows, uint64_t(3000)); // the events written above
        QVERIFY(!job.isRunning());
    }

    void sqliteFile()
    {
        QTemporaryDir dir;
        const auto trace = test::loadSmallTrace(dir, 500);
        QVERIFY(trace);
        ExportJob job;
        QSignalSpy done(&job, &ExportJob::finished);
        QSignalSpy progress(&job, &ExportJob::progress);
        const QString out = dir.filePath(QStringLiteral("t.db"));
        QVERIFY(job.start(trace, out)); // SQLite by default
        QVERIFY(done.wait(60000));
        QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(2).toString()));
        QVERIFY(QFileInfo(out).size() > 0);
        for (const auto &args : progress)
            QVERIFY(args.at(0).toInt() >= 0 && args.at(0).toInt() <= 1000);
    }

    void failureNamesTheFile()
    {
        QTemporaryDir dir;
        const auto trace = test::loadSmallTrace(dir, 10);
        QVERIFY(trace);
        QFile blocker(dir.filePath(QStringLiteral("blocker")));
        QVERIFY(blocker.open(QIODevice::WriteOnly)); // a file where the folder should go
        blocker.close();
        ExportJob job;
        QSignalSpy done(&job, &ExportJob::finished);
        QVERIFY(job.start(trace, blocker.fileName() + QStringLiteral("/out"), {}, ExportJob::Format::Parquet));
        QVERIFY(done.wait(60000));
        QVERIFY(!done.at(0).at(0).toBool());
        QVERIFY2(done.at(0).at(2).toString().contains(QStringLiteral("blocker")), qPrintable(done.at(0).at(2).toString()));
    }
};

QTEST_GUILESS_MAIN(TestExportJob)
#include "tst_exportjob.moc"
