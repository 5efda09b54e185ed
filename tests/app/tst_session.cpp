// Session: loads in the background and shows the result; a failed or cancelled load keeps the trace
// that was open; a replaced load never reports; a NEFF is read off the GUI thread and announced once;
// selection and ranges are said once per change.
#include "session.h"
#include "smalltrace.h"

#include "io/neff/neffinfo.h"
#include "io/parquet/parquetfilewriter.h"
#include "io/synthetic/samplefolderwriter.h"
#include "model/trace.h"

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

class TestSession : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_good, m_big, m_neffA, m_neffB;

    // Opens `path` and waits for the outcome; returns loadFinished's arguments.
    static QList<QVariant> open(Session &s, const QString &path)
    {
        QSignalSpy finished(&s, &Session::loadFinished);
        s.open(path);
        if (!finished.wait(30000))
            return {};
        return finished.takeFirst();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_good = test::writeSmallTrace(m_dir, QStringLiteral("good.json"), 100);
        m_big = test::writeSmallTrace(m_dir, QStringLiteral("big.json"), 300000);
        SampleFolderWriter::write(m_dir.path().toStdString());
        const auto executions = SampleFolderWriter::executions();
        QVERIFY(executions.size() >= 2);
        const QString run = m_dir.filePath(QString::fromStdString(SampleFolderWriter::runFolder())) + QLatin1Char('/');
        m_neffA = run + QString::fromStdString(executions[0].neffFile);
        m_neffB = run + QString::fromStdString(executions[1].neffFile);
        QVERIFY2(QFile::exists(m_neffA), qPrintable(m_neffA));
    }

    void loadsAFile()
    {
        Session s;
        QSignalSpy changed(&s, &Session::traceChanged);
        QSignalSpy started(&s, &Session::loadStarted);
        QSignalSpy busy(&s, &Session::busyChanged);
        QCOMPARE(open(s, m_good).value(0).toBool(), true);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(started.size(), 1);
        QVERIFY(s.trace());
        QCOMPARE(s.trace()->allSlices().size(), size_t(100));
        QCOMPARE(s.currentPath(), m_good);
        QCOMPARE(s.title(), QStringLiteral("good.json"));
        QVERIFY(!s.isLoading());
        QVERIFY(busy.size() >= 2);
        QCOMPARE(busy.first().value(0).toBool(), true);
        QCOMPARE(busy.last().value(0).toBool(), false);
    }

    void failureKeepsPreviousTrace()
    {
        Session s;
        s.setQuietErrors(true); // stderr, no message box
        QCOMPARE(open(s, m_good).value(0).toBool(), true);
        const auto kept = s.trace();
        const QString bad = m_dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"nodes\":[]}");
        f.close();
        QSignalSpy failed(&s, &Session::loadFailed);
        QSignalSpy changed(&s, &Session::traceChanged);
        QSignalSpy status(&s, &Session::statusMessage);
        const QList<QVariant> r = open(s, bad);
        QCOMPARE(r.value(0).toBool(), false);
        QVERIFY2(r.value(1).toString().contains(bad), qPrintable(r.value(1).toString()));
        QCOMPARE(failed.size(), 1);
        QCOMPARE(changed.size(), 0);
        QCOMPARE(s.trace(), kept);
        QCOMPARE(s.currentPath(), m_good);
        QVERIFY(!status.isEmpty());
        QCOMPARE(status.last().value(0).toString(), QStringLiteral("Could not open bad.json"));
    }

    void cancelKeepsPreviousTrace()
    {
        Session s;
        QCOMPARE(open(s, m_good).value(0).toBool(), true);
        const auto kept = s.trace();
        QSignalSpy cancelled(&s, &Session::loadCancelled);
        QSignalSpy finished(&s, &Session::loadFinished);
        QSignalSpy changed(&s, &Session::traceChanged);
        s.open(m_big);
        QVERIFY(s.isLoading());
        s.cancel();
        QVERIFY(finished.wait(30000));
        QCOMPARE(cancelled.size(), 1);
        QCOMPARE(finished.first().value(0).toBool(), false);
        QVERIFY(finished.first().value(1).toString().isEmpty());
        QCOMPARE(changed.size(), 0);
        QCOMPARE(s.trace(), kept);
        QVERIFY(!s.isLoading());
    }

    void staleResultDropped()
    {
        Session s;
        QSignalSpy changed(&s, &Session::traceChanged);
        QSignalSpy finished(&s, &Session::loadFinished);
        s.open(m_big);
        s.open(m_good); // replaces the big load: only the good one is shown
        QVERIFY(finished.wait(30000));
        QTest::qWait(300); // nothing else arrives
        QCOMPARE(finished.size(), 1);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(s.currentPath(), m_good);
        QCOMPARE(s.trace()->allSlices().size(), size_t(100));
    }

    void neffReadInBackgroundSignalsOnce()
    {
        Session s;
        QVERIFY(Session::isNeff(m_neffA));
        QVERIFY(!Session::isNeff(m_good));
        QSignalSpy ready(&s, &Session::neffReady);
        QSignalSpy finished(&s, &Session::loadFinished);
        QSignalSpy changed(&s, &Session::traceChanged);
        s.open(m_neffA);
        QCOMPARE(ready.size(), 0); // open() returned before the NEFF was read: it is read off the GUI thread
        QVERIFY(ready.wait(30000));
        QTest::qWait(200);
        QCOMPARE(ready.size(), 1);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().value(0).toBool(), true);
        QCOMPARE(changed.size(), 0); // a NEFF is not a trace
        QCOMPARE(ready.first().value(0).toString(), m_neffA);
        QVERIFY(!s.trace());
        QCOMPARE(s.title(), QFileInfo(m_neffA).fileName());
    }

    void staleNeffDropped()
    {
        Session s;
        QSignalSpy ready(&s, &Session::neffReady);
        s.open(m_neffA);
        s.open(m_neffB); // the newer request wins
        QVERIFY(ready.wait(30000));
        QTest::qWait(300);
        QCOMPARE(ready.size(), 1);
        QCOMPARE(ready.first().value(0).toString(), m_neffB);
    }

    void badNeffIsAnError()
    {
        Session s;
        s.setQuietErrors(true);
        // a real NEFF's 1024-byte header over a payload that is not an archive: recognised as a NEFF, unreadable
        const QString bad = m_dir.filePath(QStringLiteral("bad.neff"));
        QFile in(m_neffA);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        QVERIFY(bytes.size() > 1024);
        bytes.replace(1024, bytes.size() - 1024, QByteArray(bytes.size() - 1024, 'x'));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        QVERIFY(Session::isNeff(bad));
        QSignalSpy ready(&s, &Session::neffReady);
        QSignalSpy failed(&s, &Session::loadFailed);
        const QList<QVariant> r = open(s, bad);
        QCOMPARE(r.value(0).toBool(), false);
        QVERIFY2(r.value(1).toString().contains(bad), qPrintable(r.value(1).toString())); // names the file
        QCOMPARE(failed.size(), 1);
        QCOMPARE(ready.size(), 0);
    }

    void selectionAndRangesSaidOncePerChange()
    {
        Session s;
        QSignalSpy selection(&s, &Session::selectionChanged);
        QSignalSpy marked(&s, &Session::markedRangeChanged);
        QSignalSpy visible(&s, &Session::visibleRangeChanged);
        s.setSelectedSlice(SliceId(3));
        s.setSelectedSlice(SliceId(3));
        s.setMarkedRange(10, 20);
        s.setMarkedRange(10, 20);
        s.setVisibleRange(0, 100);
        s.setVisibleRange(0, 100);
        QCOMPARE(selection.size(), 1);
        QCOMPARE(marked.size(), 1);
        QCOMPARE(visible.size(), 1);
        QCOMPARE(s.selectedSlice(), SliceId(3));
        QVERIFY(s.hasMarkedRange());
        QCOMPARE(s.markedEnd() - s.markedStart(), int64_t(10));
        s.setMarkedRange(0, 0);
        QVERIFY(!s.hasMarkedRange());
    }

    // A directory of Neuron Explorer system tables opens as a trace in the window's session (the same
    // loader as lanescope-cli): three SystemProfileEvents rows (Lanescope's writer: flat columns) on two
    // lanes, the hardware one already on the host clock.
    void opensExplorerSystemTables()
    {
        QTemporaryDir dir;
        using namespace lanescope::parquet;
        FileWriter w;
        std::string error;
        QVERIFY2(w.open(dir.filePath(QStringLiteral("SystemProfileEvents.parquet")).toStdString(),
                        {{"name", ColumnType::String, false}, {"start_ts", ColumnType::Int64, false},
                         {"duration_ns", ColumnType::Int64, false}, {"trace_event_source", ColumnType::String, false},
                         {"instance_id", ColumnType::String, false}, {"process_id", ColumnType::Int64, false},
                         {"thread_id", ColumnType::Int64, false}, {"nc_idx", ColumnType::Int64, true},
                         {"pcore_idx", ColumnType::Int64, true}},
                        {}, {}, &error),
                 error.c_str());
        const struct { const char *name; int64_t ts, dur; const char *source; int64_t pcore; } rows[] = {
            {"nrt_execute", 1000, 500, "neuron_rt", -1}, {"nrt_tensor_read", 1100, 100, "neuron_rt", -1},
            {"nc_exec_running", 1200, 200, "neuron_hw", 4}};
        for (const auto &r : rows) {
            w.column(0).addText(r.name);
            w.column(1).addInt(r.ts);
            w.column(2).addInt(r.dur);
            w.column(3).addText(r.source);
            w.column(4).addText("i-1");
            w.column(5).addInt(7);
            w.column(6).addInt(70);
            w.column(7).addInt(0);
            if (r.pcore < 0)
                w.column(8).addNull();
            else
                w.column(8).addInt(r.pcore);
            QVERIFY(w.endRow());
        }
        QVERIFY2(w.close(), w.error().c_str());
        Session s;
        QCOMPARE(open(s, dir.path()).value(0).toBool(), true);
        QVERIFY(s.trace());
        const Trace &t = *s.trace();
        QCOMPARE(t.metadata().format, std::string("explorer-system-parquet"));
        QCOMPARE(t.allSlices().size(), size_t(3));
        QStringList tracks;
        for (const Track &tr : t.tracks())
            tracks << QString::fromStdString(std::string(t.str(tr.name)));
        QVERIFY2(tracks.contains(QStringLiteral("neuron_rt · NC 0 · thread 70")), qPrintable(tracks.join(QLatin1Char(','))));
        QVERIFY2(tracks.contains(QStringLiteral("hardware · NC 0 · core 4")), qPrintable(tracks.join(QLatin1Char(','))));
        QCOMPARE(t.flows().size(), size_t(1)); // nrt_execute -> nc_exec_running by time (no flow_id column)
    }

    void filtersAndNames()
    {
        QVERIFY(Session::openFilter().contains(QStringLiteral("*.neff")));
        QVERIFY(Session::compareFilter().contains(QStringLiteral("*.ntff")));
        QCOMPARE(Session::displayName(QStringLiteral("/a/b/trace.json")), QStringLiteral("trace.json"));
        QCOMPARE(Session::displayName(QStringLiteral("/")), QStringLiteral("/"));
    }
};

QTEST_MAIN(TestSession)
#include "tst_session.moc"
