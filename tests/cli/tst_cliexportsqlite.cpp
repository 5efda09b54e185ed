// lanescope-cli export-sqlite and cache, run as a user would (real processes): exported row counts
// equal `info --json`, the documented queries (README.md, docs/sqlite-schema.md) run in the sqlite3 shell, the second `info` comes from
// the cache, two processes filling one cache at once both succeed, `cache --clear` empties it. The
// derived tables (kernels, collectives, devices, dma_queues, tensors) of a real Kineto NCCL trace, a
// real NTFF and a neuron-profile JSON: `query` (the engine), the SQLite file and DuckDB's reading of
// the Parquet file hold the same cells, and the rows of the CLI command that prints the table, as many
// as an independent count of the raw file.
// Every run uses a temporary LANESCOPE_CACHE_DIR, never the user's cache.
#include "corpus.h"
#include "duckdb.h"
#include "requiretool.h"

#include "io/parquet/parquetfilereader.h"

#include <sqlite3.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out, err;
};

QProcess *startCli(const QStringList &args, const QString &cacheDir)
{
    auto *p = new QProcess;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("LANESCOPE_NO_CACHE"));
    env.insert(QStringLiteral("LANESCOPE_CACHE_DIR"), cacheDir);
    p->setProcessEnvironment(env);
    p->start(QStringLiteral(LANESCOPE_CLI), args);
    return p;
}

Run finish(QProcess *p)
{
    p->waitForFinished(300000);
    Run r{p->exitCode(), p->readAllStandardOutput(), p->readAllStandardError()};
    delete p;
    return r;
}

Run cli(const QStringList &args, const QString &cacheDir) { return finish(startCli(args, cacheDir)); }

qint64 sqliteCount(const QString &db, const QString &table)
{
    QProcess p;
    p.start(QStringLiteral("sqlite3"), {db, QStringLiteral("SELECT COUNT(*) FROM ") + table});
    p.waitForFinished(60000);
    return p.exitCode() == 0 ? p.readAllStandardOutput().trimmed().toLongLong() : -1;
}

// A cell of SQLite's current row as canonical text, and the same for a JSON cell (the engine's `query
// --format json`, a CLI command's --json, DuckDB's) read as SQLite's type says: integers exact, reals
// to 17 digits (both read back exactly), text as is, "NULL". DuckDB writes BIGINT (and may write
// DOUBLE) as text.
QString sqliteCell(sqlite3_stmt *s, int i)
{
    switch (sqlite3_column_type(s, i)) {
    case SQLITE_NULL: return QStringLiteral("NULL");
    case SQLITE_INTEGER: return QStringLiteral("i:") + QString::number(sqlite3_column_int64(s, i));
    case SQLITE_FLOAT: return QStringLiteral("r:") + QString::number(sqlite3_column_double(s, i), 'g', 17);
    default:
        return QStringLiteral("t:")
            + QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(s, i)), sqlite3_column_bytes(s, i));
    }
}

QString jsonCell(const QJsonValue &v, const QString &as)
{
    if (v.isNull() || v.isUndefined())
        return QStringLiteral("NULL");
    if (as.startsWith(QLatin1String("i:")))
        return QStringLiteral("i:") + (v.isString() ? v.toString() : QString::number(v.toInteger()));
    if (as.startsWith(QLatin1String("r:")))
        return QStringLiteral("r:") + QString::number(v.isString() ? v.toString().toDouble() : v.toDouble(), 'g', 17);
    return QStringLiteral("t:") + v.toString();
}

struct SqliteTable
{
    QStringList columns;
    QList<QStringList> rows;
};

SqliteTable readSqlite(const QString &db, const QString &table)
{
    SqliteTable t;
    sqlite3 *h = nullptr;
    if (sqlite3_open_v2(db.toUtf8().constData(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt *s = nullptr;
        const QByteArray sql = QStringLiteral("SELECT * FROM %1 ORDER BY rowid").arg(table).toUtf8();
        if (sqlite3_prepare_v2(h, sql.constData(), -1, &s, nullptr) == SQLITE_OK) {
            for (int i = 0; i < sqlite3_column_count(s); ++i)
                t.columns << QString::fromUtf8(sqlite3_column_name(s, i));
            while (sqlite3_step(s) == SQLITE_ROW) {
                QStringList row;
                for (int i = 0; i < sqlite3_column_count(s); ++i)
                    row << sqliteCell(s, i);
                t.rows << row;
            }
        }
        sqlite3_finalize(s);
    }
    sqlite3_close(h);
    return t;
}

// The first difference of `rows` (JSON arrays or objects by column name) from the SQLite table, or "".
QString diffFrom(const SqliteTable &want, const QJsonArray &rows, const QString &what)
{
    if (rows.size() != want.rows.size())
        return QStringLiteral("%1: %2 rows, SQLite %3").arg(what).arg(rows.size()).arg(want.rows.size());
    for (qsizetype r = 0; r < rows.size(); ++r)
        for (qsizetype c = 0; c < want.columns.size(); ++c) {
            const QJsonValue v = rows[r].isArray() ? rows[r].toArray().at(c) : rows[r].toObject().value(want.columns[c]);
            const QString got = jsonCell(v, want.rows[r][c]);
            if (got != want.rows[r][c])
                return QStringLiteral("%1 row %2 %3: %4, SQLite %5").arg(what).arg(r).arg(want.columns[c], got, want.rows[r][c]);
        }
    return {};
}

} // namespace

class TestCliExportSqlite : public QObject
{
    Q_OBJECT
private slots:
    void rowCountsEqualInfo_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::newRow("kineto resnet50") << QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz");
        QTest::newRow("neuron-profile json") << QStringLiteral("neuron-profile-json/profile_128x128x256.json");
        QTest::newRow("sample folder") << QString();
    }

    void rowCountsEqualInfo()
    {
        QFETCH(QString, relative);
        LANESCOPE_REQUIRE_TOOL("sqlite3", "sqlite3");
        QTemporaryDir tmp;
        QString path;
        if (relative.isEmpty()) {
            const Run gen = cli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), tmp.path()}, tmp.filePath(QStringLiteral("cache")));
            QCOMPARE(gen.exitCode, 0);
            path = tmp.filePath(QStringLiteral("synthetic_rmsnorm_profile"));
        } else {
            LANESCOPE_REQUIRE_CORPUS_FILE(relative);
            path = lanescope::test::corpusFile(relative);
        }
        const QString cache = tmp.filePath(QStringLiteral("cache"));
        const QString db = tmp.filePath(QStringLiteral("out.db"));
        const Run info = cli({QStringLiteral("info"), path, QStringLiteral("--json")}, cache);
        QCOMPARE(info.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(info.out).object();
        const Run exp = cli({QStringLiteral("export-sqlite"), path, QStringLiteral("-o"), db}, cache);
        QVERIFY2(exp.exitCode == 0, exp.err.constData());
        QVERIFY2(exp.err.contains("loaded from cache"), exp.err.constData()); // info stored it
        QCOMPARE(sqliteCount(db, QStringLiteral("slices")), qint64(o[QStringLiteral("slices")].toInteger()));
        QCOMPARE(sqliteCount(db, QStringLiteral("instants")), qint64(o[QStringLiteral("instants")].toInteger()));
        QCOMPARE(sqliteCount(db, QStringLiteral("counters")), qint64(o[QStringLiteral("counter_samples")].toInteger()));
        QCOMPARE(sqliteCount(db, QStringLiteral("flows")), qint64(o[QStringLiteral("flows")].toInteger()));
        QCOMPARE(sqliteCount(db, QStringLiteral("tracks")), qint64(o[QStringLiteral("tracks")].toArray().size()));
        // the table holds both kinds (its severity column tells them apart); `info` splits them
        QCOMPARE(sqliteCount(db, QStringLiteral("warnings")),
                 qint64(o[QStringLiteral("warnings")].toArray().size() + o[QStringLiteral("notes")].toArray().size()));
        if (relative.isEmpty())
            QCOMPARE(sqliteCount(db, QStringLiteral("files")), qint64(o[QStringLiteral("files")].toArray().size()));
    }

    // The example queries of README.md (its SQLite section: `sqlite3 out.db "..."` lines) and of
    // docs/sqlite-schema.md (its ```sql blocks) run in the sqlite3 shell on an exported real trace and
    // return rows.
    void documentedQueriesRunInTheShell_data()
    {
        QTest::addColumn<QString>("query");
        QFile readme(QStringLiteral(LANESCOPE_SOURCE_DIR "/README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString readmeText = QString::fromUtf8(readme.readAll());
        int n = 0;
        const QRegularExpression shell(QStringLiteral("^sqlite3 out\\.db \"([^\"]+)\"$"),
                                       QRegularExpression::MultilineOption);
        for (auto it = shell.globalMatch(readmeText); it.hasNext();)
            QTest::addRow("README.md query %d", ++n) << it.next().captured(1);
        QCOMPARE(n, 3);
        QFile doc(QStringLiteral(LANESCOPE_SOURCE_DIR "/docs/sqlite-schema.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        n = 0;
        const QRegularExpression re(QStringLiteral("```sql\\n(.*?)```"), QRegularExpression::DotMatchesEverythingOption);
        for (auto it = re.globalMatch(text); it.hasNext();)
            QTest::addRow("sqlite-schema.md query %d", ++n) << it.next().captured(1).trimmed();
        QCOMPARE(n, 3);
    }

    void documentedQueriesRunInTheShell()
    {
        QFETCH(QString, query);
        const QString relative = QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(relative);
        LANESCOPE_REQUIRE_TOOL("sqlite3", "sqlite3");
        if (m_queryDb.isEmpty()) { // one export for every query
            const QString db = m_tmp.filePath(QStringLiteral("queries.db"));
            const QString cache = m_tmp.filePath(QStringLiteral("cache"));
            const Run exp = cli({QStringLiteral("export-sqlite"), lanescope::test::corpusFile(relative), QStringLiteral("-o"), db,
                                 QStringLiteral("--no-cache")}, cache);
            QVERIFY2(exp.exitCode == 0, exp.err.constData());
            QVERIFY(!QDir(cache).exists()); // --no-cache
            m_queryDb = db;
        }
        QProcess p;
        p.start(QStringLiteral("sqlite3"), {QStringLiteral("-bail"), m_queryDb, query});
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY2(out.count('\n') >= 1, qPrintable(query)); // returns rows
    }

    // export-parquet: one file per table of export-sqlite, each holding that table's rows (Lanescope's
    // reader of the footer), and every DuckDB query of docs/parquet.md runs on such exports and returns
    // rows (the fleet queries over two ranks' exports).
    void exportParquetAndDocumentedQueries()
    {
        const QString rel = QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        LANESCOPE_REQUIRE_TOOL("sqlite3", "sqlite3");
        QTemporaryDir tmp;
        const QString db = tmp.filePath(QStringLiteral("out.db"));
        const QString out = tmp.filePath(QStringLiteral("out"));
        QCOMPARE(cli({QStringLiteral("export-sqlite"), lanescope::test::corpusFile(rel), QStringLiteral("-o"), db, QStringLiteral("--no-cache")},
                     tmp.path()).exitCode, 0);
        const Run r = cli({QStringLiteral("export-parquet"), lanescope::test::corpusFile(rel), QStringLiteral("-o"), out,
                           QStringLiteral("--codec"), QStringLiteral("snappy"), QStringLiteral("--no-cache")},
                          tmp.path());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith("wrote 19 Parquet files to "), r.out.constData());
        const QStringList tables = QStringLiteral("meta strings files groups tracks slices instants args counters flows "
                                                  "warnings ops engines kernels collectives devices dma_queues tensors notes")
                                       .split(QLatin1Char(' '));
        QCOMPARE(QDir(out).entryList({QStringLiteral("*.parquet")}, QDir::Files).size(), tables.size());
        for (const QString &t : tables) {
            lanescope::parquet::FileReader f;
            std::string error;
            QVERIFY2(f.open(QDir(out).filePath(t + QStringLiteral(".parquet")).toStdString(), &error), error.c_str());
            QCOMPARE(qint64(f.rows()), sqliteCount(db, t));
        }
        // The documented queries: out/ is this export, exports/ two ranks' exports (this Kineto trace and
        // a Neuron one, which has engines), summaries/ `summarize --parquet` of two HTA rank traces.
        const QString exports = tmp.filePath(QStringLiteral("exports"));
        const QString summaries = tmp.filePath(QStringLiteral("summaries"));
        const QString neuron = QStringLiteral("neuron-profile-json/profile_128x128x256.json");
        LANESCOPE_REQUIRE_CORPUS_FILE(neuron);
        const std::pair<const char *, QString> ranks[] = {{"rank-0", rel}, {"rank-1", neuron}};
        for (const auto &rank : ranks)
            QCOMPARE(cli({QStringLiteral("export-parquet"), lanescope::test::corpusFile(rank.second), QStringLiteral("-o"),
                          exports + QLatin1Char('/') + QLatin1String(rank.first), QStringLiteral("--no-cache")},
                         tmp.path()).exitCode, 0);
        const QString rank34 = QStringLiteral("hta/cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
        const QString rank70 = QStringLiteral("hta/large_integer_trace__rank-70.Mar_25_20_48_12.2861.pt.trace.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rank34);
        LANESCOPE_REQUIRE_CORPUS_FILE(rank70);
        QCOMPARE(cli({QStringLiteral("summarize"), lanescope::test::corpusFile(rank34), lanescope::test::corpusFile(rank70),
                      QStringLiteral("-o"), summaries, QStringLiteral("--parquet")},
                     tmp.path()).exitCode, 0);
        QCOMPARE(QDir(summaries).entryList({QStringLiteral("*.parquet")}, QDir::Files),
                 (QStringList{QStringLiteral("rank-34.summary.parquet"), QStringLiteral("rank-70.summary.parquet")}));
        LANESCOPE_REQUIRE_DUCKDB();
        QFile doc(QStringLiteral(LANESCOPE_SOURCE_DIR "/docs/parquet.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        QRegularExpression block(QStringLiteral("```sql\n(.*?)```"), QRegularExpression::DotMatchesEverythingOption);
        int queries = 0;
        for (auto it = block.globalMatch(text); it.hasNext(); ++queries) {
            QString sql = it.next().captured(1).trimmed();
            sql.chop(1); // the ';'
            sql.replace(QStringLiteral("'out/"), QStringLiteral("'") + out + QLatin1Char('/'));
            sql.replace(QStringLiteral("'exports/*"), QStringLiteral("'") + exports + QStringLiteral("/*"));
            sql.replace(QStringLiteral("'summaries/*"), QStringLiteral("'") + summaries + QStringLiteral("/*"));
            const lanescope::test::DuckResult d = lanescope::test::duckdb(sql);
            QVERIFY2(d.error.isEmpty(), qPrintable(sql + QLatin1Char('\n') + d.error));
            QVERIFY2(!d.rows.isEmpty(), qPrintable(sql));
        }
        QCOMPARE(queries, 5);
    }

    // The derived tables: for each, the CLI command that prints the same rows (its --json arrays, in
    // order), and the number of rows counted by Python over the raw file (json.load, gzip.open for .gz):
    //   hta/nccl_parser_config__nccl_data.json.gz, ev = d['traceEvents'], X = [e for e in ev if e.get('ph') == 'X']
    //     kernels      len({(e['cat'], e['name']) for e in X if e['cat'] in ('kernel', 'gpu_memcpy',
    //                  'gpu_memset')})                                        -> 72 (70 kernel names, 1 memcpy, 1 memset)
    //     collectives  len({(a['Collective name'], a['Process Group Name'], max(a['In msg nelems'],
    //                  a['Out msg nelems']), a['dtype']) for kernels with a = e['args'] holding
    //                  'Collective name'})                                    -> 7 (one rank: no per-rank rows)
    //     devices      len({e['args']['device'] of those kernel / memcpy / memset events})  -> 1
    //   neuron-trn2-v6/fused_bf16_s512/fused_exec_2.ntff, over the JSON neuron-profile exported from it
    //   (fused_exec_2_profile_full.json, d):
    //     kernels      len({r['opcode'] for r in d['instruction']}) + 1 (the DMA packets, one row)
    //                  + 1 (the NEFF execution)                             -> 19 + 1 + 1 = 21
    //     dma_queues   len({r['subgroup'] for r in d['dma']}) ('Q0-E64' ...) -> 40
    //     devices      one NeuronCore                                         -> 1
    //     collectives  no NCCL kernel                                         -> 0
    //   neuron-profile-json/profile_128x128x256.json:
    //     tensors      sum(1 for n in d['neff_node'] if n.get('variable_name')) -> 4 (the DMAs' 'variable'
    //                  names are among them, or 'unknown')
    void derivedTablesSameEverywhere_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("command"); // the CLI command, then its JSON arrays
        QTest::addColumn<int>("rows");
        const QString nccl = QStringLiteral("hta/nccl_parser_config__nccl_data.json.gz");
        const QString ntff = QStringLiteral("neuron-trn2-v6/fused_bf16_s512/fused_exec_2.ntff");
        const QString json = QStringLiteral("neuron-profile-json/profile_128x128x256.json");
        const auto c = [](const char *text) { return QString::fromLatin1(text).split(QLatin1Char(' ')); };
        QTest::newRow("nccl kernels") << nccl << QStringLiteral("kernels") << c("kernels kernels") << 72;
        QTest::newRow("nccl collectives") << nccl << QStringLiteral("collectives") << c("collectives collectives per_rank") << 7;
        QTest::newRow("nccl devices") << nccl << QStringLiteral("devices") << c("devices devices") << 1;
        QTest::newRow("ntff kernels") << ntff << QStringLiteral("kernels") << c("kernels kernels") << 21;
        QTest::newRow("ntff collectives") << ntff << QStringLiteral("collectives") << c("collectives collectives per_rank") << 0;
        QTest::newRow("ntff devices") << ntff << QStringLiteral("devices") << c("devices devices") << 1;
        QTest::newRow("ntff dma_queues") << ntff << QStringLiteral("dma_queues") << c("engines dma") << 40;
        QTest::newRow("json tensors") << json << QStringLiteral("tensors") << c("tensors tensors") << 4;
    }

    void derivedTablesSameEverywhere()
    {
        QFETCH(QString, relative);
        QFETCH(QString, table);
        QFETCH(QStringList, command);
        QFETCH(int, rows);
        LANESCOPE_REQUIRE_CORPUS_FILE(relative);
        LANESCOPE_REQUIRE_DUCKDB();
        const QString path = lanescope::test::corpusFile(relative);
        const QString cache = m_tmp.filePath(QStringLiteral("derived-cache"));
        QString &dir = m_exports[relative]; // one export of each kind per file
        if (dir.isEmpty()) {
            dir = m_tmp.filePath(QStringLiteral("derived-%1").arg(m_exports.size()));
            QVERIFY(QDir().mkpath(dir));
            const Run db = cli({QStringLiteral("export-sqlite"), path, QStringLiteral("-o"), dir + QStringLiteral("/out.db")}, cache);
            QVERIFY2(db.exitCode == 0, db.err.constData());
            const Run pq = cli({QStringLiteral("export-parquet"), path, QStringLiteral("-o"), dir + QStringLiteral("/parquet")}, cache);
            QVERIFY2(pq.exitCode == 0, pq.err.constData());
        }
        const SqliteTable file = readSqlite(dir + QStringLiteral("/out.db"), table);
        QVERIFY2(!file.columns.isEmpty(), qPrintable(table));
        QCOMPARE(file.rows.size(), qsizetype(rows)); // the independent count

        // the engine: `query`, every row and column as JSON
        const Run q = cli({QStringLiteral("query"), path, QStringLiteral("SELECT * FROM ") + table, QStringLiteral("--format"), QStringLiteral("json")},
                          cache);
        QVERIFY2(q.exitCode == 0, q.err.constData());
        QString diff = diffFrom(file, QJsonDocument::fromJson(q.out).array(), QStringLiteral("query"));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));

        // DuckDB's reading of the Parquet file: same columns, same cells in the same order
        const QString pq = dir + QStringLiteral("/parquet/") + table + QStringLiteral(".parquet");
        const lanescope::test::DuckResult d = lanescope::test::duckdb(QStringLiteral("SELECT * FROM read_parquet('%1')").arg(pq));
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QCOMPARE(d.columns, file.columns);
        diff = diffFrom(file, d.rows, QStringLiteral("DuckDB"));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));

        // the CLI command's --json: its arrays, one after the other, are the table's rows
        const Run c = cli({command[0], path, QStringLiteral("--json")}, cache);
        QVERIFY2(c.exitCode == 0, c.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(c.out).object();
        QJsonArray printed;
        for (qsizetype i = 1; i < command.size(); ++i) {
            QVERIFY2(o.value(command[i]).isArray(), qPrintable(command[i]));
            for (const QJsonValue &v : o.value(command[i]).toArray())
                printed.append(v);
        }
        if (command[0] == QLatin1String("kernels"))
            QCOMPARE(o.value(QStringLiteral("rows_total")).toInteger(), qint64(rows));
        diff = diffFrom(file, printed, command[0] + QStringLiteral(" --json"));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    void usageErrors()
    {
        QTemporaryDir tmp;
        const QString cache = tmp.filePath(QStringLiteral("cache"));
        QCOMPARE(cli({QStringLiteral("export-sqlite"), QStringLiteral(LANESCOPE_TEST_DATA "/cli_info_small.json")}, cache).exitCode, 2);
        const Run missing = cli({QStringLiteral("export-sqlite"), tmp.filePath(QStringLiteral("nope.json")), QStringLiteral("-o"), tmp.filePath(QStringLiteral("o.db"))}, cache);
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("nope.json"));
        QCOMPARE(cli({QStringLiteral("cache")}, cache).exitCode, 2);
        // export-parquet: no -o, an unknown codec, a row group size that is no number
        const QString small = QStringLiteral(LANESCOPE_TEST_DATA "/cli_info_small.json");
        QCOMPARE(cli({QStringLiteral("export-parquet"), small}, cache).exitCode, 2);
        const Run codec = cli({QStringLiteral("export-parquet"), small, QStringLiteral("-o"), tmp.filePath(QStringLiteral("p")),
                               QStringLiteral("--codec"), QStringLiteral("lz4")}, cache);
        QCOMPARE(codec.exitCode, 2);
        QVERIFY2(codec.err.contains("unknown --codec 'lz4'"), codec.err.constData());
        QCOMPARE(cli({QStringLiteral("export-parquet"), small, QStringLiteral("-o"), tmp.filePath(QStringLiteral("p")),
                      QStringLiteral("--row-group-rows"), QStringLiteral("many")}, cache).exitCode, 2);
        QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("p"))));
    }

    void cacheInfoAndClear()
    {
        QTemporaryDir tmp;
        const QString cache = tmp.filePath(QStringLiteral("cache"));
        const QString file = QStringLiteral(LANESCOPE_TEST_DATA "/cli_info_small.json");
        const Run first = cli({QStringLiteral("info"), file}, cache);
        QCOMPARE(first.exitCode, 0);
        QVERIFY2(!first.err.contains("cache"), first.err.constData());
        const Run second = cli({QStringLiteral("info"), file}, cache);
        QVERIFY2(second.err.contains("loaded from cache"), second.err.constData());
        QCOMPARE(second.out, first.out); // the same report either way
        const Run info = cli({QStringLiteral("cache"), QStringLiteral("--info"), QStringLiteral("--json")}, cache);
        QCOMPARE(info.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(o[QStringLiteral("entries")].toInt(), 1);
        QVERIFY(o[QStringLiteral("path")].toString().startsWith(cache));
        QVERIFY(o[QStringLiteral("stored_bytes")].toInteger() > 0);
        QCOMPARE(cli({QStringLiteral("cache"), QStringLiteral("--clear")}, cache).exitCode, 0);
        const Run after = cli({QStringLiteral("cache"), QStringLiteral("--info"), QStringLiteral("--json")}, cache);
        QCOMPARE(QJsonDocument::fromJson(after.out).object()[QStringLiteral("entries")].toInt(), 0);
        QVERIFY(!cli({QStringLiteral("info"), file}, cache).err.contains("loaded from cache"));
    }

    // Two instances filling one cache at the same moment: both load, neither sees a damaged entry.
    void twoProcessesShareOneCache()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("tracelens/xdit_sd35_rank0.json.gz"));
        QTemporaryDir tmp;
        const QString cache = tmp.filePath(QStringLiteral("cache"));
        const QString a = lanescope::test::corpusFile(QStringLiteral("tracelens/xdit_sd35_rank0.json.gz"));
        const QString b = lanescope::test::corpusFile(QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz"));
        QList<QProcess *> running;
        for (const QString &f : {a, b, a, b})
            running << startCli({QStringLiteral("info"), f, QStringLiteral("--json")}, cache);
        QList<Run> runs;
        for (QProcess *p : running)
            runs << finish(p);
        for (const Run &r : runs) {
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(!r.err.contains("corrupt") && !r.err.contains("unavailable") && !r.err.contains("not stored"), r.err.constData());
        }
        QCOMPARE(runs[0].out, runs[2].out);
        QCOMPARE(runs[1].out, runs[3].out);
        for (const QString &f : {a, b}) {
            const Run r = cli({QStringLiteral("info"), f, QStringLiteral("--json")}, cache);
            QVERIFY2(r.err.contains("loaded from cache"), r.err.constData());
        }
        const Run info = cli({QStringLiteral("cache"), QStringLiteral("--info"), QStringLiteral("--json")}, cache);
        QCOMPARE(QJsonDocument::fromJson(info.out).object()[QStringLiteral("entries")].toInt(), 2);
    }

private:
    QTemporaryDir m_tmp;
    QString m_queryDb;
    QMap<QString, QString> m_exports; // corpus file -> folder of its SQLite and Parquet exports
};

QTEST_GUILESS_MAIN(TestCliExportSqlite)
#include "tst_cliexportsqlite.moc"
