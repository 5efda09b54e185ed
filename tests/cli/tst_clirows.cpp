// lanescope-cli rows on the corpus pairs (an NTFF and neuron-profile's JSON export of the same run,
// corpus/neuron-profile-json, PROVENANCE.md), run as a user would (a real process): for every table
// (instruction, dma, semaphore) and both formats (jsonl, csv) the two inputs print byte-identical
// output; the output has the documented columns, one well-formed line per row, and jsonl and csv hold
// the same rows. Bad arguments and inputs exit with status 2 and say why.
#include "clirun.h"
#include "corpus.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <limits>

namespace {

using Run = lanescope::test::CliRun;

// Every NTFF + JSON pair of corpus/neuron-profile-json (both files of each must exist).
const char *const kPairs[] = {
    "profile_128x128x256",           "profile_128x128x384",           "profile_128x128x512",
    "profile_128x128x640",           "profile_128x128x768",           "profile_128x128x896",
    "profile_128x128x1024",          "profile_bucketed_128x128x128",  "profile_bucketed_128x128x256",
    "profile_bucketed_128x128x512",  "profile_bucketed_128x128x1024",
};

// The columns of each table, in order (app/cli/cmd_rows.cpp; neuron-profile's field names).
QStringList columns(const QString &table)
{
    if (table == QLatin1String("instruction"))
        return {QStringLiteral("timestamp"), QStringLiteral("duration"),    QStringLiteral("subgraph"), QStringLiteral("label"),
                QStringLiteral("subgroup"),  QStringLiteral("pc"),          QStringLiteral("opcode"),
                QStringLiteral("evt_wait_time"), QStringLiteral("crc_in"),  QStringLiteral("crc_out"),
                QStringLiteral("compiler_pc"), QStringLiteral("event_id")};
    if (table == QLatin1String("dma"))
        return {QStringLiteral("timestamp"),     QStringLiteral("duration"), QStringLiteral("subgraph"), QStringLiteral("dma_engine"),
                QStringLiteral("dma_queue"),     QStringLiteral("transfer_size"), QStringLiteral("crc"),
                QStringLiteral("event_id")};
    return {QStringLiteral("subgraph"), QStringLiteral("id"), QStringLiteral("timestamp"), QStringLiteral("value")};
}

// Columns every row has (the others may be absent in JSONL / empty in CSV).
QStringList alwaysPresent(const QString &table)
{
    QStringList c = columns(table);
    c.removeAll(QStringLiteral("compiler_pc"));
    c.removeAll(QStringLiteral("event_id"));
    return c;
}

QString pairFile(const char *stem, const char *ext)
{
    return QStringLiteral("neuron-profile-json/") + QLatin1String(stem) + QLatin1String(ext);
}

Run rows(const QString &path, const QString &table, const QString &format)
{
    return lanescope::test::runCli({QStringLiteral("rows"), path, QStringLiteral("--table"), table,
                                    QStringLiteral("--format"), format});
}

QList<QByteArray> lines(const QByteArray &out)
{
    QList<QByteArray> l = out.split('\n');
    if (!l.isEmpty() && l.last().isEmpty())
        l.removeLast();
    return l;
}

} // namespace

class TestCliRows : public QObject
{
    Q_OBJECT
private slots:
    void ntffAndJsonIdentical_data()
    {
        QTest::addColumn<QString>("stem");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("format");
        for (const char *stem : kPairs)
            for (const char *table : {"instruction", "dma", "semaphore"})
                for (const char *format : {"jsonl", "csv"})
                    QTest::addRow("%s %s %s", stem, table, format)
                        << QString::fromLatin1(stem) << QString::fromLatin1(table) << QString::fromLatin1(format);
    }

    void ntffAndJsonIdentical()
    {
        QFETCH(QString, stem);
        QFETCH(QString, table);
        QFETCH(QString, format);
        const QByteArray s = stem.toLatin1();
        LANESCOPE_REQUIRE_CORPUS_FILE(pairFile(s.constData(), ".ntff"));
        LANESCOPE_REQUIRE_CORPUS_FILE(pairFile(s.constData(), ".json"));
        const Run ntff = rows(lanescope::test::corpusFile(pairFile(s.constData(), ".ntff")), table, format);
        const Run json = rows(lanescope::test::corpusFile(pairFile(s.constData(), ".json")), table, format);
        QVERIFY2(ntff.exitCode == 0, ntff.err.constData());
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QList<QByteArray> a = lines(ntff.out), b = lines(json.out);
        QVERIFY2(a.size() > (format == QLatin1String("csv") ? 1 : 0), "no rows");
        // Byte-identical; on a difference, name the first line that differs.
        for (qsizetype i = 0; i < std::min(a.size(), b.size()); ++i)
            QVERIFY2(a[i] == b[i], qPrintable(QStringLiteral("line %1: ntff %2 | json %3")
                                                 .arg(i + 1)
                                                 .arg(QString::fromUtf8(a[i]), QString::fromUtf8(b[i]))));
        QCOMPARE(a.size(), b.size());
        QVERIFY(ntff.out == json.out);
        QVERIFY(ntff.out.endsWith('\n'));
    }

    // The shape of each format, on one pair: CSV has the header and the same number of cells on every
    // line; every JSONL line is one JSON object with the table's keys; both list the same rows.
    void formats_data()
    {
        QTest::addColumn<QString>("table");
        for (const char *table : {"instruction", "dma", "semaphore"})
            QTest::newRow(table) << QString::fromLatin1(table);
    }

    void formats()
    {
        QFETCH(QString, table);
        const QString file = pairFile("profile_128x128x256", ".ntff");
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const QString path = lanescope::test::corpusFile(file);
        const Run csv = rows(path, table, QStringLiteral("csv"));
        const Run jsonl = rows(path, table, QStringLiteral("jsonl"));
        QVERIFY2(csv.exitCode == 0, csv.err.constData());
        QVERIFY2(jsonl.exitCode == 0, jsonl.err.constData());

        const QList<QByteArray> c = lines(csv.out);
        QVERIFY(c.size() > 1);
        const QStringList cols = columns(table);
        QCOMPARE(QString::fromLatin1(c.first()), cols.join(QLatin1Char(',')));
        for (qsizetype i = 1; i < c.size(); ++i)
            QVERIFY2(c[i].count(',') == cols.size() - 1, c[i].constData());

        const QList<QByteArray> j = lines(jsonl.out);
        QCOMPARE(j.size(), c.size() - 1); // the same rows
        qint64 lastTimestamp = std::numeric_limits<qint64>::min();
        for (qsizetype i = 0; i < j.size(); ++i) {
            QJsonParseError pe;
            const QJsonDocument d = QJsonDocument::fromJson(j[i], &pe);
            QVERIFY2(pe.error == QJsonParseError::NoError && d.isObject(), j[i].constData());
            const QJsonObject o = d.object();
            for (const QString &k : alwaysPresent(table))
                QVERIFY2(o.contains(k), qPrintable(k + QStringLiteral(" missing: ") + QString::fromUtf8(j[i])));
            for (const QString &k : o.keys())
                QVERIFY2(cols.contains(k), qPrintable(k));
            // sorted by time
            const qint64 ts = o[QStringLiteral("timestamp")].toInteger();
            QVERIFY2(ts >= lastTimestamp, j[i].constData());
            lastTimestamp = ts;
            // the CSV line holds the same values in the header's order
            const QList<QByteArray> cells = c[i + 1].split(',');
            for (int k = 0; k < cols.size(); ++k) {
                const QJsonValue v = o.value(cols[k]);
                const QString cell = QString::fromUtf8(cells[k]);
                if (v.isUndefined())
                    QVERIFY2(cell.isEmpty(), qPrintable(cols[k]));
                else
                    QCOMPARE(cell, v.isString() ? v.toString() : QString::number(v.toInteger()));
            }
        }
    }

    void badArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString file = QStringLiteral(LANESCOPE_TEST_DATA "/cli_info_small.json");
        QTest::newRow("no table") << QStringList{file} << QStringLiteral("missing --table");
        QTest::newRow("unknown table") << QStringList{file, QStringLiteral("--table"), QStringLiteral("kernel")}
                                       << QStringLiteral("unknown table 'kernel'");
        QTest::newRow("unknown format") << QStringList{file, QStringLiteral("--table"), QStringLiteral("dma"),
                                                       QStringLiteral("--format"), QStringLiteral("xml")}
                                        << QStringLiteral("unknown format 'xml'");
        QTest::newRow("no path") << QStringList{QStringLiteral("--table"), QStringLiteral("dma")}
                                 << QStringLiteral("missing PATH");
        QTest::newRow("not a device trace") << QStringList{file, QStringLiteral("--table"), QStringLiteral("dma")}
                                            << QStringLiteral("not an NTFF or a neuron-profile JSON export");
    }

    void badArguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = lanescope::test::runCli(QStringList{QStringLiteral("rows")} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void missingFile()
    {
        QTemporaryDir tmp;
        const Run r = rows(tmp.filePath(QStringLiteral("absent.ntff")), QStringLiteral("dma"), QStringLiteral("csv"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("absent.ntff"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliRows)
#include "tst_clirows.moc"
