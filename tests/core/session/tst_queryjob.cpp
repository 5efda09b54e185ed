// The Query dock's core (issue 48): QueryLaneBuilder turns a result into a timeline lane (ts, dur, name,
// id, track_id; NULL ts skipped and counted; a clear error without ts), and QueryJob runs SQL off the GUI
// thread: a result paged (never all fetched), a cursor reopened where it was after a streaming run,
// cancel() of a runaway query, errors with their line and column, CSV export and lanes of the whole
// result. The starter queries run on a real Kineto trace and a real NTFF.
#include "corpus.h"
#include "loadtrace.h"
#include "smalltrace.h"

#include "model/trace.h"
#include "session/queryjob.h"
#include "session/querylane.h"
#include "session/starterqueries.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace lanescope;

namespace {

struct Pages
{
    std::vector<std::vector<Cell>> rows;
    std::vector<std::string> columns;
};

// Waits for the next finished() of `job`; appends the pages that came with it.
bool waitPage(QueryJob &job, Pages &out, QueryError *error = nullptr, bool *atEnd = nullptr)
{
    QSignalSpy finished(&job, &QueryJob::finished);
    QMetaObject::Connection c = QObject::connect(&job, &QueryJob::page, [&out](quint64, std::shared_ptr<const QueryPage> page, bool first) {
        if (first)
            out.columns = page->columns;
        for (const auto &r : page->rows)
            out.rows.push_back(r);
    });
    const bool ok = finished.wait(60000);
    QObject::disconnect(c);
    if (!ok)
        return false;
    if (error)
        *error = finished.at(0).at(4).value<QueryError>();
    if (atEnd)
        *atEnd = finished.at(0).at(3).toBool();
    return true;
}

int64_t intOf(const Cell &c) { return std::get<int64_t>(c); }

} // namespace

class TestQueryJob : public QObject
{
    Q_OBJECT
private slots:
    void laneFromRows()
    {
        QueryLaneBuilder b;
        std::string error;
        QVERIFY(b.begin({"Name", "TS", "dur", "id", "track_id", "extra"}, &error)); // names match case-insensitively
        QVERIFY(b.add({std::string("b"), int64_t(300), int64_t(50), int64_t(7), int64_t(2), nullptr}));
        QVERIFY(b.add({std::string("a"), int64_t(100), nullptr, nullptr, nullptr, nullptr})); // no dur: an instant
        QVERIFY(b.add({std::string("a"), nullptr, int64_t(5), int64_t(1), nullptr, nullptr})); // NULL ts: skipped
        QVERIFY(b.add({nullptr, 200.6, 10.0, nullptr, nullptr, nullptr}));                    // reals rounded, no name
        QVERIFY(b.add({std::string("c"), std::string("250"), int64_t(-1), nullptr, nullptr, nullptr})); // text ts; negative dur: instant
        QVERIFY(b.add({std::string("d"), std::string("later"), int64_t(1), nullptr, nullptr, nullptr}));  // ts not a number: skipped
        const QueryLane lane = b.finish("my lane", "SELECT ...");
        QCOMPARE(lane.title, std::string("my lane"));
        QCOMPARE(lane.rowsRead, uint64_t(6));
        QCOMPARE(lane.skippedNullTs, uint64_t(2));
        QCOMPARE(lane.items.size(), size_t(4));
        // sorted by ts: 100 (a, instant), 201 (no name, 10 ns), 250 (c, instant), 300 (b, 50 ns, slice 7, track 2)
        QCOMPARE(lane.items[0].ts, int64_t(100));
        QVERIFY(lane.items[0].instant());
        QCOMPARE(lane.nameOf(lane.items[0]), std::string("a"));
        QCOMPARE(lane.items[1].ts, int64_t(201));
        QCOMPARE(lane.items[1].dur, int64_t(10));
        QCOMPARE(lane.nameOf(lane.items[1]), std::string());
        QCOMPARE(lane.items[2].ts, int64_t(250));
        QVERIFY(lane.items[2].instant());
        QCOMPARE(lane.items[3].sliceId, int64_t(7));
        QCOMPARE(lane.items[3].trackId, int64_t(2));
        QCOMPARE(lane.items[3].end(), int64_t(350));
        QCOMPARE(lane.names.size(), size_t(4)); // "", b, a, c
        QCOMPARE(lane.startNs, int64_t(100));
        QCOMPARE(lane.endNs, int64_t(350));
        // overlapping(): a slice that starts before the window is found (maxDur back)
        const auto [lo, hi] = lane.overlapping(320, 400);
        QCOMPARE(lo <= 3 && hi == 4, true);
        const auto [lo2, hi2] = lane.overlapping(0, 99);
        QCOMPARE(hi2 - lo2, size_t(0));
    }

    void laneNeedsTs()
    {
        QueryLaneBuilder b;
        std::string error;
        QVERIFY(!b.begin({"name", "dur"}, &error));
        QVERIFY2(error.find("no ts column") != std::string::npos, error.c_str());
        QVERIFY2(error.find("The result has: name, dur") != std::string::npos, error.c_str());
        QVERIFY(!QueryLaneBuilder::canPin({"name", "dur"}));
        QVERIFY(QueryLaneBuilder::canPin({"Ts"}));
        // without dur every row is an instant
        QVERIFY(b.begin({"ts"}, &error));
        QVERIFY(b.add({int64_t(5)}));
        const QueryLane lane = b.finish("t", "q");
        QCOMPARE(lane.items.size(), size_t(1));
        QVERIFY(lane.items[0].instant());
        QVERIFY(!lane.hasDur);
    }

    void laneRows()
    {
        // Hand-made intervals (ns), given out of order; rows worked out by hand (first row free at the
        // start, items in start order, the longer first of two that start together):
        //   A [0,100) 0 | B [0,50) 1 | C [10,30) 2 | D [50,60) 1 (B ended at 50; C's row 2 is free too,
        //   the lowest wins) | E [100,110) 0 (A ended) | F instant 105: 0 busy -> 1 | G instant 105: 1
        //   (F ends at 105) | H zero-length at 110: 0 (E ended) | J [120,220) 0 | I [200,205) 1
        QueryLaneBuilder b;
        std::string error;
        QVERIFY(b.begin({"name", "ts", "dur"}, &error));
        const struct { const char *name; int64_t ts, dur; } in[] = {
            {"I", 200, 5}, {"E", 100, 10}, {"B", 0, 50}, {"G", 105, -1}, {"A", 0, 100}, {"C", 10, 20},
            {"H", 110, 0}, {"F", 105, -1}, {"D", 50, 10}, {"J", 120, 100},
        };
        for (const auto &r : in)
            QVERIFY(b.add({std::string(r.name), r.ts, r.dur >= 0 ? Cell(r.dur) : Cell(nullptr)}));
        const QueryLane lane = b.finish("rows", "q");
        QCOMPARE(lane.items.size(), size_t(10));
        std::string order, rows;
        for (const QueryLaneItem &i : lane.items) {
            order += lane.nameOf(i);
            rows += char('0' + i.row);
        }
        QCOMPARE(order, std::string("ABCDEGFHJI")); // G before F: both instants at 105, kept in input order
        QCOMPARE(rows, std::string("0121011001"));
        QCOMPARE(lane.rowCount, uint32_t(3));
        QCOMPARE(lane.rowBegin, (std::vector<uint32_t>{0, 4, 9, 10}));
        // row 1 holds B, D, G, F, I: its items overlapping [55, 104] are D alone
        auto names = [&lane](std::pair<size_t, size_t> r) {
            std::string s;
            for (size_t p = r.first; p < r.second; ++p)
                s += lane.nameOf(lane.rowItem(p));
            return s;
        };
        QCOMPARE(names(lane.overlappingInRow(1, 55, 104)), std::string("D"));
        QCOMPARE(names(lane.overlappingInRow(0, 100, 100)), std::string("AE")); // A ends at 100, E starts there
        QCOMPARE(names(lane.overlappingInRow(1, 0, 1000)), std::string("BDGFI"));
        QCOMPARE(names(lane.overlappingInRow(2, 31, 1000)), std::string());
        QCOMPARE(names(lane.overlappingInRow(3, 0, 1000)), std::string()); // no such row

        // Instants alone stay in one row, however many share a time.
        QVERIFY(b.begin({"ts"}, &error));
        for (int64_t t : {5, 5, 5, 7, 1})
            QVERIFY(b.add({t}));
        QCOMPARE(b.finish("i", "q").rowCount, uint32_t(1));
        // 3,000 slices that all overlap: one row each (and no quadratic search: the rows are a heap).
        QVERIFY(b.begin({"ts", "dur"}, &error));
        for (int64_t t = 0; t < 3000; ++t)
            QVERIFY(b.add({t, int64_t(1'000'000)}));
        const QueryLane wide = b.finish("w", "q");
        QCOMPARE(wide.rowCount, uint32_t(3000));
        QCOMPARE(wide.items[2999].row, uint32_t(2999));
        // An empty lane: no rows.
        QVERIFY(b.begin({"ts"}, &error));
        const QueryLane empty = b.finish("e", "q");
        QCOMPARE(empty.rowCount, uint32_t(0));
        QCOMPARE(empty.overlappingInRow(0, 0, 10), (std::pair<size_t, size_t>(0, 0)));
    }

    void laneRowsOnCorpus_data()
    {
        QTest::addColumn<QString>("where");
        QTest::addColumn<int>("items");
        QTest::addColumn<int>("rows");
        // python3 over the raw file (the X events the condition selects, [ts, ts + dur) in ns; a sweep in
        // time order, ends before starts at the same time, a zero-length event counting one while
        // open): the most events open at once is the row count greedy packing needs.
        //   name starts with "aten::": 40,374 events on two threads, at most 7 open at once
        //   cat == "Operator": 42,438 events, at most 9 open at once
        QTest::newRow("aten") << QStringLiteral("name LIKE 'aten::%'") << 40374 << 7;
        QTest::newRow("operator") << QStringLiteral("category = 'Operator'") << 42438 << 9;
    }

    void laneRowsOnCorpus()
    {
        QFETCH(QString, where);
        QFETCH(int, items);
        QFETCH(int, rows);
        const QString file = QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        static std::shared_ptr<const Trace> trace = test::load(test::corpusFile(file));
        QVERIFY(trace);
        QueryJob job;
        job.setTrace(trace);
        QSignalSpy ready(&job, &QueryJob::laneReady);
        job.buildLane(QStringLiteral("SELECT id, ts, dur, name, track_id FROM slices WHERE ") + where, where);
        QVERIFY(ready.wait(60000));
        const auto lane = ready.at(0).at(1).value<std::shared_ptr<const QueryLane>>();
        QVERIFY2(lane, qPrintable(ready.at(0).at(2).toString()));
        QCOMPARE(lane->items.size(), size_t(items));
        QCOMPARE(lane->rowCount, uint32_t(rows));
        // No row holds two items that overlap, and every item is in its row's list once.
        size_t listed = 0;
        for (uint32_t r = 0; r < lane->rowCount; ++r) {
            int64_t lastEnd = INT64_MIN;
            for (uint32_t p = lane->rowBegin[r]; p < lane->rowBegin[r + 1]; ++p, ++listed) {
                const QueryLaneItem &it = lane->rowItem(p);
                QCOMPARE(it.row, r);
                QVERIFY(it.ts >= lastEnd);
                lastEnd = it.end();
            }
        }
        QCOMPARE(listed, lane->items.size());
    }

    void pagesAndReopen()
    {
        QTemporaryDir dir;
        const auto trace = test::loadSmallTrace(dir, 1200);
        QVERIFY(trace);
        QCOMPARE(trace->allSlices().size(), size_t(1200));
        QueryJob job;
        job.setTrace(trace);
        QSignalSpy started(&job, &QueryJob::started);
        job.start(QStringLiteral("SELECT id, ts FROM slices ORDER BY ts"), 500);
        QCOMPARE(started.size(), 1);
        Pages pages;
        bool atEnd = true;
        QueryError err;
        QVERIFY(waitPage(job, pages, &err, &atEnd));
        QVERIFY2(!err, err.message.c_str());
        QCOMPARE(pages.columns, (std::vector<std::string>{"id", "ts"}));
        QCOMPARE(pages.rows.size(), size_t(500)); // one page, not the whole result
        QVERIFY(!atEnd);
        QCOMPARE(job.rowsFetched(), uint64_t(500));

        // A lane of the whole result in between: the cursor is closed, then reopened where it was.
        QSignalSpy lane(&job, &QueryJob::laneReady);
        job.buildLane(QStringLiteral("SELECT ts, dur, name, id FROM slices WHERE name = 'op7'"), QStringLiteral("op7"));
        QVERIFY(lane.wait(60000));
        const auto built = lane.at(0).at(1).value<std::shared_ptr<const QueryLane>>();
        QVERIFY2(built, qPrintable(lane.at(0).at(2).toString()));
        QCOMPARE(built->items.size(), size_t(24)); // events 7, 57, ..., 1157: 1200 / 50
        QCOMPARE(built->items[1].ts - built->items[0].ts, int64_t(100'000)); // 50 events of 2 us apart
        QCOMPARE(built->items[0].dur, int64_t(1000));

        QVERIFY(job.fetchMore(500));
        QVERIFY(!job.fetchMore(500)); // one page on its way at a time
        QVERIFY(waitPage(job, pages, &err, &atEnd));
        QVERIFY2(!err, err.message.c_str());
        QCOMPARE(pages.rows.size(), size_t(1000));
        QVERIFY(job.fetchMore(500));
        QVERIFY(waitPage(job, pages, &err, &atEnd));
        QCOMPARE(pages.rows.size(), size_t(1200));
        QVERIFY(atEnd);
        QVERIFY(!job.fetchMore());
        // Rows in order, none lost or repeated across the reopen: event i at 2000 i ns, every id once.
        std::set<int64_t> ids;
        for (size_t i = 0; i < pages.rows.size(); ++i) {
            ids.insert(intOf(pages.rows[i][0]));
            QCOMPARE(intOf(pages.rows[i][1]) - intOf(pages.rows[0][1]), int64_t(i) * 2000);
        }
        QCOMPARE(ids.size(), size_t(1200));
    }

    void errorPosition()
    {
        QTemporaryDir dir;
        const auto trace = test::loadSmallTrace(dir, 10);
        QueryJob job;
        job.setTrace(trace);
        // "WHRE" is taken as the table's alias; SQLite stops at "dur", line 2, column 6.
        job.start(QStringLiteral("SELECT name FROM slices\nWHRE dur > 0"));
        Pages pages;
        QueryError err;
        QVERIFY(waitPage(job, pages, &err));
        QCOMPARE(err.kind, QueryError::Kind::Sql);
        QVERIFY2(err.message.find("syntax error") != std::string::npos, err.message.c_str());
        QCOMPARE(err.line, 2);
        QCOMPARE(err.column, 6);
        QCOMPARE(err.offset, 29); // 24 bytes of line 1 and its newline, then 5
        // writes are refused
        job.start(QStringLiteral("DELETE FROM slices"));
        QVERIFY(waitPage(job, pages, &err));
        QCOMPARE(err.kind, QueryError::Kind::ReadOnly);
    }

    void cancelRunaway()
    {
        QTemporaryDir dir;
        const auto trace = test::loadSmallTrace(dir, 10);
        QueryJob job;
        job.setTrace(trace);
        QSignalSpy busy(&job, &QueryJob::busyChanged);
        job.start(QStringLiteral("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r"));
        QTRY_VERIFY(job.isRunning());
        QTest::qWait(200);
        QElapsedTimer timer;
        timer.start();
        job.cancel();
        Pages pages;
        QueryError err;
        QVERIFY(waitPage(job, pages, &err));
        QCOMPARE(err.kind, QueryError::Kind::Cancelled);
        QVERIFY(timer.elapsed() < 5000);
        QTRY_VERIFY(!job.isRunning());
        QCOMPARE(busy.last().at(0).toBool(), false);
        // the job runs the next query normally
        job.start(QStringLiteral("SELECT count(*) FROM slices"));
        QVERIFY(waitPage(job, pages, &err));
        QVERIFY2(!err, err.message.c_str());
        QCOMPARE(intOf(pages.rows.back()[0]), int64_t(10));
    }

    void exportCsvStreams()
    {
        QTemporaryDir dir;
        const auto trace = test::loadSmallTrace(dir, 300);
        QueryJob job;
        job.setTrace(trace);
        QSignalSpy exported(&job, &QueryJob::exported);
        const QString out = dir.filePath(QStringLiteral("r.csv"));
        job.exportCsv(QStringLiteral("SELECT id, name, ts FROM slices WHERE name LIKE 'op1%'"), out);
        QVERIFY(exported.wait(60000));
        QVERIFY2(exported.at(0).at(1).toBool(), qPrintable(exported.at(0).at(4).toString()));
        // names op1, op10..op19: 11 of every 50 events, 6 rounds of 50
        QCOMPARE(exported.at(0).at(3).toULongLong(), quint64(66));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines.front(), QByteArray("id,name,ts\r"));
        QCOMPARE(lines.size(), 68); // header, 66 rows, the empty piece after the last CRLF
        // a file that cannot be written says so
        job.exportCsv(QStringLiteral("SELECT 1"), dir.filePath(QStringLiteral("no/such/dir/r.csv")));
        QVERIFY(exported.wait(60000));
        QVERIFY(!exported.at(1).at(1).toBool());
        QVERIFY(exported.at(1).at(4).toString().contains(QStringLiteral("no/such/dir")));
    }

    void startersOnCorpus_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("kineto") << QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz");
        QTest::newRow("ntff") << QStringLiteral("neuron-trn2-v6/fused_bf16_s512/fused_exec_2.ntff");
    }

    void startersOnCorpus()
    {
        QFETCH(QString, file);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const auto trace = test::load(test::corpusFile(file));
        QVERIFY(trace);
        QueryJob job;
        job.setTrace(trace);
        const bool kineto = file.startsWith(QStringLiteral("kineto"));
        for (const StarterQuery &q : StarterQueries::all()) {
            job.start(QString::fromUtf8(q.sql));
            Pages pages;
            QueryError err;
            bool atEnd = false;
            QVERIFY(waitPage(job, pages, &err, &atEnd));
            QVERIFY2(!err, (std::string(q.title) + ": " + err.message).c_str());
            QVERIFY(atEnd);
            const std::string title = q.title;
            qInfo("%s: %s: %zu rows", qPrintable(file), q.title, pages.rows.size());
            if (title.starts_with("Slowest kernels")) {
                // python3 over the raw file: 8,802 of its 9,538 "Kernel" X events are the target of an
                // async flow ("f" at the kernel's pid, tid and ts whose id has an "s"); the query keeps
                // the 50 longest.
                QCOMPARE(pages.rows.size(), size_t(kineto ? 50 : 0));
            } else if (title.starts_with("Idle engines")) {
                QCOMPARE(pages.rows.size(), size_t(kineto ? 0 : 5)); // the NTFF's one NeuronCore: its five engines
            } else if (title.starts_with("Gaps")) {
                QVERIFY(!pages.rows.empty());
                QSignalSpy lane(&job, &QueryJob::laneReady);
                job.buildLane(QString::fromUtf8(q.sql), QString::fromUtf8(q.title));
                QVERIFY(lane.wait(60000));
                const auto built = lane.at(0).at(1).value<std::shared_ptr<const QueryLane>>();
                QVERIFY2(built, qPrintable(lane.at(0).at(2).toString()));
                QCOMPARE(built->items.size(), pages.rows.size());
                QCOMPARE(built->skippedNullTs, uint64_t(0));
                for (const QueryLaneItem &i : built->items)
                    QVERIFY(i.dur > 0 && i.ts >= trace->startNs() && i.end() <= trace->endNs());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestQueryJob)
#include "tst_queryjob.moc"
