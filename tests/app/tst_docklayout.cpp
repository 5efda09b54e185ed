// DockLayout (app/gui/docklayout.h) on the real window, offscreen: the first-run layout gives the
// timeline at least 60 % of the window (less its menu and status bars) at 1920x1080 and 1366x768, the secondary docks are tabbed in a
// right and a bottom group, the Engines dock appears only for traces with NeuronCore engines (and
// stays closed when the user closed it), View > Reset Layout brings the first-run layout back.
#include "openinwindow.h"
#include "docklayout.h"
#include "mainwindow.h"
#include "session.h"

#include "io/synthetic/samplefolderwriter.h"
#include "timeline/timelineview.h"

#include "model/trace.h"

#include <QDockWidget>
#include <QMenuBar>
#include <QStatusBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

QDockWidget *dock(MainWindow &w, const char *name)
{
    return w.findChild<QDockWidget *>(QLatin1String(name));
}

// The central area (the timeline with its search bar, compare strip and utilization strip) as a share
// of what the window lays out: its size less the menu bar and the status bar.
double timelineShare(MainWindow &w)
{
    const QSize t = w.centralWidget()->size();
    const double content = double(w.width()) * (w.height() - w.menuBar()->height() - w.statusBar()->height());
    return double(t.width()) * t.height() / content;
}

} // namespace

class TestDockLayout : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_sample;
    QString gpuTrace() const { return QStringLiteral(LANESCOPE_TEST_DATA "/cli_info_small.json"); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        SampleFolderWriter::write(m_dir.path().toStdString());
        m_sample = m_dir.filePath(QString::fromStdString(SampleFolderWriter::runFolder()));
    }

    void everyDockIsInTheTable()
    {
        MainWindow w;
        for (QDockWidget *d : w.findChildren<QDockWidget *>())
            QVERIFY2(DockLayout::placement(d), qPrintable(d->objectName()));
        // the docks other work adds have their line already
        for (const char *name : {"summaryDock", "statisticsDock", "notesDock"}) {
            bool found = false;
            for (const DockLayout::Placement &p : DockLayout::placements())
                found = found || QLatin1String(p.objectName) == QLatin1String(name);
            QVERIFY2(found, name);
        }
    }

    void firstRunLayout_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("neuron");
        QTest::newRow("1920x1080 GPU") << QSize(1920, 1080) << false;
        QTest::newRow("1366x768 GPU") << QSize(1366, 768) << false;
        QTest::newRow("1920x1080 sample") << QSize(1920, 1080) << true;
        QTest::newRow("1366x768 sample") << QSize(1366, 768) << true;
    }

    void firstRunLayout()
    {
        QFETCH(QSize, size);
        QFETCH(bool, neuron);
        MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(test::openInWindow(w, neuron ? m_sample : gpuTrace()));
        QTest::qWait(50);
        const double share = timelineShare(w);
        qInfo("%dx%d %s: timeline %.1f %% of the window (%dx%d)", size.width(), size.height(), neuron ? "sample" : "GPU",
              share * 100, w.timeline()->width(), w.timeline()->height());
        QVERIFY2(share >= 0.6, qPrintable(QString::number(share)));
        // tabbed: the bottom group is one stack, the right group another
        QDockWidget *analysis = dock(w, "analysisDock");
        const QList<QDockWidget *> bottom = w.tabifiedDockWidgets(analysis);
        for (const char *name : {"warningsDock", "rangeDock", "filesDock", "enginesDock"})
            QVERIFY2(bottom.contains(dock(w, name)), name);
        QCOMPARE(w.dockWidgetArea(analysis), Qt::BottomDockWidgetArea);
        QCOMPARE(w.dockWidgetArea(dock(w, "detailsDock")), Qt::RightDockWidgetArea);
        QVERIFY(dock(w, "detailsDock")->isVisible());
        // the Engines dock only for NeuronCore engines, then in front of its group
        QCOMPARE(dock(w, "enginesDock")->isVisible(), neuron);
        QVERIFY(!dock(w, "compareDock")->isVisible());
    }

    void enginesDockFollowsTheTraceUnlessClosed()
    {
        MainWindow w;
        w.resize(1920, 1080);
        w.show();
        QDockWidget *engines = dock(w, "enginesDock");
        QVERIFY(test::openInWindow(w, m_sample));
        QVERIFY(engines->isVisible());
        QVERIFY(test::openInWindow(w, gpuTrace()));
        QVERIFY(!engines->isVisible()); // four empty charts say nothing
        QVERIFY(test::openInWindow(w, m_sample));
        QVERIFY(engines->isVisible()); // back for the Neuron trace
        engines->close();               // the user's choice sticks
        QVERIFY(test::openInWindow(w, gpuTrace()));
        QVERIFY(test::openInWindow(w, m_sample));
        QVERIFY(!engines->isVisible());
        // View > Reset Layout: the first-run layout, the Engines dock back for this trace
        dock(w, "detailsDock")->setFloating(true);
        dock(w, "warningsDock")->close();
        w.resetLayout();
        QVERIFY(engines->isVisible());
        QVERIFY(!dock(w, "detailsDock")->isFloating());
        QCOMPARE(w.dockWidgetArea(dock(w, "detailsDock")), Qt::RightDockWidgetArea);
        QVERIFY(w.tabifiedDockWidgets(dock(w, "analysisDock")).contains(dock(w, "warningsDock")));
        QTest::qWait(50);
        QVERIFY(timelineShare(w) >= 0.6);
    }
};

QTEST_MAIN(TestDockLayout)
#include "tst_docklayout.moc"
