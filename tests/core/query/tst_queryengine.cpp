// QueryEngine: SQL over a loaded trace through virtual tables. Every table of docs/sqlite-schema.md is
// there with the exported columns in order and the same rows as the file SqliteExporter writes; the
// documented example queries give the same rows in the engine as on that file (a real Kineto trace and
// a real NTFF); the keys (ts ranges, track_id, name, id, arg_set_id, flows' ends) give the same rows as
// a scan; counts match an independent count of the raw file; writes are refused, syntax errors carry
// their position, a runaway query stops at its time limit or on cancel(), results can be paged.
#include "corpus.h"
#include "loadtrace.h"

#include "model/trace.h"
#include "query/querycursor.h"
#include "query/queryengine.h"
#include "store/sqliteexporter.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

using namespace lanescope;

namespace {

using Rows = std::vector<std::vector<Cell>>;

const QString kKineto = QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz");
const QString kNtff = QStringLiteral("neuron-trn2-v6/fused_bf16_s512/fused_exec_2.ntff");

class Collect : public QueryResultSink
{
public:
    std::vector<std::string> columns;
    Rows rows;
    size_t stopAfter = size_t(-1);
    bool begin(const std::vector<std::string> &c) override
    {
        columns = c;
        return true;
    }
    bool row(const QueryRow &r) override
    {
        std::vector<Cell> cells;
        for (int i = 0; i < r.size(); ++i)
            cells.push_back(r.cell(i));
        rows.push_back(std::move(cells));
        return rows.size() < stopAfter;
    }
};

Rows engineRows(QueryEngine &e, const std::string &sql, std::vector<std::string> *columns = nullptr)
{
    Collect c;
    QueryError err;
    if (!e.run(sql, c, {}, &err))
        qWarning("engine: %s: %s", sql.c_str(), err.message.c_str());
    if (columns)
        *columns = c.columns;
    return c.rows;
}

// The same query on an SQLite file, straight through SQLite's API.
Rows fileRows(sqlite3 *db, const std::string &sql, std::vector<std::string> *columns = nullptr)
{
    Rows out;
    sqlite3_stmt *s = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
        qWarning("file: %s: %s", sql.c_str(), sqlite3_errmsg(db));
        return out;
    }
    if (columns)
        for (int i = 0; i < sqlite3_column_count(s); ++i)
            columns->push_back(sqlite3_column_name(s, i));
    while (sqlite3_step(s) == SQLITE_ROW) {
        std::vector<Cell> cells;
        for (int i = 0; i < sqlite3_column_count(s); ++i) {
            switch (sqlite3_column_type(s, i)) {
            case SQLITE_INTEGER: cells.emplace_back(int64_t(sqlite3_column_int64(s, i))); break;
            case SQLITE_FLOAT: cells.emplace_back(sqlite3_column_double(s, i)); break;
            case SQLITE_NULL: cells.emplace_back(nullptr); break;
            default:
                cells.emplace_back(std::string(reinterpret_cast<const char *>(sqlite3_column_text(s, i)),
                                               size_t(sqlite3_column_bytes(s, i))));
            }
        }
        out.push_back(std::move(cells));
    }
    sqlite3_finalize(s);
    return out;
}

QString show(const std::vector<Cell> &row)
{
    QStringList parts;
    for (const Cell &c : row) {
        if (const auto *i = std::get_if<int64_t>(&c))
            parts << QString::number(*i);
        else if (const auto *d = std::get_if<double>(&c))
            parts << QString::number(*d, 'g', 17);
        else if (const auto *s = std::get_if<std::string>(&c))
            parts << QLatin1Char('\'') + QString::fromStdString(*s) + QLatin1Char('\'');
        else
            parts << QStringLiteral("NULL");
    }
    return parts.join(QStringLiteral(", "));
}

// Equal row for row; otherwise says where they first differ.
QString compareRows(const Rows &a, const Rows &b)
{
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        if (a[i] != b[i])
            return QStringLiteral("row %1: engine (%2) vs file (%3)").arg(i).arg(show(a[i]), show(b[i]));
    if (a.size() != b.size())
        return QStringLiteral("engine %1 rows, file %2").arg(a.size()).arg(b.size());
    return {};
}

int64_t scalar(QueryEngine &e, const std::string &sql)
{
    const Rows r = engineRows(e, sql);
    return r.empty() || r[0].empty() || !std::holds_alternative<int64_t>(r[0][0]) ? -1 : std::get<int64_t>(r[0][0]);
}

QString readDoc()
{
    QFile doc(QStringLiteral(LANESCOPE_SOURCE_DIR "/docs/sqlite-schema.md"));
    return doc.open(QIODevice::ReadOnly) ? QString::fromUtf8(doc.readAll()) : QString();
}

// A trace, the engine over it and the file SqliteExporter wrote of it.
struct Fixture
{
    std::shared_ptr<const Trace> trace;
    std::unique_ptr<QueryEngine> engine;
    QTemporaryDir dir;
    sqlite3 *db = nullptr;
    ~Fixture() { sqlite3_close(db); }
};

} // namespace

class TestQueryEngine : public QObject
{
    Q_OBJECT

    // Loads and exports once per corpus file.
    Fixture *fixture(const QString &relative)
    {
        auto &f = m_fixtures[relative];
        if (f)
            return f.get();
        f = std::make_unique<Fixture>();
        f->trace = lanescope::test::load(lanescope::test::corpusFile(relative));
        if (!f->trace)
            return nullptr;
        f->engine = std::make_unique<QueryEngine>(f->trace);
        const std::string path = f->dir.filePath(QStringLiteral("out.db")).toStdString();
        std::string error;
        if (!SqliteExporter::exportTo(*f->trace, path, {}, &error)) {
            qWarning("%s", error.c_str());
            return nullptr;
        }
        sqlite3_open_v2(path.c_str(), &f->db, SQLITE_OPEN_READONLY, nullptr);
        return f.get();
    }

    std::map<QString, std::unique_ptr<Fixture>> m_fixtures;

private slots:
    // Every table of the doc's table list is a table of the engine, its columns those of the exported
    // file in order, and its rows the file's, cell for cell.
    void everyTableAsExported_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<QString>("table");
        const QRegularExpression row(QStringLiteral("^\\| `(\\w+)` \\|"), QRegularExpression::MultilineOption);
        QStringList tables;
        for (auto it = row.globalMatch(readDoc()); it.hasNext();)
            tables << it.next().captured(1);
        QCOMPARE(tables.size(), 19); // meta ... notes
        for (const QString &relative : {kKineto, kNtff})
            for (const QString &t : tables)
                QTest::addRow("%s %s", qPrintable(relative.section(QLatin1Char('/'), -1)), qPrintable(t)) << relative << t;
    }

    void everyTableAsExported()
    {
        QFETCH(QString, relative);
        QFETCH(QString, table);
        LANESCOPE_REQUIRE_CORPUS_FILE(relative);
        QVERIFY(std::count(QueryEngine::tables().begin(), QueryEngine::tables().end(), table.toStdString()) == 1);
        Fixture *f = fixture(relative);
        QVERIFY(f && f->engine->ok() && f->db);
        const std::string sql = "SELECT * FROM " + table.toStdString();
        std::vector<std::string> engineColumns, fileColumns;
        const Rows mine = engineRows(*f->engine, sql, &engineColumns);
        const Rows theirs = fileRows(f->db, sql, &fileColumns);
        QCOMPARE(engineColumns, fileColumns);
        QVERIFY(!fileColumns.empty());
        const QString diff = compareRows(mine, theirs);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        // the declared types too (PRAGMA table_info: INTEGER, REAL, TEXT, or none for any type)
        const std::string info = "SELECT name, type FROM pragma_table_info('" + table.toStdString() + "')";
        const QString types = compareRows(engineRows(*f->engine, info), fileRows(f->db, info));
        QVERIFY2(types.isEmpty(), qPrintable(types));
    }

    // Each example query of docs/sqlite-schema.md: the same rows in the engine as on the exported file.
    void exampleQueriesSameRows_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<QString>("query");
        const QRegularExpression re(QStringLiteral("```sql\\n(.*?)```"), QRegularExpression::DotMatchesEverythingOption);
        int n = 0;
        const QString doc = readDoc();
        for (const QString &relative : {kKineto, kNtff}) {
            n = 0;
            for (auto it = re.globalMatch(doc); it.hasNext();)
                QTest::addRow("%s query %d", qPrintable(relative.section(QLatin1Char('/'), -1)), ++n)
                    << relative << it.next().captured(1).trimmed();
        }
        QVERIFY(n >= 3);
    }

    void exampleQueriesSameRows()
    {
        QFETCH(QString, relative);
        QFETCH(QString, query);
        LANESCOPE_REQUIRE_CORPUS_FILE(relative);
        Fixture *f = fixture(relative);
        QVERIFY(f && f->engine->ok() && f->db);
        const Rows mine = engineRows(*f->engine, query.toStdString());
        const Rows theirs = fileRows(f->db, query.toStdString());
        const QString diff = compareRows(mine, theirs);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        if (relative == kKineto)
            QVERIFY(!mine.empty());
    }

    // Keys against a scan: `+col` hides a column from the virtual table's index, so SQLite scans and
    // filters itself.
    void keysGiveTheRowsOfAScan_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<QString>("keyed");
        QTest::addColumn<qint64>("atLeast"); // the keyed query must find rows
        for (const QString &relative : {kKineto, kNtff}) {
            const QString file = relative.section(QLatin1Char('/'), -1);
            auto add = [&](const char *what, const QString &sql, qint64 atLeast) {
                QTest::addRow("%s %s", qPrintable(file), what) << relative << sql << atLeast;
            };
            // the middle third of the trace, on every track
            const QString mid = QStringLiteral("(SELECT (2 * MIN(ts) + MAX(ts)) / 3 FROM slices)");
            const QString late = QStringLiteral("(SELECT (MIN(ts) + 2 * MAX(ts)) / 3 FROM slices)");
            add("ts range", QStringLiteral("SELECT id FROM slices WHERE ts >= %1 AND ts < %2").arg(mid, late), 1);
            add("ts strict low, real bounds", QStringLiteral("SELECT id FROM slices WHERE ts > %1 + 0.5 AND ts <= %2 - 0.25").arg(mid, late), 1);
            add("ts low only", QStringLiteral("SELECT id FROM slices WHERE ts > %1").arg(late), 1);
            add("busiest track", QStringLiteral("SELECT id FROM slices WHERE track_id = (SELECT id FROM tracks ORDER BY slice_count DESC LIMIT 1)"), 1);
            add("track and ts", QStringLiteral("SELECT id FROM slices WHERE track_id = (SELECT id FROM tracks ORDER BY slice_count DESC LIMIT 1) AND ts BETWEEN %1 AND %2").arg(mid, late), 1);
            add("no such track", QStringLiteral("SELECT id FROM slices WHERE track_id = 1000000"), 0);
            add("name", QStringLiteral("SELECT id FROM slices WHERE name = (SELECT name FROM slices GROUP BY name ORDER BY COUNT(*) DESC LIMIT 1)"), 2);
            add("unknown name", QStringLiteral("SELECT id FROM slices WHERE name = 'no such name at all'"), 0);
            add("name IN", QStringLiteral("SELECT id FROM slices WHERE name IN (SELECT name FROM slices GROUP BY name ORDER BY COUNT(*) DESC LIMIT 3)"), 3);
            add("id", QStringLiteral("SELECT id, name, parent_id FROM slices WHERE id = (SELECT MAX(id) / 2 FROM slices)"), 1);
            add("instants ts", QStringLiteral("SELECT id FROM instants WHERE ts >= (SELECT AVG(ts) FROM instants)"), 0);
            add("counters track and ts", QStringLiteral("SELECT track_id, ts, value FROM counters WHERE track_id = (SELECT MIN(track_id) FROM counters) AND ts > (SELECT AVG(ts) FROM counters)"), 0);
            add("args of a set", QStringLiteral("SELECT arg_set_id, key, value FROM args WHERE arg_set_id = (SELECT arg_set_id FROM slices WHERE arg_set_id IS NOT NULL ORDER BY id LIMIT 1 OFFSET 7)"), 1);
            add("flows from", QStringLiteral("SELECT id FROM flows WHERE from_slice_id = (SELECT from_slice_id FROM flows ORDER BY id LIMIT 1 OFFSET 3)"), 0);
            add("flows to", QStringLiteral("SELECT id FROM flows WHERE to_slice_id = (SELECT to_slice_id FROM flows ORDER BY id LIMIT 1 OFFSET 3)"), 0);
            add("tracks id", QStringLiteral("SELECT path FROM tracks WHERE id = 1"), 1);
        }
    }

    void keysGiveTheRowsOfAScan()
    {
        QFETCH(QString, relative);
        QFETCH(QString, keyed);
        QFETCH(qint64, atLeast);
        LANESCOPE_REQUIRE_CORPUS_FILE(relative);
        Fixture *f = fixture(relative);
        QVERIFY(f && f->engine->ok());
        // the scan: every key column written as +column (an expression: no index)
        QString scanned = keyed;
        for (const char *c : {"ts", "track_id", "name", "arg_set_id", "from_slice_id", "to_slice_id"})
            scanned.replace(QRegularExpression(QStringLiteral("WHERE %1 ").arg(QLatin1String(c))), QStringLiteral("WHERE +%1 ").arg(QLatin1String(c)))
                .replace(QRegularExpression(QStringLiteral("AND %1 ").arg(QLatin1String(c))), QStringLiteral("AND +%1 ").arg(QLatin1String(c)));
        scanned.replace(QStringLiteral("WHERE id ="), QStringLiteral("WHERE +id ="));
        QVERIFY(scanned != keyed);
        // Cell has no operator< (nullptr_t): by type, then value.
        auto less = [](const std::vector<Cell> &a, const std::vector<Cell> &b) {
            for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
                if (a[i].index() != b[i].index())
                    return a[i].index() < b[i].index();
                if (const auto *x = std::get_if<int64_t>(&a[i]); x && *x != std::get<int64_t>(b[i]))
                    return *x < std::get<int64_t>(b[i]);
                if (const auto *x = std::get_if<double>(&a[i]); x && *x != std::get<double>(b[i]))
                    return *x < std::get<double>(b[i]);
                if (const auto *x = std::get_if<std::string>(&a[i]); x && *x != std::get<std::string>(b[i]))
                    return *x < std::get<std::string>(b[i]);
            }
            return a.size() < b.size();
        };
        auto sorted = [&less](Rows r) {
            std::sort(r.begin(), r.end(), less);
            return r;
        };
        const Rows mine = sorted(engineRows(*f->engine, keyed.toStdString()));
        const Rows scan = sorted(engineRows(*f->engine, scanned.toStdString()));
        const QString diff = compareRows(mine, scan);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QVERIFY2(qint64(mine.size()) >= atLeast, qPrintable(QString::number(mine.size())));
        if (f->db) { // and the file (with SQLite's own indexes) agrees
            const QString file = compareRows(mine, sorted(fileRows(f->db, keyed.toStdString())));
            QVERIFY2(file.isEmpty(), qPrintable(file));
        }
    }

    // Key values a key cannot use as they are (text for an id, reals, NULL, a collation): SQLite's own
    // rules decide, the same on the exported file.
    void keyValuesOfOtherTypes_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::newRow("id as text") << QStringLiteral("SELECT id FROM slices WHERE id = '3'");
        QTest::newRow("id as real") << QStringLiteral("SELECT id FROM slices WHERE id = 3.0");
        QTest::newRow("id as fraction") << QStringLiteral("SELECT id FROM slices WHERE id = 3.5");
        QTest::newRow("id NULL") << QStringLiteral("SELECT id FROM slices WHERE id = NULL");
        QTest::newRow("track as text") << QStringLiteral("SELECT COUNT(*) FROM slices WHERE track_id = '1'");
        QTest::newRow("ts against text") << QStringLiteral("SELECT COUNT(*) FROM slices WHERE ts > 'a'");
        QTest::newRow("name nocase") << QStringLiteral("SELECT COUNT(*) FROM slices WHERE name = 'ATEN::CONV2D' COLLATE NOCASE");
        QTest::newRow("name as number") << QStringLiteral("SELECT COUNT(*) FROM slices WHERE name = 5");
        QTest::newRow("order by name desc") << QStringLiteral("SELECT name FROM slices ORDER BY name DESC LIMIT 5");
        QTest::newRow("distinct names") << QStringLiteral("SELECT DISTINCT name FROM slices ORDER BY name");
        QTest::newRow("set as real") << QStringLiteral("SELECT key FROM args WHERE arg_set_id = 2.0 ORDER BY key");
    }

    void keyValuesOfOtherTypes()
    {
        QFETCH(QString, sql);
        LANESCOPE_REQUIRE_CORPUS_FILE(kKineto);
        Fixture *f = fixture(kKineto);
        QVERIFY(f && f->engine->ok() && f->db);
        const Rows mine = engineRows(*f->engine, sql.toStdString());
        const QString diff = compareRows(mine, fileRows(f->db, sql.toStdString()));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    // The keys are used: EXPLAIN QUERY PLAN names the plan's bits (tablemodule.cpp: 1 id, 2 track_id,
    // 4/8 ts >= / >, 16/32 ts <= / <, 64 name, 128 arg_set_id, 256/512 a flow's ends, 1024 name order)
    // and GROUP BY name needs no sorter.
    void plansUseTheKeys_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("plan");
        QTest::newRow("group by name") << QStringLiteral("SELECT name, COUNT(*), SUM(dur) FROM slices GROUP BY name") << QStringLiteral("1024");
        QTest::newRow("order by name") << QStringLiteral("SELECT name FROM slices ORDER BY name") << QStringLiteral("1024");
        QTest::newRow("track and ts") << QStringLiteral("SELECT * FROM slices WHERE track_id = 3 AND ts > 5 AND ts < 10") << QStringLiteral("62");
        QTest::newRow("ts between") << QStringLiteral("SELECT * FROM counters WHERE ts BETWEEN 5 AND 10") << QStringLiteral("20");
        QTest::newRow("name") << QStringLiteral("SELECT * FROM instants WHERE name = 'x'") << QStringLiteral("64");
        QTest::newRow("id") << QStringLiteral("SELECT * FROM flows WHERE id = 2") << QStringLiteral("1");
        QTest::newRow("arg set") << QStringLiteral("SELECT * FROM args WHERE arg_set_id = 2") << QStringLiteral("128");
        QTest::newRow("flow to") << QStringLiteral("SELECT * FROM flows WHERE to_slice_id = 2") << QStringLiteral("512");
    }

    void plansUseTheKeys()
    {
        QFETCH(QString, sql);
        QFETCH(QString, plan);
        QueryEngine e(std::make_shared<const Trace>());
        const Rows rows = engineRows(e, "EXPLAIN QUERY PLAN " + sql.toStdString());
        QString details;
        for (const auto &r : rows)
            details += QString::fromStdString(std::get<std::string>(r.back())) + QLatin1Char('\n');
        QVERIFY2(details.contains(QStringLiteral("VIRTUAL TABLE INDEX %1:").arg(plan)), qPrintable(details));
        QVERIFY2(!details.contains(QStringLiteral("TEMP B-TREE")), qPrintable(details));
    }

    // Counts against the raw file, counted by Python (json.load of the gzip, traceEvents):
    //   sum(1 for e in ev if e.get('ph') == 'X')                                   -> 63166
    //   Counter(e['name'] for e in ev if e.get('ph') == 'X')['aten::conv2d']        -> 318
    //   Counter(...)['cudaLaunchKernel']                                            -> 8802
    //   sum(1 for e in ev if e.get('ph') == 'i')                                    -> 1
    void countsMatchTheRawFile()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kKineto);
        Fixture *f = fixture(kKineto);
        QVERIFY(f && f->engine->ok());
        QueryEngine &e = *f->engine;
        QCOMPARE(scalar(e, "SELECT COUNT(*) FROM slices"), 63166);
        QCOMPARE(scalar(e, "SELECT COUNT(*) FROM slices WHERE name = 'aten::conv2d'"), 318);
        QCOMPARE(scalar(e, "SELECT COUNT(*) FROM slices WHERE name = 'cudaLaunchKernel'"), 8802);
        QCOMPARE(scalar(e, "SELECT COUNT(*) FROM instants"), 1);
        // GROUP BY name reads the name index: the same counts
        const Rows groups = engineRows(e, "SELECT name, COUNT(*) FROM slices GROUP BY name");
        int64_t total = 0, conv = -1;
        for (const auto &g : groups) {
            total += std::get<int64_t>(g[1]);
            if (std::get<std::string>(g[0]) == "aten::conv2d")
                conv = std::get<int64_t>(g[1]);
        }
        QCOMPARE(total, 63166);
        QCOMPARE(conv, 318);
        for (size_t i = 1; i < groups.size(); ++i) // in name order, as SQLite's GROUP BY gives them
            QVERIFY(std::get<std::string>(groups[i - 1][0]) < std::get<std::string>(groups[i][0]));
    }

    void writesAreRefused_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::newRow("insert") << QStringLiteral("INSERT INTO slices(id) VALUES (1)");
        QTest::newRow("update") << QStringLiteral("UPDATE slices SET dur = 0");
        QTest::newRow("delete") << QStringLiteral("DELETE FROM tracks");
        QTest::newRow("create table") << QStringLiteral("CREATE TABLE t AS SELECT * FROM slices");
        QTest::newRow("create temp table") << QStringLiteral("CREATE TEMP TABLE t(x)");
        QTest::newRow("create index") << QStringLiteral("CREATE INDEX i ON slices(name)");
        QTest::newRow("drop") << QStringLiteral("DROP TABLE slices");
        QTest::newRow("attach") << QStringLiteral("ATTACH DATABASE '/tmp/lanescope-query-attach.db' AS x");
        QTest::newRow("pragma write") << QStringLiteral("PRAGMA writable_schema = 1");
        QTest::newRow("second statement") << QStringLiteral("SELECT 1; DELETE FROM slices");
    }

    void writesAreRefused()
    {
        QFETCH(QString, sql);
        auto trace = std::make_shared<const Trace>();
        QueryEngine e(trace);
        QVERIFY(e.ok());
        Collect c;
        QueryError err;
        QVERIFY(!e.run(sql.toStdString(), c, {}, &err));
        QCOMPARE(err.kind, QueryError::Kind::ReadOnly);
        QVERIFY2(err.message.rfind("read-only: ", 0) == 0, err.message.c_str());
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/lanescope-query-attach.db")));
        // reads still work, and an empty trace has empty tables
        QCOMPARE(scalar(e, "SELECT COUNT(*) FROM slices"), 0);
        QCOMPARE(scalar(e, "SELECT COUNT(*) FROM pragma_table_info('slices')"), 10);
    }

    void syntaxErrorHasItsPosition()
    {
        QueryEngine e(std::make_shared<const Trace>());
        Collect c;
        QueryError err;
        // "ORDER" is where the parser gives up: line 2, column 3 (byte 38)
        const std::string sql = "SELECT name FROM slices WHERE dur >\n  ORDER BY name";
        QVERIFY(!e.run(sql, c, {}, &err));
        QCOMPARE(err.kind, QueryError::Kind::Sql);
        QCOMPARE(err.offset, int(sql.find("ORDER")));
        QCOMPARE(err.line, 2);
        QCOMPARE(err.column, 3);
        QVERIFY2(err.message.find("syntax error") != std::string::npos, err.message.c_str());
        QVERIFY2(err.message.find("line 2, column 3") != std::string::npos, err.message.c_str());
        // an error in the second statement: the position counts from the start of the text
        const std::string two = "SELECT 1;\nSELECT nosuchcolumn FROM slices";
        QVERIFY(!e.run(two, c, {}, &err));
        QCOMPARE(err.kind, QueryError::Kind::Sql);
        QVERIFY2(err.message.find("no such column: nosuchcolumn") != std::string::npos, err.message.c_str());
        QCOMPARE(err.line, 2);
    }

    void timeLimitAndCancelStopARunawayQuery()
    {
        QueryEngine e(std::make_shared<const Trace>());
        const std::string runaway = "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT COUNT(*) FROM r";
        Collect c;
        QueryError err;
        QueryOptions o;
        o.timeoutSeconds = 0.3;
        const auto t0 = std::chrono::steady_clock::now();
        QVERIFY(!e.run(runaway, c, o, &err));
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QCOMPARE(err.kind, QueryError::Kind::TimedOut);
        QCOMPARE(QString::fromStdString(err.message), QStringLiteral("query cancelled after 0.3 s"));
        QVERIFY2(took >= 0.3 && took < 5, qPrintable(QString::number(took)));
        // cancel() from another thread
        std::thread canceller([&e] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            e.cancel();
        });
        QVERIFY(!e.run(runaway, c, {}, &err));
        canceller.join();
        QCOMPARE(err.kind, QueryError::Kind::Cancelled);
        QCOMPARE(QString::fromStdString(err.message), QStringLiteral("query cancelled"));
        // the engine runs the next query normally
        QCOMPARE(scalar(e, "SELECT 6 * 7"), 42);
    }

    // A derived table is computed whole when a statement first names it (the analyses take no cancel):
    // a time limit that passes meanwhile stops the statement right after, with the limit's message,
    // though the statement itself is too short for SQLite's progress handler; the table is kept, so the
    // next query reads it at once. The count is tst_cliexportsqlite's independent one (65 here: the
    // distinct (cat, name) of the file's Kernel / Memcpy / Memset events, by Python over the raw file).
    void timeLimitHonouredAfterADerivedTable()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kKineto);
        Fixture *f = fixture(kKineto);
        QVERIFY(f && f->trace);
        QueryEngine e(f->trace); // a fresh engine: kernels not made yet
        Collect c;
        QueryError err;
        QueryOptions o;
        o.timeoutSeconds = 1e-9;
        QVERIFY(!e.run("SELECT COUNT(*) FROM kernels", c, o, &err));
        QCOMPARE(err.kind, QueryError::Kind::TimedOut);
        QCOMPARE(QString::fromStdString(err.message), QStringLiteral("query cancelled after 1e-09 s"));
        QVERIFY(c.rows.empty());
        const auto t0 = std::chrono::steady_clock::now();
        QCOMPARE(scalar(e, "SELECT COUNT(*) FROM kernels"), 65);
        QVERIFY(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 1.0);
        // the cursor's prepare too: a cancel is not carried over from the run before
        auto cursor = e.open("SELECT COUNT(*) FROM kernels", &err);
        QVERIFY2(cursor, err.message.c_str());
    }

    // A large result a page at a time (the cursor), or stopped by the sink or --max-rows.
    void pagedResults()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kKineto);
        Fixture *f = fixture(kKineto);
        QVERIFY(f && f->engine->ok());
        QueryError err;
        std::unique_ptr<QueryCursor> cur = f->engine->open("SELECT id, name FROM slices", &err);
        QVERIFY2(cur, err.message.c_str());
        QCOMPARE(cur->columns(), (std::vector<std::string>{"id", "name"}));
        size_t pages = 0, total = 0;
        while (!cur->atEnd()) {
            Rows page;
            const size_t got = cur->fetch(5000, page);
            QVERIFY(got <= 5000 && page.size() == got);
            total += got;
            ++pages;
        }
        QVERIFY2(!cur->error(), cur->error().message.c_str());
        QCOMPARE(total, size_t(63166));
        QCOMPARE(pages, size_t(13)); // 12 full pages and the rest
        cur.reset();
        QVERIFY(!f->engine->open("SELECT 1; SELECT 2", &err));
        QVERIFY(!f->engine->open("SELEC 1", &err) && err.kind == QueryError::Kind::Sql);
        Collect c;
        c.stopAfter = 10;
        QueryStats stats;
        QVERIFY(f->engine->run("SELECT * FROM slices", c, {}, &err, &stats));
        QCOMPARE(c.rows.size(), size_t(10));
        QVERIFY(stats.truncated);
        QueryOptions o;
        o.maxRows = 25;
        Collect d;
        QVERIFY(f->engine->run("SELECT * FROM args", d, o, &err, &stats));
        QCOMPARE(d.rows.size(), size_t(25));
        QCOMPARE(stats.rows, uint64_t(25));
        QVERIFY(stats.truncated);
    }
};

QTEST_GUILESS_MAIN(TestQueryEngine)
#include "tst_queryengine.moc"
