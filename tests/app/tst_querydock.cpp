// The Query dock in the real main window, offscreen (issue 48): a starter query runs on a real Kineto
// trace and shows its rows, Pin as Lane puts the result in the strip over the timeline (on the
// timeline's time axis), a click on a lane item selects that slice, the x button removes the lane, the
// pinned lane comes back when the file is opened again, an SQL error moves the editor's cursor to its
// position, Ctrl+C copies the selection as TSV, Enter (a double-click) on a row selects its slice.
// Overlapping items of a pinned lane stack into rows, hit tests use the row.
#include "corpus.h"
#include "mainwindow.h"
#include "openinwindow.h"
#include "querydock.h"
#include "querysettings.h"
#include "session.h"

#include "model/trace.h"
#include "session/queryjob.h"
#include "session/starterqueries.h"
#include "tables/queryresultmodel.h"
#include "timeline/querylanesstrip.h"
#include "timeline/timelineview.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

const QString kKineto = QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz");

QString starter(const char *prefix)
{
    for (const StarterQuery &q : StarterQueries::all())
        if (QString::fromUtf8(q.title).startsWith(QLatin1String(prefix)))
            return QString::fromUtf8(q.sql);
    return {};
}

// Shows `w` at 1400x900, opens `path` in it and brings its Query dock up; null when the trace did not open.
QueryDock *openWithQueryDock(MainWindow &w, const QString &path)
{
    w.resize(1400, 900);
    w.show();
    if (!test::openInWindow(w, path))
        return nullptr;
    QueryDock *dock = w.queryDock();
    dock->present();
    return dock;
}

bool runAndWait(QueryDock *dock, const QString &sql)
{
    QSignalSpy done(dock, &QueryDock::queryFinished);
    dock->run(sql);
    return done.wait(60000);
}

} // namespace

class TestQueryDock : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void starterPinnedAndRemoved()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kKineto);
        const QString path = test::corpusFile(kKineto);
        MainWindow w;
        QueryDock *dock = openWithQueryDock(w, path);
        QVERIFY(dock);
        QVERIFY(dock->isVisible());
        QueryLanesStrip *strip = dock->strip();
        QVERIFY(!strip->isVisible()); // nothing pinned

        QVERIFY(runAndWait(dock, starter("Slowest kernels")));
        QCOMPARE(dock->model()->rowCount(), 50); // LIMIT 50 of 8,802 kernels with a launch flow (tst_queryjob)
        QVERIFY2(dock->status()->text().contains(QStringLiteral("50 rows in")), qPrintable(dock->status()->text()));
        QVERIFY(dock->pinButton()->isEnabled());
        // the rows are sorted by dur, longest first (the query's ORDER BY)
        const int dur = dock->model()->column("dur");
        QVERIFY(std::get<int64_t>(dock->model()->cell(0, dur)) >= std::get<int64_t>(dock->model()->cell(49, dur)));

        QSignalSpy pinned(dock, &QueryDock::lanePinned);
        dock->pinButton()->click();
        QVERIFY(pinned.wait(60000));
        QVERIFY2(pinned.at(0).at(0).toBool(), qPrintable(pinned.at(0).at(1).toString()));
        QCOMPARE(strip->laneCount(), 1);
        QCOMPARE(strip->lane(0)->items.size(), size_t(50));
        QCOMPARE(QString::fromStdString(strip->lane(0)->title), QStringLiteral("Slowest kernels and what launched them"));
        QTRY_VERIFY(strip->isVisible());
        // Above the timeline, its time axis the timeline's: the same x for the same time.
        QVERIFY(strip->mapTo(&w, QPoint(0, 0)).y() < w.timeline()->mapTo(&w, QPoint(0, 0)).y());
        const auto &item = strip->lane(0)->items[0];
        w.timeline()->setVisibleRange(item.ts - 1'000'000, item.ts + 1'000'000);
        const double x = strip->xOf(item.ts);
        const QRectF slice = w.timeline()->sliceRect(SliceId(uint32_t(item.sliceId)));
        QVERIFY(!slice.isEmpty());
        QVERIFY2(std::abs(strip->mapTo(&w, QPointF(x, 0)).x() - w.timeline()->mapTo(&w, slice.topLeft()).x()) < 1.5,
                 qPrintable(QStringLiteral("%1 vs %2").arg(strip->mapTo(&w, QPointF(x, 0)).x()).arg(w.timeline()->mapTo(&w, slice.topLeft()).x())));

        // A click on the item selects its slice (the kernel's id).
        const long at = strip->itemAt(0, 0, x + 1); // the first item by time is in row 0
        QVERIFY(at >= 0);
        QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(int(x) + 1, QueryLanesStrip::kRowHeight / 2));
        QCOMPARE(w.session()->selectedSlice().value, uint32_t(strip->lane(0)->items[size_t(at)].sliceId));
        QVERIFY(strip->toolTipOf(0, at).contains(QStringLiteral("duration:")));

        // Kept for the file: opening it again pins it again.
        QCOMPARE(QuerySettings::pinnedLanes(QSettings(), path).size(), 1);
        QSignalSpy restored(dock, &QueryDock::lanePinned);
        QVERIFY(test::openInWindow(w, path));
        QTRY_COMPARE_WITH_TIMEOUT(restored.size(), 1, 60000);
        QVERIFY(restored.at(0).at(0).toBool());
        QCOMPARE(strip->laneCount(), 1);

        // The x button removes it, and the file's entry with it.
        QTest::mouseClick(strip, Qt::LeftButton, {}, strip->removeButtonRect(0).center());
        QCOMPARE(strip->laneCount(), 0);
        QTRY_VERIFY(!strip->isVisible());
        QVERIFY(QuerySettings::pinnedLanes(QSettings(), path).isEmpty());
    }

    // Overlapping slices stack into rows (QueryLane::packRows); the lane is as tall as its rows up to
    // kMaxShownRows, the rest folded into the last; a click selects the slice of the row it is on.
    void overlappingRows()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kKineto);
        const QString path = test::corpusFile(kKineto);
        MainWindow w;
        QueryDock *dock = openWithQueryDock(w, path);
        QVERIFY(dock);
        QueryLanesStrip *strip = dock->strip();
        QSignalSpy pinned(dock, &QueryDock::lanePinned);

        // python3 over the raw file (tst_queryjob's laneRowsOnCorpus: a sweep over the X events'
        // [ts, ts + dur)): the 40,374 "aten::" events have at most 7 open at once, the 42,438 of category
        // "Operator" 9.
        QVERIFY(runAndWait(dock, QStringLiteral("SELECT id, ts, dur, name FROM slices WHERE name LIKE 'aten::%'")));
        dock->pin();
        QVERIFY(pinned.wait(60000));
        QVERIFY2(pinned.at(0).at(0).toBool(), qPrintable(pinned.at(0).at(1).toString()));
        QCOMPARE(strip->lane(0)->rowCount, uint32_t(7));
        QVERIFY2(pinned.at(0).at(1).toString().contains(QStringLiteral(" items in 7 rows")), qPrintable(pinned.at(0).at(1).toString()));
        QCOMPARE(strip->shownRows(0), 7);
        QCOMPARE(strip->laneHeight(0), 7 * 16 + 4); // 16 px a row, 2 above and below
        QTRY_COMPARE(strip->height(), 7 * 16 + 4 + 1);

        // An item of row 4 at its middle: a click on row 4 selects it, one on row 0 there the row-0 item
        // around it (these aten ops nest: row 0 holds the outermost).
        const auto &items = strip->lane(0)->items;
        const auto deep = std::find_if(items.begin(), items.end(), [](const QueryLaneItem &i) { return i.row == 4 && i.dur > 0; });
        QVERIFY(deep != items.end());
        const int64_t mid = deep->ts + deep->dur / 2;
        w.timeline()->setVisibleRange(mid - deep->dur * 2, mid + deep->dur * 2);
        const double x = strip->xOf(mid);
        const long at = strip->itemAt(0, 4, x);
        QVERIFY(at >= 0);
        QCOMPARE(items[size_t(at)].row, uint32_t(4));
        QCOMPARE(strip->rowAt(0, strip->rowTop(0, 4) + 8), 4);
        QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(int(x), strip->rowTop(0, 4) + 8));
        QCOMPARE(w.session()->selectedSlice().value, uint32_t(items[size_t(at)].sliceId));
        const long outer = strip->itemAt(0, 0, x);
        QVERIFY(outer >= 0 && outer != at);
        QCOMPARE(items[size_t(outer)].row, uint32_t(0));
        QVERIFY(items[size_t(outer)].ts <= mid && items[size_t(outer)].end() >= mid);
        QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(int(x), strip->rowTop(0, 0) + 8));
        QCOMPARE(w.session()->selectedSlice().value, uint32_t(items[size_t(outer)].sliceId));

        // Nine rows: eight shown, rows 8 and 9 drawn together in the last, which finds items of both.
        QVERIFY(runAndWait(dock, QStringLiteral("SELECT id, ts, dur, name FROM slices WHERE category = 'Operator'")));
        dock->pin();
        QVERIFY(pinned.wait(60000));
        QVERIFY2(pinned.at(1).at(0).toBool(), qPrintable(pinned.at(1).at(1).toString()));
        QCOMPARE(strip->laneCount(), 2);
        QCOMPARE(strip->lane(1)->rowCount, uint32_t(9));
        QCOMPARE(strip->shownRows(1), QueryLanesStrip::kMaxShownRows);
        QCOMPARE(strip->laneTop(1), 7 * 16 + 4);
        QCOMPARE(strip->laneHeight(1), 8 * 16 + 4);
        QTRY_COMPARE(strip->height(), 7 * 16 + 4 + 8 * 16 + 4 + 1);
        QCOMPARE(strip->laneAt(strip->laneTop(1)), 1);
        QCOMPARE(strip->laneAt(strip->laneTop(1) - 1), 0);
        const auto &ops = strip->lane(1)->items;
        const auto ninth = std::find_if(ops.begin(), ops.end(), [](const QueryLaneItem &i) { return i.row == 8; });
        QVERIFY(ninth != ops.end());
        const int64_t t = ninth->ts + ninth->dur / 2;
        w.timeline()->setVisibleRange(t - 10'000, t + 10'000);
        const long folded = strip->itemAt(1, 7, strip->xOf(t));
        QVERIFY(folded >= 0);
        QVERIFY(ops[size_t(folded)].row >= 7);
        QVERIFY(ops[size_t(folded)].ts <= t && ops[size_t(folded)].end() >= t);
        QVERIFY(strip->itemAt(1, 8, strip->xOf(t)) < 0); // no ninth row on screen
        QCOMPARE(strip->rowAt(1, strip->laneTop(1) + strip->laneHeight(1) - 1), 7);
        // The picture of it (drawn without error; the rows' pixels are checked by eye in the report).
        QVERIFY(!strip->grab().isNull());
    }

    void errorsCopyAndReveal()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("t.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        // three slices on one thread: a at 0 us (10 us), b at 20 us (5 us), c at 40 us (1 us)
        f.write(R"({"traceEvents":[{"ph":"X","name":"a","ts":0,"dur":10,"pid":1,"tid":1},)"
                R"({"ph":"X","name":"b","ts":20,"dur":5,"pid":1,"tid":1},{"ph":"X","name":"c","ts":40,"dur":1,"pid":1,"tid":1}]})");
        f.close();
        MainWindow w;
        w.show();
        QVERIFY(test::openInWindow(w, f.fileName()));
        QueryDock *dock = w.queryDock();
        dock->present();

        const QString bad = QStringLiteral("SELECT name\nFROM slices\nWHERE dur >> 3 ORDR BY ts");
        QVERIFY(runAndWait(dock, bad));
        QVERIFY2(dock->status()->text().contains(QStringLiteral("line 3")), qPrintable(dock->status()->text()));
        // the cursor sits where SQLite stopped (near "ORDR": the sqlite3 shell's caret is there too): line 3, column 16
        const QTextCursor cursor = dock->editor()->textCursor();
        QCOMPARE(cursor.blockNumber(), 2);
        QCOMPARE(cursor.positionInBlock(), 15);
        QVERIFY(!dock->pinButton()->isEnabled());

        QVERIFY(runAndWait(dock, QStringLiteral("SELECT id, name, dur, NULL AS missing FROM slices ORDER BY ts")));
        QVERIFY2(dock->model()->rowCount() == 3, qPrintable(dock->status()->text()));
        QTableView *table = dock->table();
        table->selectAll();
        table->setFocus();
        QTest::keySequence(table, QKeySequence::Copy);
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("0\ta\t10000\t\n1\tb\t5000\t\n2\tc\t1000\t\n"));
        QCOMPARE(dock->model()->data(dock->model()->index(0, 3), Qt::DisplayRole).toString(), QStringLiteral("NULL"));

        // A header click on a complete result sorts it in memory: dur ascending after descending.
        QSignalSpy started(dock->job(), &QueryJob::started);
        emit table->horizontalHeader()->sectionClicked(2);
        QCOMPARE(dock->model()->data(dock->model()->index(0, 1), Qt::DisplayRole).toString(), QStringLiteral("a"));
        emit table->horizontalHeader()->sectionClicked(2);
        QCOMPARE(dock->model()->data(dock->model()->index(0, 1), Qt::DisplayRole).toString(), QStringLiteral("c"));
        QCOMPARE(started.size(), 0); // not run again

        // Enter (or a double-click) on a row: its slice is selected in the timeline.
        table->setCurrentIndex(dock->model()->index(1, 1));
        QTest::keyClick(table, Qt::Key_Return);
        QCOMPARE(w.session()->selectedSlice().value, uint32_t(1)); // row 1 after the sort: b (id 1)

        // Pinning a result without ts says why.
        QVERIFY(runAndWait(dock, QStringLiteral("SELECT name FROM slices")));
        QVERIFY(!dock->pinButton()->isEnabled());
        QSignalSpy pinned(dock, &QueryDock::lanePinned);
        dock->pin();
        QVERIFY(pinned.wait(60000));
        QVERIFY(!pinned.at(0).at(0).toBool());
        QVERIFY(dock->status()->text().contains(QStringLiteral("no ts column")));
        // Instants: ts only.
        QVERIFY(runAndWait(dock, QStringLiteral("SELECT ts, name FROM slices")));
        dock->pin();
        QVERIFY(pinned.wait(60000));
        QVERIFY(pinned.at(1).at(0).toBool());
        QCOMPARE(dock->strip()->lane(0)->items.size(), size_t(3));
        QVERIFY(dock->strip()->lane(0)->items[0].instant());
    }
};

QTEST_MAIN(TestQueryDock)
#include "tst_querydock.moc"
