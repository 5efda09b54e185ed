// lanescope-cli query, run as a user would: text, CSV (RFC 4180) and JSON (numbers stay numbers) of
// counts checked against an independent count of the raw file, --file, --max-rows, and the bad cases:
// a syntax error (exit 2, its line and column, a caret), a write (exit 2, "read-only: ..."), a runaway
// query (exit 1, "query cancelled after N s").
#include "clirun.h"
#include "corpus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using lanescope::test::runCli;

namespace {

const QString kKineto = QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz");
// Counted by Python over the raw file (json.load of the gzip; Counter of e['name'] for ph == 'X'):
// aten::conv2d 318, cudaLaunchKernel 8802.
const QString kCounts = QStringLiteral(
    "SELECT name, COUNT(*) AS n FROM slices WHERE name IN ('aten::conv2d', 'cudaLaunchKernel') GROUP BY name ORDER BY name");

} // namespace

class TestCliQuery : public QObject
{
    Q_OBJECT
private slots:
    void formats()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kKineto);
        const QString path = lanescope::test::corpusFile(kKineto);
        const auto csv = runCli({QStringLiteral("query"), path, kCounts, QStringLiteral("--format"), QStringLiteral("csv")});
        QVERIFY2(csv.exitCode == 0, csv.err.constData());
        QCOMPARE(csv.out, QByteArray("name,n\r\naten::conv2d,318\r\ncudaLaunchKernel,8802\r\n"));

        const auto json = runCli({QStringLiteral("query"), path, kCounts, QStringLiteral("--format=json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        QJsonParseError e;
        const QJsonArray rows = QJsonDocument::fromJson(json.out, &e).array();
        QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString()));
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()[QStringLiteral("name")].toString(), QStringLiteral("aten::conv2d"));
        QVERIFY(rows[0].toObject()[QStringLiteral("n")].isDouble()); // a number, not "318"
        QCOMPARE(rows[0].toObject()[QStringLiteral("n")].toInteger(), 318);
        QCOMPARE(rows[1].toObject()[QStringLiteral("n")].toInteger(), 8802);

        const auto text = runCli({QStringLiteral("query"), path, kCounts});
        QVERIFY2(text.exitCode == 0, text.err.constData());
        const QList<QByteArray> lines = text.out.split('\n');
        QVERIFY(lines.size() >= 4);
        QCOMPARE(lines[0], QByteArray("name                 n"));
        QCOMPARE(lines[1], QByteArray("----------------  ----"));
        QCOMPARE(lines[2], QByteArray("aten::conv2d       318"));
        QCOMPARE(lines[3], QByteArray("cudaLaunchKernel  8802"));
    }

    // RFC 4180 quoting, NULL, reals that read back exactly; JSON null and numbers.
    void cellsAsWritten()
    {
        QTemporaryDir tmp;
        const QString sample = tmp.filePath(QStringLiteral("sample.json"));
        QCOMPARE(runCli({QStringLiteral("generate-sample"), QStringLiteral("-o"), sample}).exitCode, 0);
        const QString sql = QStringLiteral("SELECT 'a,b' AS x, 'say \"hi\"' AS y, NULL AS z, 1.5 AS w, 'two\nlines' AS v");
        const auto csv = runCli({QStringLiteral("query"), sample, sql, QStringLiteral("--format"), QStringLiteral("csv")});
        QVERIFY2(csv.exitCode == 0, csv.err.constData());
        QCOMPARE(csv.out, QByteArray("x,y,z,w,v\r\n\"a,b\",\"say \"\"hi\"\"\",,1.5,\"two\nlines\"\r\n"));
        const auto json = runCli({QStringLiteral("query"), sample, sql, QStringLiteral("--format"), QStringLiteral("json")});
        const QJsonObject o = QJsonDocument::fromJson(json.out).array().at(0).toObject();
        QVERIFY(o[QStringLiteral("z")].isNull());
        QCOMPARE(o[QStringLiteral("w")].toDouble(), 1.5);
        QCOMPARE(o[QStringLiteral("y")].toString(), QStringLiteral("say \"hi\""));
        QCOMPARE(o[QStringLiteral("v")].toString(), QStringLiteral("two\nlines"));
    }

    // --file (a query starting with a comment line), --max-rows.
    void fileAndMaxRows()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kKineto);
        const QString path = lanescope::test::corpusFile(kKineto);
        QTemporaryDir tmp;
        QFile q(tmp.filePath(QStringLiteral("q.sql")));
        QVERIFY(q.open(QIODevice::WriteOnly));
        q.write("-- convolutions\nSELECT COUNT(*) AS convs\nFROM slices\nWHERE name = 'aten::conv2d';\n");
        q.close();
        const auto r = runCli({QStringLiteral("query"), path, QStringLiteral("--file"), q.fileName(), QStringLiteral("--format"),
                               QStringLiteral("csv")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("convs\r\n318\r\n"));
        const auto limited = runCli({QStringLiteral("query"), path, QStringLiteral("SELECT id FROM slices"), QStringLiteral("--max-rows"),
                                     QStringLiteral("5"), QStringLiteral("--format"), QStringLiteral("csv")});
        QVERIFY2(limited.exitCode == 0, limited.err.constData());
        QCOMPARE(limited.out.count("\r\n"), 6); // header and 5 rows
        QVERIFY2(limited.err.contains("stopped after 5 rows (--max-rows)"), limited.err.constData());
    }

    void syntaxErrorWriteAndTimeout()
    {
        QTemporaryDir tmp;
        const QString sample = tmp.filePath(QStringLiteral("sample.json"));
        QCOMPARE(runCli({QStringLiteral("generate-sample"), QStringLiteral("-o"), sample}).exitCode, 0);

        const auto syntax = runCli({QStringLiteral("query"), sample, QStringLiteral("SELECT name FROM slices WHERE dur >\n  ORDER BY name")});
        QCOMPARE(syntax.exitCode, 2);
        QVERIFY2(syntax.err.contains("near \"ORDER\": syntax error at line 2, column 3"), syntax.err.constData());
        QVERIFY2(syntax.err.contains("\n    ORDER BY name\n    ^\n"), syntax.err.constData()); // the line and a caret
        QVERIFY(syntax.out.isEmpty());

        const auto write = runCli({QStringLiteral("query"), sample, QStringLiteral("DELETE FROM slices")});
        QCOMPARE(write.exitCode, 2);
        QVERIFY2(write.err.contains("read-only: table slices may not be modified"), write.err.constData());
        const auto insert = runCli({QStringLiteral("query"), sample, QStringLiteral("INSERT INTO tracks(id) VALUES (7)")});
        QCOMPARE(insert.exitCode, 2);
        QVERIFY2(insert.err.contains("read-only: INSERT into tracks is not allowed"), insert.err.constData());

        const auto slow = runCli({QStringLiteral("query"), sample,
                                  QStringLiteral("WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT COUNT(*) FROM r"),
                                  QStringLiteral("--timeout"), QStringLiteral("0.5")});
        QCOMPARE(slow.exitCode, 1);
        QVERIFY2(slow.err.contains("query cancelled after 0.5 s"), slow.err.constData());

        const auto usage = runCli({QStringLiteral("query"), sample});
        QCOMPARE(usage.exitCode, 2);
        QVERIFY(usage.err.contains("usage: lanescope-cli query"));
    }
};

QTEST_GUILESS_MAIN(TestCliQuery)
#include "tst_cliquery.moc"
