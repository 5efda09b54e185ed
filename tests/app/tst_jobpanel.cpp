// The Job dock in the real window offscreen, on a folder of rank summaries as a user opens it (File >
// Open Folder): the dock is shown with one row per rank, the straggler's row says so and is bold, the
// header names the straggler, the selected rank's own findings are listed under the table; the window
// title is the folder's. Double-clicking a rank whose trace is gone says where it looked (and loads
// nothing); one whose trace is there (beside the summaries) loads it into the timeline, the dock stays.
#include "openinwindow.h"
#include "jobpanel.h"
#include "mainwindow.h"
#include "ranksummaries.h"
#include "session.h"

#include "job/joboverviewview.h"
#include "model/trace.h"
#include "summary/findingslistview.h"
#include "tables/rowtablemodel.h"

#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace lanescope;

namespace {

// A Kineto trace of one op.
const QByteArray kSmallTrace = R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5}]})";

} // namespace

class TestJobPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void overviewAndOpenRank()
    {
        QTemporaryDir dir;
        const QString traceOf2 = test::writeFileIn(dir, QStringLiteral("rank2.json"), kSmallTrace); // beside the summaries
        QVERIFY(!traceOf2.isEmpty());
        for (int64_t r = 0; r < 4; ++r) {
            RankSummary s = test::summaryOfRank(r, 4, r == 1 ? 1'500'000 : 1'000'000);
            s.file.bytes = uint64_t(kSmallTrace.size()); // rank 2's is found by its name and size
            QVERIFY(test::writeSummary(dir, QStringLiteral("rank-%1.summary.json").arg(r), s));
        }
        MainWindow w;
        w.setQuietErrors(true);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(Session::isJob(dir.path()));
        QVERIFY(test::openInWindow(w, dir.path()));
        JobPanel *panel = w.jobPanel();
        QVERIFY(panel->isVisible());
        QVERIFY(!w.session()->trace()); // no timeline: the overview is what there is
        QVERIFY(w.windowTitle().startsWith(QDir(dir.path()).dirName()));
        JobOverviewView *view = panel->view();
        QVERIFY(view->job());
        QCOMPARE(view->job()->ranks.size(), size_t(4));
        QVERIFY2(view->headerText().contains(QStringLiteral("stragglers: <b>1</b>")), qPrintable(view->headerText()));

        auto *proxy = static_cast<QSortFilterProxyModel *>(view->ranksView()->model());
        auto *model = static_cast<RowTableModel *>(proxy->sourceModel());
        QCOMPARE(model->rowCount(), 4);
        const int straggler = model->column("straggler"), rank = model->column("rank");
        QVERIFY(straggler >= 0 && rank >= 0);
        for (int r = 0; r < 4; ++r) {
            const QModelIndex i = model->index(r, straggler);
            QCOMPARE(model->data(i).toString(), r == 1 ? QStringLiteral("straggler") : QString());
            QCOMPARE(model->data(i, Qt::FontRole).value<QFont>().bold(), r == 1);
        }
        // the straggler's row is selected first and its own findings are under the table
        QCOMPARE(view->rankFindings()->count(), 1);
        QVERIFY(view->rankFindings()->heading().contains(QStringLiteral("rank 1")));
        view->selectRank(3);
        QVERIFY(view->rankFindings()->heading().contains(QStringLiteral("rank 3")));
        QCOMPARE(view->jobFindings()->count(), int(view->job()->findings.size()));

        // rank 0's trace is nowhere: the message lists the places looked at
        const QString missing = panel->openRank(0);
        QVERIFY2(missing.contains(QStringLiteral("/nowhere/rank0.json")) && missing.contains(dir.filePath(QStringLiteral("rank0.json"))),
                 qPrintable(missing));
        QVERIFY(!w.session()->isLoading());
        // rank 2's trace sits beside the summaries with the recorded size: it loads into the timeline
        QSignalSpy finished(w.session(), &Session::loadFinished);
        QVERIFY(panel->openRank(2).isEmpty());
        QVERIFY(finished.wait(30000));
        QVERIFY(finished.first().value(0).toBool());
        QVERIFY(w.session()->trace());
        QCOMPARE(QFileInfo(w.session()->currentPath()).canonicalFilePath(), QFileInfo(traceOf2).canonicalFilePath());
        QVERIFY(panel->isVisible());
    }
};

QTEST_MAIN(TestJobPanel)
#include "tst_jobpanel.moc"
