// LoadJob: background loading delivers progress and the result on the GUI thread; cancel and a
// replacing start() drop stale results; errors come back as text naming the file.
#include "smalltrace.h"

#include "session/loadjob.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;

class TestLoadJob : public QObject
{
    Q_OBJECT
private slots:
    void loadsInBackground()
    {
        QTemporaryDir dir;
        const QString path = test::writeSmallTrace(dir, QStringLiteral("t.json"), 2000);
        LoadJob job;
        QSignalSpy done(&job, &LoadJob::finished);
        QSignalSpy progress(&job, &LoadJob::progress);
        job.start(path);
        QVERIFY(job.isRunning());
        QVERIFY(done.wait(20000));
        const auto trace = done.at(0).at(0).value<std::shared_ptr<const Trace>>();
        QVERIFY(trace);
        QCOMPARE(trace->allSlices().size(), size_t(2000));
        QVERIFY(!job.isRunning());
        for (const auto &args : progress) {
            const int p = args.at(0).toInt();
            QVERIFY(p >= 0 && p <= 1000);
        }
    }

    void errorNamesTheFile()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("bad.json")));
        f.open(QIODevice::WriteOnly);
        f.write("{\"nodes\":[]}");
        f.close();
        LoadJob job;
        QSignalSpy failed(&job, &LoadJob::failed);
        job.start(f.fileName());
        QVERIFY(failed.wait(20000));
        const QString err = failed.at(0).at(0).toString();
        QVERIFY2(err.contains(f.fileName()) && err.contains(QStringLiteral("traceEvents")), qPrintable(err));
    }

    void replacedJobIsDropped()
    {
        QTemporaryDir dir;
        const QString big = test::writeSmallTrace(dir, QStringLiteral("big.json"), 200000);
        const QString small = test::writeSmallTrace(dir, QStringLiteral("small.json"), 10);
        LoadJob job;
        QSignalSpy done(&job, &LoadJob::finished);
        job.start(big);
        job.start(small);
        QVERIFY(done.wait(30000));
        QTest::qWait(300); // a stale result of the first job would arrive here
        QCOMPARE(done.size(), 1);
        QCOMPARE(done.at(0).at(0).value<std::shared_ptr<const Trace>>()->allSlices().size(), size_t(10));
    }

    void cancel()
    {
        QTemporaryDir dir;
        const QString big = test::writeSmallTrace(dir, QStringLiteral("big.json"), 300000);
        LoadJob job;
        QSignalSpy cancelled(&job, &LoadJob::cancelled);
        QSignalSpy done(&job, &LoadJob::finished);
        job.start(big);
        job.cancel();
        QVERIFY(cancelled.wait(30000));
        QCOMPARE(done.size(), 0);
        QVERIFY(!job.isRunning());
    }
};

QTEST_MAIN(TestLoadJob)
#include "tst_loadjob.moc"
