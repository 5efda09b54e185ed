// ParquetExporter: every file it writes is read by DuckDB (an independent Parquet implementation,
// tests/common/duckdb.h) and compared cell by cell with the SQLite export of the same trace, read
// through SQLite: same tables, same column names in the same order, same rows and values.
#include "corpusorsample.h"
#include "duckdb.h"

#include "annotations/annotation.h"
#include "io/traceloader.h"
#include "store/parquetexporter.h"
#include "store/sqliteexporter.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <sqlite3.h>

#include <algorithm>
#include <charconv>

using namespace lanescope;

namespace {

// `value` of SQLite's current row, column `i`, against DuckDB's JSON cell. `textual`: the Parquet
// column is text where SQLite's cells have any type (meta.value, args.value; docs/parquet.md).
bool sameCell(sqlite3_stmt *s, int i, const QJsonValue &v, bool textual, QString *ours)
{
    switch (sqlite3_column_type(s, i)) {
    case SQLITE_NULL: *ours = QStringLiteral("NULL"); return v.isNull();
    case SQLITE_INTEGER: {
        const QString n = QString::number(sqlite3_column_int64(s, i));
        *ours = n;
        return v.isString() && v.toString() == n; // BIGINT: exact decimal text; text columns: the same text
    }
    case SQLITE_FLOAT: {
        const double d = sqlite3_column_double(s, i);
        *ours = QString::number(d, 'g', 17);
        if (v.isDouble())
            return !textual && v.toDouble() == d;
        if (!v.isString())
            return false;
        const QByteArray text = v.toString().toUtf8();
        double parsed = 0;
        const auto r = std::from_chars(text.constData(), text.constData() + text.size(), parsed);
        return r.ec == std::errc() && r.ptr == text.constData() + text.size() && parsed == d;
    }
    default: {
        const QByteArray text(reinterpret_cast<const char *>(sqlite3_column_text(s, i)), sqlite3_column_bytes(s, i));
        *ours = QString::fromUtf8(text);
        return v.isString() && v.toString().toUtf8() == text;
    }
    }
}

} // namespace

class TstParquetExporter : public QObject
{
    Q_OBJECT

private slots:
    void sameAsSqlite_data();
    void sameAsSqlite();
    void neuronRowsRoundTrip_data();
    void neuronRowsRoundTrip();
};

void TstParquetExporter::sameAsSqlite_data()
{
    QTest::addColumn<QString>("relative");
    QTest::addColumn<QString>("codec");
    QTest::addColumn<int>("rowGroupRows");
    QTest::newRow("kineto docs, zstd") << QStringLiteral("kineto/docs__before_fix_trace.json") << QStringLiteral("zstd") << (1 << 20);
    QTest::newRow("neuron-profile json, snappy, row groups of 500")
        << QStringLiteral("neuron-profile-json/profile_128x128x256.json") << QStringLiteral("snappy") << 500;
    QTest::newRow("kineto resnet50, gzip, row groups of 100000")
        << QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz")
        << QStringLiteral("gzip") << 100000;
    QTest::newRow("sample folder, uncompressed") << QString() << QStringLiteral("none") << (1 << 20);
    // the derived tables with rows: collectives (a Kineto NCCL trace), dma_queues (an NTFF v6)
    QTest::newRow("kineto nccl, zstd") << QStringLiteral("hta/nccl_parser_config__nccl_data.json.gz") << QStringLiteral("zstd") << (1 << 20);
    QTest::newRow("ntff v6, snappy") << QStringLiteral("neuron-trn2-v6/fused_bf16_s512/fused_exec_2.ntff") << QStringLiteral("snappy") << (1 << 20);
}

void TstParquetExporter::sameAsSqlite()
{
    QFETCH(QString, relative);
    QFETCH(QString, codec);
    QFETCH(int, rowGroupRows);
    LANESCOPE_REQUIRE_CORPUS_ROW(relative);
    LANESCOPE_REQUIRE_DUCKDB();
    QTemporaryDir tmp;
    const std::string path = test::corpusOrSample(relative, tmp);
    const LoadResult r = TraceLoader::load(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const Trace &t = *r.trace;

    // Notes of each kind, so the notes table has rows (as tst_sqliteexporter's).
    std::vector<Annotation> notes;
    notes.push_back(Annotation::range(t.startNs() + 1000, t.startNs() + 2500, "slow data loader"));
    notes.back().id = 1;
    notes.back().color = "#d64541";
    notes.push_back(Annotation::point(t.startNs() + 7, "h\xc3\xa9re"));
    notes.back().id = 2;
    if (!t.allSlices().empty()) {
        notes.push_back(Annotation::event(t, SliceId(0), "the first slice"));
        notes.back().id = 3;
    }

    const std::string db = tmp.filePath(QStringLiteral("out.db")).toStdString();
    const QString dir = tmp.filePath(QStringLiteral("parquet"));
    std::string error;
    QVERIFY2(SqliteExporter::exportTo(t, db, {}, &error, notes), error.c_str());
    parquet::WriteOptions o;
    o.codec = codec == QLatin1String("zstd") ? parquet::Codec::Zstd
        : codec == QLatin1String("snappy")   ? parquet::Codec::Snappy
        : codec == QLatin1String("gzip")     ? parquet::Codec::Gzip
                                             : parquet::Codec::Uncompressed;
    o.rowGroupRows = size_t(rowGroupRows);
    ParquetExporter::Result result;
    QVERIFY2(ParquetExporter::exportTo(t, dir.toStdString(), {}, &error, notes, o, &result), error.c_str());

    sqlite3 *sql = nullptr;
    QCOMPARE(sqlite3_open_v2(db.c_str(), &sql, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    // One Parquet file per SQLite table, no more.
    QStringList tables;
    {
        sqlite3_stmt *s = nullptr;
        sqlite3_prepare_v2(sql, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1, &s, nullptr);
        while (sqlite3_step(s) == SQLITE_ROW)
            tables << QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(s, 0)));
        sqlite3_finalize(s);
    }
    QStringList files = QDir(dir).entryList({QStringLiteral("*.parquet")}, QDir::Files, QDir::Name);
    for (QString &f : files)
        f.chop(8);
    QCOMPARE(files, tables);
    QCOMPARE(size_t(files.size()), result.files.size());

    uint64_t rows = 0, cells = 0;
    QStringList diffs;
    for (const QString &table : tables) {
        // Tables with an id are compared in id order, the others in the order rows were written.
        sqlite3_stmt *s = nullptr;
        const QByteArray probe = QStringLiteral("SELECT * FROM %1 LIMIT 0").arg(table).toUtf8();
        sqlite3_prepare_v2(sql, probe.constData(), -1, &s, nullptr);
        QStringList columns;
        for (int i = 0; i < sqlite3_column_count(s); ++i)
            columns << QString::fromUtf8(sqlite3_column_name(s, i));
        sqlite3_finalize(s);
        const QString order = columns.contains(QStringLiteral("id")) ? QStringLiteral(" ORDER BY id") : QString();
        const QString file = QDir(dir).filePath(table + QStringLiteral(".parquet"));
        const test::DuckResult d = test::duckdb(QStringLiteral("SELECT * FROM read_parquet('%1')%2").arg(file, order));
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QCOMPARE(d.columns, columns);
        const QByteArray query = QStringLiteral("SELECT * FROM %1%2").arg(table, order.isEmpty() ? QStringLiteral(" ORDER BY rowid") : order).toUtf8();
        QCOMPARE(sqlite3_prepare_v2(sql, query.constData(), -1, &s, nullptr), SQLITE_OK);
        qsizetype row = 0;
        while (sqlite3_step(s) == SQLITE_ROW) {
            if (row >= d.rows.size()) {
                diffs << QStringLiteral("%1: DuckDB has only %2 rows").arg(table).arg(d.rows.size());
                break;
            }
            const QJsonArray cellsOfRow = d.rows[row].toArray();
            for (int i = 0; i < columns.size(); ++i) {
                const bool textual = columns[i] == QLatin1String("value")
                    && (table == QLatin1String("meta") || table == QLatin1String("args"));
                QString ours;
                if (!sameCell(s, i, cellsOfRow[i], textual, &ours) && diffs.size() < 10)
                    diffs << QStringLiteral("%1 row %2 %3: SQLite %4, DuckDB %5")
                                 .arg(table)
                                 .arg(row)
                                 .arg(columns[i], ours,
                                      QString::fromUtf8(QJsonDocument(QJsonArray{cellsOfRow[i]}).toJson(QJsonDocument::Compact)));
                ++cells;
            }
            ++row;
        }
        sqlite3_finalize(s);
        if (row != d.rows.size())
            diffs << QStringLiteral("%1: SQLite %2 rows, DuckDB %3").arg(table).arg(row).arg(d.rows.size());
        rows += uint64_t(row);
    }
    sqlite3_close(sql);
    QVERIFY2(diffs.isEmpty(), qPrintable(diffs.join(QLatin1Char('\n'))));
    QCOMPARE(result.rows, rows);
    qInfo("%lld tables, %llu rows, %llu cells equal in SQLite and in DuckDB's reading of the Parquet files (%llu bytes)",
          qlonglong(tables.size()), (unsigned long long)rows, (unsigned long long)cells, (unsigned long long)result.bytes);
}

void TstParquetExporter::neuronRowsRoundTrip_data()
{
    QTest::addColumn<QString>("relative"); // the JSON export
    QTest::addColumn<QString>("source");   // what Lanescope loads: the JSON, or the NTFF it was exported from
    QTest::addColumn<int>("instructions");
    QTest::addColumn<int>("packets");
    // Row counts by `python3 -c "import json; d = json.load(open(F)); print(len(d['instruction']),
    // sum(r['aggregated'] == 'no' for r in d['dma']))"` over each corpus file.
    const QString fused = QStringLiteral("neuron-trn2-v6/fused_bf16_s512/fused_exec_2");
    const QString baseline = QStringLiteral("neuron-trn2-v6/baseline_bf16_s512/baseline_exec_2");
    const QString attention = QStringLiteral("neuron-trn2-v6/baseline_attention/baseline_exec_2");
    const QString json = QStringLiteral("_profile_full.json"), ntff = QStringLiteral(".ntff");
    QTest::newRow("fused json") << fused + json << fused + json << 436 << 977;
    QTest::newRow("baseline json") << baseline + json << baseline + json << 452 << 2670;
    QTest::newRow("attention json") << attention + json << attention + json << 460 << 2657;
    QTest::newRow("fused ntff") << fused + json << fused + ntff << 436 << 977;
    QTest::newRow("baseline ntff") << baseline + json << baseline + ntff << 452 << 2670;
}

// The round trip the issue names: a neuron-profile 2.28 JSON export, or the NTFF v6 it was exported
// from -> Lanescope -> Parquet -> DuckDB gives the JSON's own instruction rows and DMA packet rows (time, duration, opcode / queue, engine
// lane, physical core), compared as sorted lists of every row, not counts only.
void TstParquetExporter::neuronRowsRoundTrip()
{
    QFETCH(QString, relative);
    QFETCH(QString, source);
    QFETCH(int, instructions);
    QFETCH(int, packets);
    LANESCOPE_REQUIRE_CORPUS_ROW(relative);
    LANESCOPE_REQUIRE_CORPUS_ROW(source);
    LANESCOPE_REQUIRE_DUCKDB();
    const QString path = test::corpusFile(relative);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
    // The JSON's rows: "ts dur name lane subgraph" per row. Physical cores are matched by their order
    // (sg00, sg01 <-> the lower and higher pcore number of the track paths).
    QStringList expectInstr, expectDma;
    for (const QJsonValue &v : json.value(QStringLiteral("instruction")).toArray()) {
        const QJsonObject o = v.toObject();
        expectInstr << QStringLiteral("%1 %2 %3 %4 %5")
                           .arg(o.value(QStringLiteral("timestamp")).toInteger())
                           .arg(o.value(QStringLiteral("duration")).toInteger())
                           .arg(o.value(QStringLiteral("opcode")).toString(), o.value(QStringLiteral("label")).toString(),
                                o.value(QStringLiteral("subgraph")).toString());
    }
    for (const QJsonValue &v : json.value(QStringLiteral("dma")).toArray()) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("aggregated")).toString() != QLatin1String("no"))
            continue;
        expectDma << QStringLiteral("%1 %2 %3 %4")
                         .arg(o.value(QStringLiteral("timestamp")).toInteger())
                         .arg(o.value(QStringLiteral("duration")).toInteger())
                         .arg(o.value(QStringLiteral("subgroup")).toString(), o.value(QStringLiteral("subgraph")).toString());
    }
    QCOMPARE(expectInstr.size(), instructions);
    QCOMPARE(expectDma.size(), packets);

    const LoadResult r = TraceLoader::load(test::corpusFile(source).toStdString());
    QVERIFY2(r.ok(), r.error.c_str());
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("parquet"));
    std::string error;
    QVERIFY2(ParquetExporter::exportTo(*r.trace, dir.toStdString(), {}, &error), error.c_str());
    // DuckDB: every instruction / DMA slice with the last two parts of its track path ("pcore 4 / Tensor").
    const test::DuckResult d = test::duckdb(
        QStringLiteral("SELECT s.category, s.ts, s.dur, s.name, t.path FROM read_parquet('%1/slices.parquet') s "
                       "JOIN read_parquet('%1/tracks.parquet') t ON t.id = s.track_id "
                       "WHERE s.category IN ('instruction', 'dma')")
            .arg(dir));
    QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
    QStringList cores; // "pcore 4", "pcore 5" in number order = sg00, sg01
    for (const QJsonValue &row : d.rows) {
        const QStringList parts = row.toArray()[4].toString().split(QStringLiteral(" / "));
        if (parts.size() >= 2 && !cores.contains(parts[parts.size() - 2]))
            cores << parts[parts.size() - 2];
    }
    std::sort(cores.begin(), cores.end(), [](const QString &a, const QString &b) {
        return a.section(QLatin1Char(' '), -1).toInt() < b.section(QLatin1Char(' '), -1).toInt();
    });
    QStringList gotInstr, gotDma;
    for (const QJsonValue &v : d.rows) {
        const QJsonArray row = v.toArray();
        const QStringList parts = row[4].toString().split(QStringLiteral(" / "));
        QVERIFY(parts.size() >= 2);
        const QString subgraph = QStringLiteral("sg%1").arg(cores.indexOf(parts[parts.size() - 2]), 2, 10, QLatin1Char('0'));
        const QString ts = row[1].toString(), dur = row[2].toString(); // BIGINT as exact decimal text
        if (row[0].toString() == QLatin1String("instruction"))
            gotInstr << QStringLiteral("%1 %2 %3 %4 %5").arg(ts, dur, row[3].toString(), parts.last(), subgraph);
        else
            gotDma << QStringLiteral("%1 %2 %3 %4").arg(ts, dur, parts.last(), subgraph);
    }
    expectInstr.sort();
    gotInstr.sort();
    expectDma.sort();
    gotDma.sort();
    QCOMPARE(gotInstr.size(), expectInstr.size());
    QCOMPARE(gotDma.size(), expectDma.size());
    for (int i = 0; i < gotInstr.size(); ++i)
        QCOMPARE(gotInstr[i], expectInstr[i]);
    for (int i = 0; i < gotDma.size(); ++i)
        QCOMPARE(gotDma[i], expectDma[i]);
    qInfo("%lld instruction rows and %lld DMA packet rows of the JSON equal in DuckDB's reading of the export",
          qint64(gotInstr.size()), qint64(gotDma.size()));
}

QTEST_GUILESS_MAIN(TstParquetExporter)
#include "tst_parquetexporter.moc"
