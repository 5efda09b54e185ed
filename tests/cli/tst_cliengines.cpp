// lanescope-cli engines: the --json shape the issue names, --range, the text table, exit codes, run as a
// user would (a real process) on a generated sample folder and on real NTFF / neuron-profile JSON.
#include "clirun.h"
#include "corpus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = lanescope::test::CliRun;

Run cli(const QStringList &args)
{
    return lanescope::test::runCli(args);
}

// The fields the issue names, with their JSON types; extra fields are allowed.
void checkShape(const QJsonObject &o)
{
    QVERIFY(o[QStringLiteral("engines")].isArray());
    QVERIFY(o[QStringLiteral("dma")].isArray());
    for (const auto &v : o[QStringLiteral("engines")].toArray()) {
        const QJsonObject e = v.toObject();
        QVERIFY(e[QStringLiteral("core")].isString());
        QVERIFY(e[QStringLiteral("engine")].isString());
        QVERIFY(e[QStringLiteral("instruction_count")].isDouble());
        QVERIFY(e[QStringLiteral("instruction_time_ns")].isDouble());
        QVERIFY(e[QStringLiteral("active_time_ns")].isDouble());
        QVERIFY(e[QStringLiteral("active_percent")].isDouble());
        QVERIFY(e[QStringLiteral("active_time_ns")].toInteger() <= e[QStringLiteral("instruction_time_ns")].toInteger());
        const double pct = e[QStringLiteral("active_percent")].toDouble();
        QVERIFY(pct >= 0 && pct <= 100);
    }
    for (const auto &v : o[QStringLiteral("dma")].toArray()) {
        const QJsonObject d = v.toObject();
        QVERIFY(d[QStringLiteral("queue")].isString());
        QVERIFY(d[QStringLiteral("bytes")].isDouble());
        QVERIFY(d[QStringLiteral("active_time_ns")].isDouble());
    }
}

QStringList engineNames(const QJsonObject &o)
{
    QStringList names;
    for (const auto &v : o[QStringLiteral("engines")].toArray())
        names << v.toObject()[QStringLiteral("engine")].toString();
    return names;
}

} // namespace

class TestCliEngines : public QObject
{
    Q_OBJECT
private slots:
    void sampleFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Run gen = cli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), dir.path()});
        QCOMPARE(gen.exitCode, 0);
        const Run r = cli({QStringLiteral("engines"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        checkShape(o);
        // One NeuronCore group for the folder's 18 executions (6 per step), with the five engines in order.
        const QStringList five = {QStringLiteral("Tensor"), QStringLiteral("Vector"), QStringLiteral("Scalar"),
                                  QStringLiteral("GpSimd"), QStringLiteral("Sync")};
        const QStringList names = engineNames(o);
        QVERIFY(!names.isEmpty() && names.size() % 5 == 0);
        for (qsizetype i = 0; i < names.size(); i += 5)
            QCOMPARE(names.mid(i, 5), five);
        QCOMPARE(o[QStringLiteral("cores")].toArray().size(), names.size() / 5);
        QCOMPARE(names.size(), 5);
        QVERIFY(!o[QStringLiteral("dma")].toArray().isEmpty());
        qint64 bytes = 0;
        for (const auto &v : o[QStringLiteral("dma")].toArray())
            bytes += v.toObject()[QStringLiteral("bytes")].toInteger();
        QVERIFY(bytes > 0);
    }

    void oneExecution()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QCOMPARE(cli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), dir.path()}).exitCode, 0);
        const Run list = cli({QStringLiteral("engines"), dir.path(), QStringLiteral("--execution"), QStringLiteral("list"), QStringLiteral("--json")});
        QVERIFY2(list.exitCode == 0, list.err.constData());
        const QJsonArray executions = QJsonDocument::fromJson(list.out).object()[QStringLiteral("executions")].toArray();
        QCOMPARE(executions.size(), 18); // 6 per step x 3 steps
        QCOMPARE(executions[0].toObject()[QStringLiteral("number")].toInteger(), 1);
        QVERIFY(executions[0].toObject()[QStringLiteral("name")].toString().contains(QStringLiteral(" \u00b7 aten::")));
        // Each execution's numbers equal those of its NTFF opened alone (instructions, times, DMA bytes).
        auto key = [](const QJsonObject &o) {
            QStringList k;
            for (const auto &v : o[QStringLiteral("engines")].toArray()) {
                const QJsonObject e = v.toObject();
                k << QStringLiteral("%1 %2 %3 %4").arg(e[QStringLiteral("engine")].toString()).arg(e[QStringLiteral("instruction_count")].toInteger())
                         .arg(e[QStringLiteral("instruction_time_ns")].toInteger()).arg(e[QStringLiteral("active_time_ns")].toInteger());
            }
            qint64 bytes = 0;
            for (const auto &v : o[QStringLiteral("dma")].toArray())
                bytes += v.toObject()[QStringLiteral("bytes")].toInteger();
            return k.join(QLatin1Char(',')) + QStringLiteral(" dma ") + QString::number(bytes);
        };
        QStringList perExecution, perFile;
        for (int n = 1; n <= 18; ++n) {
            const Run r = cli({QStringLiteral("engines"), dir.path(), QStringLiteral("--execution"), QString::number(n), QStringLiteral("--json")});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const QJsonObject o = QJsonDocument::fromJson(r.out).object();
            checkShape(o);
            QCOMPARE(o[QStringLiteral("execution")].toObject()[QStringLiteral("number")].toInteger(), qint64(n));
            QCOMPARE(o[QStringLiteral("window")].toObject()[QStringLiteral("whole_trace")].toBool(), false);
            perExecution << key(o);
        }
        QDirIterator it(dir.path(), {QStringLiteral("*.ntff")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const Run r = cli({QStringLiteral("engines"), it.next(), QStringLiteral("--json")});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            perFile << key(QJsonDocument::fromJson(r.out).object());
        }
        perExecution.sort();
        perFile.sort();
        QCOMPARE(perExecution, perFile);
        const Run missing = cli({QStringLiteral("engines"), dir.path(), QStringLiteral("--execution"), QStringLiteral("19")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("has 18 device executions, there is no execution 19"), missing.err.constData());
    }

    void realFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("ntff v5") << QStringLiteral("neuron-profile-json/profile_128x128x1024.ntff");
        QTest::newRow("neuron-profile json") << QStringLiteral("neuron-profile-json/profile_128x128x1024.json");
        QTest::newRow("ntff v4") << QStringLiteral("neuron-cs149-asst4/stream_256k_fd2k.ntff");
    }

    void realFiles()
    {
        QFETCH(QString, file);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const QString path = lanescope::test::corpusFile(file);
        const Run r = cli({QStringLiteral("engines"), path, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        checkShape(o);
        QCOMPARE(o[QStringLiteral("engines")].toArray().size(), 5);
        QVERIFY(o[QStringLiteral("window")].toObject()[QStringLiteral("whole_trace")].toBool());

        // --range: the first half of the window; times can only shrink.
        const qint64 start = o[QStringLiteral("window")].toObject()[QStringLiteral("start_ns")].toInteger();
        const qint64 end = o[QStringLiteral("window")].toObject()[QStringLiteral("end_ns")].toInteger();
        const QString range = QStringLiteral("%1:%2").arg(start).arg(start + (end - start) / 2);
        const Run half = cli({QStringLiteral("engines"), path, QStringLiteral("--json"), QStringLiteral("--range"), range});
        QVERIFY2(half.exitCode == 0, half.err.constData());
        const QJsonObject h = QJsonDocument::fromJson(half.out).object();
        checkShape(h);
        QVERIFY(!h[QStringLiteral("window")].toObject()[QStringLiteral("whole_trace")].toBool());
        QCOMPARE(h[QStringLiteral("window")].toObject()[QStringLiteral("end_ns")].toInteger(), start + (end - start) / 2);
        const QJsonArray all = o[QStringLiteral("engines")].toArray(), part = h[QStringLiteral("engines")].toArray();
        QCOMPARE(part.size(), all.size());
        for (qsizetype i = 0; i < all.size(); ++i)
            QVERIFY(part[i].toObject()[QStringLiteral("active_time_ns")].toInteger()
                    <= all[i].toObject()[QStringLiteral("active_time_ns")].toInteger());

        // The same range on the trace clock (Nabs) and after the trace start (units) gives the same
        // output; only the deprecated unit-less form prints a note.
        QVERIFY2(half.err.contains("deprecated"), half.err.constData());
        const Run abs = cli({QStringLiteral("engines"), path, QStringLiteral("--json"), QStringLiteral("--range"),
                             QStringLiteral("%1abs:%2abs").arg(start).arg(start + (end - start) / 2)});
        QVERIFY2(abs.exitCode == 0 && abs.err.isEmpty(), abs.err.constData());
        QCOMPARE(abs.out, half.out);
        const Run info = cli({QStringLiteral("info"), path, QStringLiteral("--json")});
        const qint64 traceStart = QJsonDocument::fromJson(info.out).object()[QStringLiteral("start_ns")].toInteger();
        const Run rel = cli({QStringLiteral("engines"), path, QStringLiteral("--json"), QStringLiteral("--range"),
                             QStringLiteral("%1ns:%2ns").arg(start - traceStart).arg(start + (end - start) / 2 - traceStart)});
        QVERIFY2(rel.exitCode == 0 && rel.err.isEmpty(), rel.err.constData());
        QCOMPARE(rel.out, half.out);

        // --format csv, one table at a time: the JSON's rows and keys.
        const Run csv = cli({QStringLiteral("engines"), path, QStringLiteral("--format"), QStringLiteral("csv")});
        QVERIFY2(csv.exitCode == 0, csv.err.constData());
        const QList<QByteArray> lines = csv.out.trimmed().split('\n');
        QVERIFY2(lines[0].startsWith("core,engine,instruction_count,semaphore_wait_count"), lines[0].constData());
        QCOMPARE(lines.size() - 1, all.size());
        const Run dma = cli({QStringLiteral("engines"), path, QStringLiteral("--format"), QStringLiteral("csv"),
                             QStringLiteral("--table"), QStringLiteral("dma")});
        QVERIFY2(dma.exitCode == 0, dma.err.constData());
        QVERIFY2(dma.out.startsWith("core,queue,bytes,"), dma.out.left(200).constData());
        QCOMPARE(dma.out.trimmed().split('\n').size() - 1, o[QStringLiteral("dma")].toArray().size());

        const Run text = cli({QStringLiteral("engines"), path});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("Tensor") && text.out.contains("active ns") && text.out.contains("DMA queue"));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no path") << QStringList{QStringLiteral("engines")} << QStringLiteral("usage");
        QTest::newRow("missing file") << QStringList{QStringLiteral("engines"), QStringLiteral("/nonexistent/x.ntff")}
                                      << QStringLiteral("x.ntff");
        QTest::newRow("bad range") << QStringList{QStringLiteral("engines"), QStringLiteral("x"), QStringLiteral("--range"),
                                                  QStringLiteral("10-20")}
                                   << QStringLiteral("--range");
        QTest::newRow("reversed range") << QStringList{QStringLiteral("engines"), QStringLiteral("x"),
                                                       QStringLiteral("--range"), QStringLiteral("20:10")}
                                        << QStringLiteral("--range '20:10': TO must be after FROM");
        QTest::newRow("bad table") << QStringList{QStringLiteral("engines"), QStringLiteral("x"), QStringLiteral("--format"),
                                                  QStringLiteral("csv"), QStringLiteral("--table"), QStringLiteral("pies")}
                                   << QStringLiteral("--table engines|dma|cores");
        QTest::newRow("execution") << QStringList{QStringLiteral("engines"), QStringLiteral("x"), QStringLiteral("--execution"),
                                                  QStringLiteral("first")}
                                   << QStringLiteral("--execution expects an execution number");
        QTest::newRow("limit") << QStringList{QStringLiteral("engines"), QStringLiteral("x"), QStringLiteral("--limit"), QStringLiteral("3")}
                               << QStringLiteral("--limit applies to");
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliEngines)
#include "tst_cliengines.moc"
