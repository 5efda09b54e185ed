// The Parquet reader (core/io/parquet) against DuckDB, an independent implementation: DuckDB writes
// tables with every codec Lanescope reads, data pages v1 and v2 (with v2's delta and byte-stream-split
// encodings), dictionary pages and several row groups; Lanescope reads them and every cell is compared with what DuckDB itself reads back from the
// same file. Also: Lanescope's own writer read back, and broken files give errors naming the file,
// the column and the offset instead of crashing.
#include "duckdb.h"

#include "io/parquet/parquetencoding.h"
#include "io/parquet/parquetfilereader.h"
#include "io/parquet/parquetfilewriter.h"
#include "io/parquet/parquettablereader.h"

#include <QtTest>

#include <cmath>

using namespace lanescope;
using namespace lanescope::parquet;

namespace {

// The cells of DuckDB's JSON row dump that differ from Lanescope's column; counts compared cells.
QStringList compareColumn(const ColumnData &c, const test::DuckResult &d, int col, uint64_t *cells)
{
    QStringList diffs;
    if (c.rows() != size_t(d.rows.size()))
        return {QStringLiteral("%1: %2 rows, DuckDB %3").arg(QString::fromStdString(c.name)).arg(c.rows()).arg(d.rows.size())};
    for (qsizetype r = 0; r < d.rows.size() && diffs.size() < 5; ++r) {
        const QJsonValue v = d.rows[r].toArray()[col];
        QString ours;
        bool same;
        if (c.isNull(size_t(r))) {
            same = v.isNull();
            ours = QStringLiteral("null");
        } else if (c.type == PhysicalType::ByteArray) {
            ours = QString::fromStdString(std::string(c.textAt(size_t(r))));
            same = v.isString() && v.toString() == ours;
        } else if (c.type == PhysicalType::Float || c.type == PhysicalType::Double) {
            ours = QString::number(c.reals[size_t(r)], 'g', 17);
            same = v.isDouble() && v.toDouble() == c.reals[size_t(r)];
        } else if (c.type == PhysicalType::Boolean) {
            ours = c.ints[size_t(r)] ? QStringLiteral("true") : QStringLiteral("false");
            same = v.isBool() && v.toBool() == (c.ints[size_t(r)] != 0);
        } else {
            // BIGINT as a decimal string, INTEGER as a JSON number (exact below 2^53)
            ours = QString::number(c.ints[size_t(r)]);
            same = (v.isString() && v.toString() == ours) || (v.isDouble() && v.toDouble() == double(c.ints[size_t(r)]));
        }
        if (!same)
            diffs << QStringLiteral("%1 row %2: ours %3, DuckDB %4")
                         .arg(QString::fromStdString(c.name))
                         .arg(r)
                         .arg(ours, QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)));
        ++*cells;
    }
    return diffs;
}

// A LIST cell as text, the way the DuckDB query of duckdbLists writes it: null for a null list, else
// the elements joined by "," with "null" for a null element ("" for an empty list).
QJsonValue listCell(const ColumnData &c, size_t row)
{
    if (c.isNull(row))
        return QJsonValue();
    QStringList parts;
    for (size_t e = c.listBegin(row); e < c.listEnd(row); ++e)
        parts << (!c.elementValid[e] ? QStringLiteral("null")
                  : c.type == PhysicalType::ByteArray ? QString::fromStdString(std::string(c.textAt(e)))
                                                      : QString::number(c.ints[e]));
    return parts.join(QLatin1Char(','));
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TstParquetReader : public QObject
{
    Q_OBJECT

private slots:
    void duckdbWritten_data();
    void duckdbWritten();
    void ownWriterRoundTrip();
    void truncatedFooter();
    void pageHeaderPastEnd();
    void dictionaryIndexOutOfRange();
    void notParquet();
    void rowGroupsDisagreeWithFooter();
    void duckdbLists_data();
    void duckdbLists();
    void legacyTwoLevelLists();
    void listLevelsBroken();
};

void TstParquetReader::duckdbWritten_data()
{
    QTest::addColumn<QString>("codec");
    QTest::addColumn<QString>("version");
    for (const char *codec : {"uncompressed", "snappy", "gzip", "zstd"})
        for (const char *version : {"v1", "v2"})
            QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(codec), QLatin1String(version))))
                << QString::fromLatin1(codec) << QString::fromLatin1(version);
}

// 5,000 rows in several row groups: ids, signed 32-bit values, nullable doubles, floats,
// nullable booleans, a nullable low-cardinality string (dictionary-encoded by DuckDB), unique strings
// of varying length and a low-cardinality integer.
void TstParquetReader::duckdbWritten()
{
    QFETCH(QString, codec);
    QFETCH(QString, version);
    LANESCOPE_REQUIRE_DUCKDB();
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("t.parquet"));
    const QString sql = QStringLiteral(
        "COPY (SELECT i::BIGINT AS id, (i * 7919 % 100003 - 50000)::INTEGER AS i32,\n"
        "  CASE WHEN i % 5 = 0 THEN NULL ELSE i * 1.5 END::DOUBLE AS d, (i / 7)::FLOAT AS f,\n"
        "  CASE WHEN i % 11 = 0 THEN NULL ELSE i % 3 = 0 END AS b,\n"
        "  CASE WHEN i % 7 = 0 THEN NULL ELSE 'engine_' || (i % 13) END AS s,\n"
        "  'row ' || i || repeat('x', (i % 17)::INTEGER) AS u, (i % 4)::BIGINT AS small\n"
        " FROM range(5000) t(i)) TO '%1' (FORMAT parquet, COMPRESSION %2, ROW_GROUP_SIZE 1000, PARQUET_VERSION %3);\n"
        "SELECT * FROM read_parquet('%1')").arg(file, codec, version);
    const test::DuckResult d = test::duckdb(sql);
    QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
    QCOMPARE(d.rows.size(), 5000);

    // The file has what the test is about: several row groups, a dictionary-encoded string column.
    FileReader fr;
    std::string error;
    QVERIFY2(fr.open(file.toStdString(), &error), error.c_str());
    QVERIFY(fr.metadata().rowGroups.size() > 1); // DuckDB rounds 1,000 up to its 2,048-row vectors: 3
    const int s = fr.columnIndex("s");
    QVERIFY(s >= 0);
    bool dictionary = false;
    for (Encoding e : fr.metadata().rowGroups[0].columns[size_t(s)].meta.encodings)
        dictionary = dictionary || e == Encoding::RleDictionary || e == Encoding::PlainDictionary;
    QVERIFY(dictionary);

    Table t;
    QVERIFY2(TableReader::read(file.toStdString(), &t, &error), error.c_str());
    QCOMPARE(t.rows, uint64_t(5000));
    uint64_t cells = 0;
    QStringList diffs;
    for (int col = 0; col < d.columns.size(); ++col) {
        const ColumnData *c = t.column(d.columns[col].toStdString());
        if (c)
            diffs += compareColumn(*c, d, col, &cells);
    }
    QVERIFY2(diffs.isEmpty(), qPrintable(diffs.join(QLatin1Char('\n'))));
    // Columns Lanescope does not read must say which encoding and column, in which file.
    for (const std::string &e : t.columnErrors) {
        QVERIFY2(e.rfind("unsupported encoding ", 0) == 0, e.c_str());
        QVERIFY2(e.find(file.toStdString()) != std::string::npos, e.c_str());
    }
    std::string notRead;
    for (const std::string &e : t.columnErrors)
        notRead += "\n  " + e;
    qInfo("%s %s: %zu of 8 columns read, %llu cells equal to DuckDB's; not read: %s", qPrintable(codec),
          qPrintable(version), t.columns.size(), (unsigned long long)cells, notRead.empty() ? "none" : notRead.c_str());
    // v2 files: DuckDB writes the integers DELTA_BINARY_PACKED, the unique strings DELTA_LENGTH_BYTE_ARRAY
    // and the floating point BYTE_STREAM_SPLIT; all of them are read.
    QCOMPARE(t.columns.size(), size_t(8));
    QCOMPARE(cells, uint64_t(8 * 5000));
    if (version == QLatin1String("v2")) {
        QSet<int> encodings;
        for (const ColumnChunk &c : fr.metadata().rowGroups[0].columns)
            for (Encoding e : c.meta.encodings)
                encodings.insert(int(e));
        QVERIFY(encodings.contains(int(Encoding::DeltaBinaryPacked)));
        QVERIFY(encodings.contains(int(Encoding::DeltaLengthByteArray)));
        QVERIFY(encodings.contains(int(Encoding::ByteStreamSplit)));
    }
}

// Lanescope's writer, read back: 2,500 rows in row groups of 700 and pages of about 512 bytes, nulls,
// a dictionary column and a plain text column.
void TstParquetReader::ownWriterRoundTrip()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("own.parquet")).toStdString();
    WriteOptions o;
    o.rowGroupRows = 700;
    o.pageBytes = 512;
    o.dictionaryBytes = 200; // "u" outgrows it: PLAIN
    FileWriter w;
    std::string error;
    QVERIFY2(w.open(path, {{"n", ColumnType::Int64, true}, {"x", ColumnType::Double, false}, {"k", ColumnType::String, true},
                           {"u", ColumnType::String, false}},
                    o, {}, &error),
             error.c_str());
    const int rows = 2500;
    for (int i = 0; i < rows; ++i) {
        if (i % 3 == 0)
            w.column(0).addNull();
        else
            w.column(0).addInt(int64_t(i) * -1000003);
        w.column(1).addReal(i / 8.0);
        if (i % 5 == 0)
            w.column(2).addNull();
        else
            w.column(2).addText(i % 2 ? "odd" : "even");
        w.column(3).addText(std::to_string(i) + std::string(size_t(i % 9), 'z'));
        QVERIFY(w.endRow());
    }
    QVERIFY2(w.close(), w.error().c_str());
    Table t;
    QVERIFY2(TableReader::read(path, &t, &error), error.c_str());
    QVERIFY2(t.columnErrors.empty(), t.columnErrors.empty() ? "" : t.columnErrors.front().c_str());
    QCOMPARE(t.rows, uint64_t(rows));
    const ColumnData *n = t.column("n"), *x = t.column("x"), *k = t.column("k"), *u = t.column("u");
    QVERIFY(n && x && k && u);
    for (int i = 0; i < rows; ++i) {
        QCOMPARE(n->isNull(size_t(i)), i % 3 == 0);
        if (i % 3)
            QCOMPARE(n->ints[size_t(i)], int64_t(i) * -1000003);
        QCOMPARE(x->reals[size_t(i)], i / 8.0);
        QCOMPARE(k->isNull(size_t(i)), i % 5 == 0);
        if (i % 5)
            QCOMPARE(k->textAt(size_t(i)), std::string_view(i % 2 ? "odd" : "even"));
        QCOMPARE(std::string(u->textAt(size_t(i))), std::to_string(i) + std::string(size_t(i % 9), 'z'));
    }
}

// A small valid file of Lanescope's: one text column "name" of 3 rows, 2 distinct values.
static std::string smallFile(const QString &dir)
{
    const std::string path = (dir + QStringLiteral("/small.parquet")).toStdString();
    WriteOptions o;
    o.codec = Codec::Uncompressed;
    FileWriter w;
    std::string error;
    if (!w.open(path, {{"name", ColumnType::String, false}}, o, {}, &error))
        return {};
    for (const char *v : {"a", "b", "a"}) {
        w.column(0).addText(v);
        w.endRow();
    }
    return w.close() ? path : std::string();
}

void TstParquetReader::truncatedFooter()
{
    QTemporaryDir dir;
    const std::string path = smallFile(dir.path());
    QVERIFY(!path.empty());
    QByteArray bytes = readAll(QString::fromStdString(path));
    // Cut inside the footer: the magic at the end is gone.
    std::string error;
    Table t;
    QVERIFY(!TableReader::readBytes("cut.parquet", bytes.left(bytes.size() - 3).toStdString(), &t, &error));
    QVERIFY2(error.find("cut.parquet") == 0 && error.find("offset") != std::string::npos, error.c_str());
    // The footer length claims more than the file holds.
    QByteArray lying = bytes;
    lying[lying.size() - 8] = char(0xff);
    lying[lying.size() - 7] = char(0xff);
    QVERIFY(!TableReader::readBytes("lying.parquet", lying.toStdString(), &t, &error));
    QVERIFY2(error.find("lying.parquet: truncated footer") == 0, error.c_str());
    // The footer itself cut short (its length and magic kept): thrift data ends early.
    const uint32_t len = loadLe32(bytes.constData() + bytes.size() - 8);
    QByteArray shortFooter = bytes.left(bytes.size() - 8 - qsizetype(len)) + bytes.mid(bytes.size() - 8 - qsizetype(len), qsizetype(len) / 2);
    char tail[8];
    const uint32_t half = len / 2;
    std::memcpy(tail, &half, 4);
    std::memcpy(tail + 4, "PAR1", 4);
    shortFooter += QByteArray(tail, 8);
    QVERIFY(!TableReader::readBytes("short.parquet", shortFooter.toStdString(), &t, &error));
    QVERIFY2(error.find("short.parquet: bad footer") == 0 && error.find("offset") != std::string::npos, error.c_str());
}

// The column chunk's size in the footer is patched to end inside the data page: the page header
// announces more bytes than the chunk has.
void TstParquetReader::pageHeaderPastEnd()
{
    QTemporaryDir dir;
    const std::string path = smallFile(dir.path());
    FileReader fr;
    std::string error;
    QVERIFY(fr.open(path, &error));
    FileMetaData md = fr.metadata();
    ColumnMetaData &m = md.rowGroups[0].columns[0].meta;
    m.totalCompressedSize -= 3;
    QByteArray bytes = readAll(QString::fromStdString(path));
    const uint32_t len = loadLe32(bytes.constData() + bytes.size() - 8);
    std::string patched = bytes.left(bytes.size() - 8 - qsizetype(len)).toStdString();
    const std::string footer = encodeFileMetaData(md);
    patched += footer;
    appendLe32(&patched, uint32_t(footer.size()));
    patched += "PAR1";
    Table t;
    QVERIFY(TableReader::readBytes("past.parquet", patched, &t, &error));
    QCOMPARE(t.columns.size(), size_t(0));
    QCOMPARE(t.columnErrors.size(), size_t(1));
    const std::string &e = t.columnErrors[0];
    QVERIFY2(e.find("past.parquet: column name: page of") == 0 && e.find("runs past the end") != std::string::npos
                 && e.find("(offset ") != std::string::npos,
             e.c_str());
}

// A data page whose dictionary index 1 points past a 1-value dictionary (patched in the last byte
// of the page: the rows are "a", "b", "a" bit-packed as 0,1,0 with a 1-value dictionary "a").
void TstParquetReader::dictionaryIndexOutOfRange()
{
    QTemporaryDir dir;
    const std::string path = smallFile(dir.path());
    FileReader fr;
    std::string error;
    QVERIFY(fr.open(path, &error));
    FileMetaData md = fr.metadata();
    QByteArray bytes = readAll(QString::fromStdString(path));
    // The dictionary page: header then "a" and "b" (4-byte lengths). Make it hold one value by
    // rewriting its header's value count from 2 to 1 (the count is the only zigzag varint 4 there).
    const int64_t dictAt = *md.rowGroups[0].columns[0].meta.dictionaryPageOffset;
    ThriftReader r(std::string_view(bytes.constData() + dictAt, size_t(bytes.size() - dictAt)), uint64_t(dictAt));
    PageHeader h;
    QVERIFY(decodePageHeader(r, &h));
    QCOMPARE(h.dictionaryPage->numValues, 2);
    h.dictionaryPage->numValues = 1;
    const std::string header = encodePageHeader(h);
    QCOMPARE(header.size(), r.position()); // same length: the rest of the file stays where it was
    bytes.replace(qsizetype(dictAt), qsizetype(header.size()), QByteArray::fromStdString(header));
    Table t;
    QVERIFY(TableReader::readBytes("dict.parquet", bytes.toStdString(), &t, &error));
    QCOMPARE(t.columnErrors.size(), size_t(1));
    const std::string &e = t.columnErrors[0];
    QVERIFY2(e.find("dict.parquet: column name: dictionary index 1 out of range (dictionary of 1 values)") == 0
                 && e.find("(offset ") != std::string::npos,
             e.c_str());
}

void TstParquetReader::notParquet()
{
    std::string error;
    Table t;
    QVERIFY(!TableReader::readBytes("x.json", "{\"not\": \"parquet\", \"but\": \"long enough\"}", &t, &error));
    QVERIFY2(error == "x.json: not a Parquet file: no \"PAR1\" at offset 0", error.c_str());
    QVERIFY(!TableReader::readBytes("tiny", "PAR1", &t, &error));
    QVERIFY2(error.find("tiny: not a Parquet file") == 0, error.c_str());
}

// fuzz_parquet's first finding (tests/data/parquet/fuzz_rowgroups_fewer_than_footer.parquet): a footer
// whose row groups hold fewer rows than its num_rows gave columns shorter than the table.
void TstParquetReader::rowGroupsDisagreeWithFooter()
{
    const QByteArray bytes = readAll(QStringLiteral(LANESCOPE_TEST_DATA "/parquet/fuzz_rowgroups_fewer_than_footer.parquet"));
    QVERIFY(!bytes.isEmpty());
    std::string error;
    Table t;
    QVERIFY(!TableReader::readBytes("f.parquet", bytes.toStdString(), &t, &error));
    QVERIFY2(error.find("f.parquet: the row groups hold ") == 0 && error.find("the footer (at offset ") != std::string::npos,
             error.c_str());
}

void TstParquetReader::duckdbLists_data()
{
    duckdbWritten_data();
}

// LIST columns as DuckDB writes them (the standard 3-level LIST): VARCHAR[] (as Explorer's
// SystemProfileEvents.flow_id), BIGINT[] and INTEGER[], with null lists, empty lists and null elements,
// 5,000 rows in several row groups, every codec, data pages v1 and v2. Every cell equals the text DuckDB
// makes of the same file's list. A struct and a list of lists stay "unsupported nested column".
void TstParquetReader::duckdbLists()
{
    QFETCH(QString, codec);
    QFETCH(QString, version);
    LANESCOPE_REQUIRE_DUCKDB();
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("l.parquet"));
    // l: CASE ... END the list (null every 9th row, empty every 9th + 1), its elements by list_transform.
    auto text = [](const char *col, const char *elem) {
        return QStringLiteral("CASE WHEN %1 IS NULL THEN NULL WHEN len(%1) = 0 THEN '' ELSE "
                              "array_to_string(list_transform(%1, x -> coalesce(%2, 'null')), ',') END AS %1")
            .arg(QLatin1String(col), QLatin1String(elem));
    };
    const QString sql = QStringLiteral(
        "COPY (SELECT i::BIGINT AS id,\n"
        "  CASE WHEN i % 9 = 0 THEN NULL WHEN i % 9 = 1 THEN []::VARCHAR[] ELSE list_transform(range((i % 5)::BIGINT),\n"
        "    x -> CASE WHEN (i + x) % 7 = 3 THEN NULL ELSE (i * 10 + x)::VARCHAR END) END AS flow_id,\n"
        "  CASE WHEN i % 11 = 0 THEN NULL WHEN i % 13 = 0 THEN []::BIGINT[] ELSE list_transform(range((i % 4)::BIGINT + 1),\n"
        "    x -> CASE WHEN x = 2 AND i % 3 = 0 THEN NULL ELSE i * 1000003 - x END) END AS ints,\n"
        "  [(i % 3)::INTEGER, (i % 5)::INTEGER] AS small,\n"
        "  CASE WHEN i % 4 = 0 THEN NULL ELSE ['engine_' || (i % 6)] END AS names,\n"
        "  {'a': i::INTEGER} AS st, [[i::INTEGER]] AS nested\n"
        " FROM range(5000) t(i)) TO '%1' (FORMAT parquet, COMPRESSION %2, ROW_GROUP_SIZE 1000, PARQUET_VERSION %3);\n"
        "SELECT %4, %5, %6, %7 FROM read_parquet('%1')")
                            .arg(file, codec, version, text("flow_id", "x"), text("ints", "x::VARCHAR"),
                                 text("small", "x::VARCHAR"), text("names", "x"));
    const test::DuckResult d = test::duckdb(sql);
    QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
    QCOMPARE(d.rows.size(), 5000);

    FileReader fr;
    std::string error;
    QVERIFY2(fr.open(file.toStdString(), &error), error.c_str());
    QVERIFY(fr.metadata().rowGroups.size() > 1);
    Table t;
    QVERIFY2(TableReader::read(file.toStdString(), &t, &error), error.c_str());
    QCOMPARE(t.rows, uint64_t(5000));
    uint64_t cells = 0, elements = 0, nullLists = 0, emptyLists = 0, nullElements = 0;
    QStringList diffs;
    for (int col = 0; col < d.columns.size(); ++col) {
        const ColumnData *c = t.column(d.columns[col].toStdString());
        QVERIFY2(c && c->list, qPrintable(d.columns[col]));
        QCOMPARE(c->rows(), size_t(5000));
        for (size_t r = 0; r < 5000 && diffs.size() < 5; ++r) {
            const QJsonValue theirs = d.rows[qsizetype(r)].toArray()[col];
            const QJsonValue ours = listCell(*c, r);
            if (ours != theirs)
                diffs << QStringLiteral("%1 row %2: ours %3, DuckDB %4")
                             .arg(d.columns[col])
                             .arg(r)
                             .arg(ours.isNull() ? QStringLiteral("null") : ours.toString(),
                                  theirs.isNull() ? QStringLiteral("null") : theirs.toString());
            ++cells;
            nullLists += c->isNull(r);
            emptyLists += !c->isNull(r) && c->listBegin(r) == c->listEnd(r);
        }
        elements += c->elements();
        for (uint8_t v : c->elementValid)
            nullElements += !v;
    }
    QVERIFY2(diffs.isEmpty(), qPrintable(diffs.join(QLatin1Char('\n'))));
    QCOMPARE(cells, uint64_t(4 * 5000));
    // Counted from the SQL above by a short Python loop over i in range(5000) that applies the same
    // CASE rules: null lists 556 (flow_id, i % 9 == 0) + 455 (ints, i % 11 == 0) + 1,250 (names,
    // i % 4 == 0); empty lists 1,683 (flow_id i % 9 == 1 or i % 5 == 0, ints i % 13 == 0); 32,018
    // elements, 1,812 of them null.
    QCOMPARE(nullLists, uint64_t(2261));
    QCOMPARE(emptyLists, uint64_t(1683));
    QCOMPARE(elements, uint64_t(32018));
    QCOMPARE(nullElements, uint64_t(1812));
    // The struct and the list of lists: not read, said so, naming the column and the file.
    QCOMPARE(t.columnErrors.size(), size_t(2));
    for (const std::string &e : t.columnErrors)
        QVERIFY2(e.rfind("unsupported nested column ", 0) == 0 && e.find(file.toStdString()) != std::string::npos, e.c_str());
    qInfo("%s %s: %llu list cells equal to DuckDB's (%llu elements, %llu null lists, %llu empty, %llu null elements)",
          qPrintable(codec), qPrintable(version), (unsigned long long)cells, (unsigned long long)elements,
          (unsigned long long)nullLists, (unsigned long long)emptyLists, (unsigned long long)nullElements);
}

namespace {

// A file of one row group and one uncompressed v1 data page per column, written by hand (what DuckDB
// does not write: the legacy 2-level LIST and a bare repeated field): `schema` after the root, one
// (levels, values) page per leaf, `rows` rows.
struct HandColumn
{
    std::vector<std::string> path;
    PhysicalType type;
    std::vector<uint32_t> reps, defs;
    int maxRep, maxDef;
    std::string plainValues;
};

std::string handFile(int rootChildren, const std::vector<SchemaElement> &schema, const std::vector<HandColumn> &cols,
                     int64_t rows)
{
    std::string out = "PAR1";
    FileMetaData md;
    SchemaElement root;
    root.name = "schema";
    root.numChildren = rootChildren;
    md.schema.push_back(root);
    for (const SchemaElement &s : schema)
        md.schema.push_back(s);
    md.numRows = rows;
    RowGroup g;
    g.numRows = rows;
    for (const HandColumn &c : cols) {
        std::string body;
        auto levels = [&](const std::vector<uint32_t> &v, int max) {
            std::string l;
            encodeRleHybrid(v.data(), v.size(), bitWidth(uint64_t(max)), &l);
            appendLe32(&body, uint32_t(l.size()));
            body += l;
        };
        if (c.maxRep)
            levels(c.reps, c.maxRep);
        if (c.maxDef)
            levels(c.defs, c.maxDef);
        body += c.plainValues;
        PageHeader h;
        h.type = PageType::DataPage;
        h.uncompressedPageSize = h.compressedPageSize = int32_t(body.size());
        h.dataPage.emplace();
        h.dataPage->numValues = int32_t(c.defs.size());
        const std::string header = encodePageHeader(h);
        ColumnChunk cc;
        cc.hasMetaData = true;
        cc.fileOffset = int64_t(out.size());
        cc.meta.type = c.type;
        cc.meta.encodings = {Encoding::Plain, Encoding::Rle};
        cc.meta.path = c.path;
        cc.meta.numValues = int64_t(c.defs.size());
        cc.meta.totalCompressedSize = cc.meta.totalUncompressedSize = int64_t(header.size() + body.size());
        cc.meta.dataPageOffset = int64_t(out.size());
        out += header + body;
        g.columns.push_back(cc);
    }
    md.rowGroups.push_back(g);
    const std::string footer = encodeFileMetaData(md);
    out += footer;
    appendLe32(&out, uint32_t(footer.size()));
    return out + "PAR1";
}

SchemaElement element(const char *name, Repetition rep, std::optional<PhysicalType> type, int children = 0)
{
    SchemaElement s;
    s.name = name;
    s.repetition = rep;
    s.hasRepetition = true;
    s.type = type;
    s.numChildren = children;
    if (children)
        s.convertedType = 3; // LIST
    return s;
}

} // namespace

// The legacy 2-level LIST (`optional group vals (LIST) { repeated int32 element }`) and a bare repeated
// field (`repeated binary tags`), values and levels written by hand for three rows:
//   vals [1, 2], null, []          reps 0 1 0 0, defs 2 2 0 1
//   tags ["a"], [], ["b", "c"]     reps 0 0 0 1, defs 1 0 1 1
void TstParquetReader::legacyTwoLevelLists()
{
    std::string ints, texts;
    appendLe32(&ints, 1);
    appendLe32(&ints, 2);
    for (const char *v : {"a", "b", "c"}) {
        appendLe32(&texts, 1);
        texts += v;
    }
    std::vector<SchemaElement> schema = {element("vals", Repetition::Optional, std::nullopt, 1),
                                         element("element", Repetition::Repeated, PhysicalType::Int32),
                                         element("tags", Repetition::Repeated, PhysicalType::ByteArray)};
    std::vector<HandColumn> cols = {{{"vals", "element"}, PhysicalType::Int32, {0, 1, 0, 0}, {2, 2, 0, 1}, 1, 2, ints},
                                    {{"tags"}, PhysicalType::ByteArray, {0, 0, 0, 1}, {1, 0, 1, 1}, 1, 1, texts}};
    const std::string bytes = handFile(2, schema, cols, 3);

    Table t;
    std::string error;
    QVERIFY2(TableReader::readBytes("legacy.parquet", bytes, &t, &error), error.c_str());
    QVERIFY2(t.columnErrors.empty(), t.columnErrors.empty() ? "" : t.columnErrors.front().c_str());
    QCOMPARE(t.rows, uint64_t(3));
    const ColumnData *vals = t.column("vals"), *tags = t.column("tags");
    QVERIFY(vals && tags && vals->list && tags->list);
    QCOMPARE(listCell(*vals, 0).toString(), QStringLiteral("1,2"));
    QVERIFY(listCell(*vals, 1).isNull());
    QCOMPARE(listCell(*vals, 2).toString(), QString());
    QVERIFY(!vals->isNull(2));
    QCOMPARE(listCell(*tags, 0).toString(), QStringLiteral("a"));
    QCOMPARE(listCell(*tags, 1).toString(), QString());
    QCOMPARE(listCell(*tags, 2).toString(), QStringLiteral("b,c"));
    QVERIFY(!tags->optional); // a bare repeated field has no null list
}

// Levels that contradict the shape: a chunk whose first list entry continues a row (repetition level 1):
// an error naming the file, the column and the offset, not a crash.
void TstParquetReader::listLevelsBroken()
{
    std::string ints;
    appendLe32(&ints, 7);
    std::vector<SchemaElement> schema = {element("tags", Repetition::Repeated, PhysicalType::Int32)};
    std::vector<HandColumn> cols = {{{"tags"}, PhysicalType::Int32, {1}, {1}, 1, 1, ints}};
    const std::string bytes = handFile(1, schema, cols, 1);
    Table t;
    std::string error;
    QVERIFY2(TableReader::readBytes("broken.parquet", bytes, &t, &error), error.c_str());
    QCOMPARE(t.columnErrors.size(), size_t(1));
    const std::string &e = t.columnErrors[0];
    QVERIFY2(e.rfind("broken.parquet: column tags: the column chunk's first list entry continues a row", 0) == 0
                 && e.find("(offset ") != std::string::npos,
             e.c_str());
}

QTEST_GUILESS_MAIN(TstParquetReader)
#include "tst_parquetreader.moc"
