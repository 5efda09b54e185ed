// The real main window, offscreen: a bad file opened over a good one shows a readable error dialog that
// names the file and the position, and the trace that was open stays open (issue: hardening). Pictures
// of the dialog are saved to $LANESCOPE_TEST_SHOTS when it is set, for looking at them.
#include "filebytes.h"
#include "mainwindow.h"
#include "recentmenu.h"
#include "session.h"

#include "analysispanel.h"
#include "details/neffinfoview.h"
#include "filespanel.h"
#include "io/synthetic/samplefolderwriter.h"

#include "analysis/traceanalysis.h"
#include "model/trace.h"
#include "overlays/marksoverlay.h"
#include "session/viewstate.h"
#include "timeline/timelineview.h"
#include "util/workerpool.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QThread>
#include <QTimer>
#include <QUrl>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

QMessageBox *visibleErrorBox(const MainWindow &w)
{
    for (QMessageBox *box : w.findChildren<QMessageBox *>())
        if (box->isVisible())
            return box;
    return nullptr;
}

void saveShot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SHOTS");
    if (!dir.isEmpty() && QDir().mkpath(dir))
        widget->grab().save(dir + QLatin1Char('/') + name);
}

// Drags `paths` over the window and drops them there, as a file manager does: a QDragEnterEvent, then
// a QDropEvent with the files' URLs. Returns whether the window accepted the drag.
bool dropFiles(MainWindow &w, const QStringList &paths)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString &p : paths)
        urls << QUrl::fromLocalFile(p);
    mime.setUrls(urls);
    const QPoint at(w.width() / 2, w.height() / 3);
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    return drop.isAccepted();
}

// Chooses the `row`-th entry (0: compare, 1: open) of the menu the drop pops up, with the keyboard.
void chooseFromPopup(int row, QString *seen)
{
    QTimer::singleShot(50, [row, seen] {
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        if (!menu)
            return;
        for (QAction *a : menu->actions())
            *seen += a->text() + QLatin1Char('\n');
        for (int i = 0; i <= row; ++i)
            QTest::keyClick(menu, Qt::Key_Down);
        QTest::keyClick(menu, Qt::Key_Return);
    });
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString good() const { return QStringLiteral(LANESCOPE_TEST_DATA "/cli_info_small.json"); }

    // Opens `path` and waits for the outcome; returns the loadFinished arguments.
    static QList<QVariant> open(MainWindow &w, const QString &path)
    {
        QSignalSpy finished(w.session(), &Session::loadFinished);
        w.session()->open(path);
        if (!finished.wait(20000))
            return {};
        return finished.takeFirst();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // settings and recent files go to a test location
        QVERIFY(m_dir.isValid());
    }

    void badFileKeepsTheOpenTrace_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("where"); // what the error must say besides the file name
        QTest::newRow("truncated JSON") << QStringLiteral("truncated.json")
                                        << QByteArray("{\"traceEvents\":[{\"ph\":\"X\",\"na") // cut inside its first event
                                        << QStringLiteral("at byte");
        QTest::newRow("not a trace") << QStringLiteral("settings.json") << QByteArray("{\"theme\":\"dark\",\"fontSize\":12}")
                                     << QStringLiteral("not a Chrome/Kineto trace");
        QTest::newRow("corrupt gzip") << QStringLiteral("corrupt.json.gz")
                                      << QByteArray::fromHex("1f8b0800000000000003ffffffffffffffff0000")
                                      << QStringLiteral("gzip");
        QTest::newRow("empty file") << QStringLiteral("empty.json") << QByteArray() << QStringLiteral("empty");
    }

    void badFileKeepsTheOpenTrace()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, where);

        MainWindow w;
        w.resize(1000, 700);
        w.show();
        const QList<QVariant> first = open(w, good());
        QCOMPARE(first.value(0).toBool(), true);
        const std::shared_ptr<const Trace> kept = w.session()->trace();
        QVERIFY(kept && kept->allSlices().size() > 0);

        const QString bad = m_dir.filePath(name);
        QVERIFY(test::writeFile(bad, bytes));
        const QList<QVariant> second = open(w, bad);
        QCOMPARE(second.value(0).toBool(), false);
        const QString error = second.value(1).toString();
        QVERIFY2(error.contains(bad), qPrintable(error));
        QVERIFY2(error.contains(where, Qt::CaseInsensitive), qPrintable(error));

        // what was open stays open
        QCOMPARE(w.session()->trace(), kept);
        QCOMPARE(w.session()->currentPath(), good());

        // a readable dialog: a title, the error as selectable text, not modal over the window's work
        QMessageBox *box = visibleErrorBox(w);
        QVERIFY(box);
        QCOMPARE(box->informativeText(), error);
        QVERIFY(!box->text().isEmpty());
        QVERIFY(box->textInteractionFlags() & Qt::TextSelectableByMouse);
        QVERIFY(!box->isModal() || box->windowModality() != Qt::ApplicationModal);
        saveShot(box, QStringLiteral("error-%1.png").arg(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'))));
        box->accept();
        QTRY_VERIFY(!visibleErrorBox(w));

        // and the window still works: the good file opens again
        QCOMPARE(open(w, good()).value(0).toBool(), true);
    }

    // One ViewState: the timeline shows the Session's own (no copy kept in step by connects), so a
    // selection, a marked range or a zoom made on either side is the other's at once; a new trace
    // starts over. And one LaunchIndex per trace, shared by the Analysis tables and the Summary.
    void oneViewStateAndOneAnalysis()
    {
        MainWindow w;
        w.resize(1000, 700);
        w.show();
        QCOMPARE(open(w, good()).value(0).toBool(), true);
        Session *s = w.session();
        TimelineView *timeline = w.timeline();
        QCOMPARE(timeline->viewState(), s->viewState());
        const std::shared_ptr<const TraceAnalysis> analysis = s->analysis();
        QVERIFY(analysis);
        QCOMPARE(analysis->trace(), s->trace());
        QTRY_VERIFY(analysis->hasLaunchIndex()); // built off the GUI thread, without anyone asking
        const auto index = analysis->launchIndex();
        QCOMPARE(analysis->launchIndex(), index); // built once

        QSignalSpy selected(s, &Session::selectionChanged);
        QSignalSpy timelineSelected(timeline, &TimelineView::sliceSelected);
        timeline->setSelectedSlice(SliceId(1));
        QCOMPARE(s->selectedSlice(), SliceId(1));
        s->setSelectedSlice(SliceId(2));
        QCOMPARE(timeline->selectedSlice(), SliceId(2));
        QCOMPARE(selected.size(), 2);
        QCOMPARE(timelineSelected.size(), 2);

        const int64_t t0 = s->trace()->startNs(), t1 = s->trace()->endNs(), span = t1 - t0;
        timeline->viewState()->setMarkedRange(t0 + span / 4, t0 + span / 2);
        QCOMPARE(s->markedStart(), t0 + span / 4);
        QCOMPARE(timeline->markedRange().ranges().size(), size_t(1));
        s->setVisibleRange(t0 + span / 8, t0 + span / 4);
        QCOMPARE(timeline->visibleRange(), std::make_pair(t0 + span / 8, t0 + span / 4));

        // A new trace: nothing selected, no marked range, all of it visible; a new analysis.
        QCOMPARE(open(w, good()).value(0).toBool(), true);
        QVERIFY(!s->selectedSlice().isValid() && !timeline->selectedSlice().isValid());
        QVERIFY(!s->hasMarkedRange());
        QVERIFY(timeline->markedRange().ranges().empty());
        QCOMPARE(s->visibleStart(), s->viewState()->traceStart());
        QVERIFY(s->analysis() != analysis);
    }

    // The first frame: a window made with the paths it will open reads them while it is built, and
    // openPaths() takes that load over (one load, not two); until the timeline has drawn the trace the
    // views' background work leaves the GUI thread a core; the Analysis tables are made after that
    // frame and compute without their dock being shown.
    void firstFrameFirst()
    {
        MainWindow w(QStringList{good()});
        Session *s = w.session();
        QVERIFY(s->isPreloading());
        w.resize(1000, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        int threadsWhileShown = -1;
        connect(s, &Session::traceChanged, this, [&threadsWhileShown] { threadsWhileShown = workerPool()->maxThreadCount(); });
        QSignalSpy started(s, &Session::loadStarted);
        QSignalSpy finished(s, &Session::loadFinished);
        QSignalSpy painted(w.timeline(), &TimelineView::tracePainted);
        s->openPaths(QStringList{good()});
        QVERIFY(!s->isPreloading()); // taken over
        QCOMPARE(started.size(), 1);  // announced once, when openPaths() is called
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.size(), 1);
        QVERIFY(finished.first().value(0).toBool());
        QCOMPARE(s->currentPath(), good());
        QCOMPARE(threadsWhileShown, std::max(1, QThread::idealThreadCount() - 1));
        QVERIFY(painted.size() == 1 || painted.wait(5000));
        QCOMPARE(workerPool()->maxThreadCount(), QThread::idealThreadCount()); // released by the first frame
        const QSize timelineAtFrame = w.timeline()->size();
        AnalysisPanel *analysis = w.analysisPanel();
        QVERIFY(!analysis->widget() || painted.size() == 1); // not before the frame
        QTRY_VERIFY(analysis->widget() != nullptr); // made after the frame, without being asked
        QTRY_VERIFY(!analysis->tables()->isComputing());
        QVERIFY(analysis->tables()->proxy(AnalysisTablesView::Table::Operators)->rowCount() > 0);
        QTest::qWait(50);
        QCOMPARE(finished.size(), 1); // no second load reported
        // What the first frame laid out stays: the tables made after it fit the bottom group as it is
        // (they used to need 20 px more and pushed the timeline up under the user's eyes).
        QCOMPARE(w.timeline()->size(), timelineAtFrame);
    }

    // showWhenLoaded: the window made with a trace appears with it (shown once the trace is in the
    // views, never before), or once a failed load has ended; a window without a trace at once.
    void showWhenLoaded()
    {
        {
            MainWindow w(QStringList{good()});
            Session *s = w.session();
            QSignalSpy changed(s, &Session::traceChanged);
            // Whether the trace was in the timeline when the window got its Show event.
            struct ShowWatch : QObject
            {
                MainWindow *window = nullptr;
                int shows = 0;
                bool traceAtShow = false;
                bool eventFilter(QObject *o, QEvent *e) override
                {
                    if (o == window && e->type() == QEvent::Show) {
                        ++shows;
                        traceAtShow = window->timeline()->trace() != nullptr;
                    }
                    return false;
                }
            } watch;
            watch.window = &w;
            w.installEventFilter(&watch);
            w.showWhenLoaded(20000);
            s->openPaths(QStringList{good()});
            QTRY_VERIFY_WITH_TIMEOUT(w.isVisible(), 20000);
            QCOMPARE(watch.shows, 1);
            QVERIFY(watch.traceAtShow); // the first frame is the trace
            QCOMPARE(changed.size(), 1);
            w.removeEventFilter(&watch);
        }
        {
            MainWindow w(QStringList{m_dir.filePath(QStringLiteral("no-such-trace.json"))});
            w.setQuietErrors(true);
            w.showWhenLoaded(20000);
            w.session()->openPaths(QStringList{m_dir.filePath(QStringLiteral("no-such-trace.json"))});
            QTRY_VERIFY_WITH_TIMEOUT(w.isVisible(), 20000); // the failed load ended: shown without a trace
            QVERIFY(!w.session()->trace());
        }
        {
            MainWindow w;
            w.showWhenLoaded();
            QVERIFY(w.isVisible());
        }
    }

    void missingFile()
    {
        MainWindow w;
        w.show();
        const QString gone = m_dir.filePath(QStringLiteral("no-such-trace.json"));
        const QList<QVariant> r = open(w, gone);
        QCOMPARE(r.value(0).toBool(), false);
        QVERIFY2(r.value(1).toString().contains(gone), qPrintable(r.value(1).toString()));
        QVERIFY(visibleErrorBox(w));
        QVERIFY(!w.session()->trace());
    }
    // File > Open Recent lists what was opened (newest first, full path as tool tip), opens it again,
    // and drops a file that is gone with a message in the status bar.
    void recentFiles()
    {
        const QString copy = m_dir.filePath(QStringLiteral("recent-copy.json"));
        QFile::remove(copy);
        QVERIFY(QFile::copy(good(), copy));
        MainWindow w;
        w.show();
        QCOMPARE(open(w, good()).value(0).toBool(), true);
        QCOMPARE(open(w, copy).value(0).toBool(), true);
        auto *menu = w.findChild<RecentMenu *>();
        QVERIFY(menu);
        menu->refresh();
        QStringList tips;
        QAction *goodEntry = nullptr;
        for (QAction *a : menu->actions()) {
            if (a->toolTip() == good())
                goodEntry = a;
            if (!a->isSeparator() && a->isEnabled() && a->toolTip().startsWith(QLatin1Char('/')))
                tips << a->toolTip();
        }
        QVERIFY(tips.size() >= 2);
        QCOMPARE(tips.value(0), copy);
        QCOMPARE(tips.value(1), good());
        QVERIFY(goodEntry && goodEntry->text().startsWith(QStringLiteral("&2 ")));
        menu->adjustSize();
        saveShot(menu, QStringLiteral("recent-menu.png"));

        QSignalSpy finished(w.session(), &Session::loadFinished);
        goodEntry->trigger();
        QVERIFY(finished.wait(20000));
        QCOMPARE(w.session()->currentPath(), good());

        QVERIFY(QFile::remove(copy));
        menu->refresh();
        for (QAction *a : menu->actions())
            QVERIFY2(a->toolTip() != copy, "a file that is gone is still listed");
        QVERIFY2(w.statusBar()->currentMessage().contains(copy), qPrintable(w.statusBar()->currentMessage()));
    }

    // Opening a NEFF (File > Open goes through Session::openPaths) reads it in the background and then
    // shows the NEFF panel; the window keeps the trace it shows.
    void neffOpensThePanelWithoutBlocking()
    {
        SampleFolderWriter::write(m_dir.path().toStdString());
        const QString neff = m_dir.filePath(QString::fromStdString(SampleFolderWriter::runFolder() + '/' +
                                                                   SampleFolderWriter::executions().front().neffFile));
        MainWindow w;
        w.show();
        QCOMPARE(open(w, good()).value(0).toBool(), true);
        const auto kept = w.session()->trace();
        QSignalSpy finished(w.session(), &Session::loadFinished);
        w.session()->openPaths({neff});
        QVERIFY(!w.neffView()); // not read yet: open returned at once
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.first().value(0).toBool(), true);
        QVERIFY(w.neffView());
        QTRY_VERIFY(w.neffView()->isVisible());
        QVERIFY(w.neffView()->topLevelItemCount() > 0);
        QCOMPARE(w.session()->trace(), kept);
    }

    // The Files dock lists what the folder load did with every file (the trace's FileReports, as
    // `info` prints them); double-clicking a NEFF opens it in the NEFF panel, the trace stays.
    void filesPanelListsTheFolderAndOpensANeff()
    {
        SampleFolderWriter::write(m_dir.path().toStdString());
        const QString folder = m_dir.filePath(QString::fromStdString(SampleFolderWriter::runFolder()));
        MainWindow w;
        w.show();
        QCOMPARE(open(w, folder).value(0).toBool(), true);
        FilesPanel *files = w.filesPanel();
        QVERIFY(files);
        const auto &reports = w.session()->trace()->metadata().files;
        QVERIFY(!reports.empty());
        QCOMPARE(files->count(), int(reports.size()));
        // Its table is made when the dock is looked at, with the rows the title counts.
        files->raise();
        QTRY_VERIFY(files->widget() != nullptr);
        QCOMPARE(files->widget(), files->table());
        QCOMPARE(files->table()->model()->rowCount(), int(reports.size()));
        int neffRow = -1;
        for (size_t i = 0; i < reports.size() && neffRow < 0; ++i)
            if (reports[i].kind == FileFormat::Neff)
                neffRow = int(i);
        QVERIFY2(neffRow >= 0, "the sample folder has NEFFs");
        const auto kept = w.session()->trace();
        QSignalSpy finished(w.session(), &Session::loadFinished);
        QVERIFY(files->openRow(neffRow));
        QVERIFY(finished.wait(20000));
        QVERIFY(w.neffView());
        QTRY_VERIFY(w.neffView()->isVisible());
        QCOMPARE(w.session()->trace(), kept);
    }

    // Drag and drop with real drop events: a trace opens, a folder opens as one profile, a second trace
    // over an open one asks "compare or open" and does what was chosen.
    void dropOpensTracesFoldersAndComparisons()
    {
        SampleFolderWriter::write(m_dir.path().toStdString());
        const QString folder = m_dir.filePath(QString::fromStdString(SampleFolderWriter::runFolder()));
        const QString second = m_dir.filePath(QStringLiteral("second.json"));
        QFile::remove(second);
        QVERIFY(QFile::copy(good(), second));
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));

        // one trace on an empty window: opened, no question
        QSignalSpy finished(w.session(), &Session::loadFinished);
        QVERIFY(dropFiles(w, {good()}));
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.takeFirst().value(0).toBool(), true);
        QCOMPARE(w.session()->currentPath(), good());
        const size_t smallSlices = w.session()->trace()->allSlices().size();

        // a folder over it: the compare-or-open menu, "Open" chosen -> the folder replaces the trace
        QString seen;
        chooseFromPopup(1, &seen);
        QVERIFY(dropFiles(w, {folder}));
        QVERIFY2(seen.contains(QStringLiteral("Compare with")) && seen.contains(QStringLiteral("Open")), qPrintable(seen));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.takeFirst().value(0).toBool(), true);
        QCOMPARE(w.session()->trace()->metadata().format, std::string("profile-folder"));
        QCOMPARE(w.session()->currentPath(), folder);

        // a second trace over the folder: "Compare with" chosen -> both on one time axis
        seen.clear();
        chooseFromPopup(0, &seen);
        QVERIFY(dropFiles(w, {second}));
        QVERIFY2(seen.startsWith(QStringLiteral("Compare with")), qPrintable(seen));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.takeFirst().value(0).toBool(), true);
        QCOMPARE(w.session()->trace()->metadata().format, std::string("comparison"));
        QVERIFY(w.session()->trace()->allSlices().size() > smallSlices);

        // something that is not a file (a web URL) is not accepted
        QMimeData web;
        web.setUrls({QUrl(QStringLiteral("https://example.com/trace.json"))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &web, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(!enter.isAccepted());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
