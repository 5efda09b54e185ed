// lanescope-cli info: JSON shape, exit codes and error text, run as a user would (a real process).
#include "clirun.h"
#include "corpus.h"
#include "filebytes.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = lanescope::test::CliRun;

Run cli(const QStringList &args)
{
    return lanescope::test::runCli(args);
}

QByteArray readData(const char *name)
{
    return lanescope::test::readFile<QByteArray>(QStringLiteral(LANESCOPE_TEST_DATA "/") + QLatin1String(name));
}

} // namespace

class TestCliInfo : public QObject
{
    Q_OBJECT
private slots:
    void jsonShape()
    {
        const QString path = QStringLiteral(LANESCOPE_TEST_DATA "/cli_info_small.json");
        const Run r = cli({QStringLiteral("info"), path, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("format")].toString(), QStringLiteral("chrome-json"));
        QCOMPARE(o[QStringLiteral("events")].toInt(), 6);
        QCOMPARE(o[QStringLiteral("slices")].toInt(), 2);
        QCOMPARE(o[QStringLiteral("instants")].toInt(), 1);
        QCOMPARE(o[QStringLiteral("counter_samples")].toInt(), 1);
        QCOMPARE(o[QStringLiteral("flows")].toInt(), 0);
        QCOMPARE(o[QStringLiteral("start_ns")].toInteger(), 10000);
        QCOMPARE(o[QStringLiteral("end_ns")].toInteger(), 15000);
        QCOMPARE(o[QStringLiteral("phases")].toObject()[QStringLiteral("X")].toInt(), 2);
        QCOMPARE(o[QStringLiteral("phases")].toObject()[QStringLiteral("M")].toInt(), 1);
        QCOMPARE(o[QStringLiteral("categories")].toObject()[QStringLiteral("cpu_op")].toInt(), 2);
        const QJsonArray tracks = o[QStringLiteral("tracks")].toArray();
        QCOMPARE(tracks.size(), 2);
        bool sawThread = false;
        for (const auto &t : tracks) {
            const QJsonObject to = t.toObject();
            QVERIFY(to.contains(QStringLiteral("group")) && to.contains(QStringLiteral("name")) && to.contains(QStringLiteral("kind")));
            if (to[QStringLiteral("name")].toString() == QStringLiteral("Thread 2")) {
                sawThread = true;
                QCOMPARE(to[QStringLiteral("group")].toString(), QStringLiteral("host"));
                QCOMPARE(to[QStringLiteral("count")].toInt(), 3); // 2 slices + 1 instant
            }
        }
        QVERIFY(sawThread);
        // Kineto's unmatched ac2g end (a runtime call that launched nothing) is a producer habit: a note.
        QVERIFY(o[QStringLiteral("warnings")].toArray().isEmpty());
        const QJsonArray notes = o[QStringLiteral("notes")].toArray();
        QCOMPARE(notes.size(), 1);
        QVERIFY(notes[0].toObject()[QStringLiteral("message")].toString().startsWith(QStringLiteral("Kineto flow ends without a start")));
        QCOMPARE(notes[0].toObject()[QStringLiteral("count")].toInt(), 1);
        QCOMPARE(o[QStringLiteral("metadata")].toObject()[QStringLiteral("displayTimeUnit")].toString(), QStringLiteral("ms"));
    }

    void textOutput()
    {
        QTemporaryDir dir;
        const QString path = lanescope::test::writeFileIn(dir, QStringLiteral("t.json"), QByteArray("[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1}]"));
        const Run r = cli({QStringLiteral("info"), path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("slices:          1"));
    }

    void unreadableInputs_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("empty");
        QTest::newRow("not json") << QByteArray("garbage!") << QStringLiteral("unrecognised file format");
        QTest::newRow("invalid json") << readData("invalid_unescaped_quote.json") << QStringLiteral("at byte");
        QTest::newRow("json, not a trace") << QByteArray("{\"schema\":\"1.0\",\"nodes\":[]}") << QStringLiteral("not a Chrome/Kineto trace");
    }
    void unreadableInputs()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = lanescope::test::writeFileIn(dir, QStringLiteral("bad.json"), content);
        const Run r = cli({QStringLiteral("info"), path, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(path), qPrintable(err));
        QVERIFY2(err.contains(expected), qPrintable(err));
    }

    // The generated sample folder: system_profile.json listed and loaded, its runtime lanes shown, the
    // dependency links counted by category, 3 steps of (exec: nc_exec_running -> device instructions, one
    // per NTFF; nrt: 6 nrt_execute -> nc_exec_running and 8 framework -> call by parent_id, 8 trace.json op -> call).
    void sampleFolderWithSystemProfile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QCOMPARE(cli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), dir.path()}).exitCode, 0);
        const Run r = cli({QStringLiteral("info"), dir.filePath(QStringLiteral("synthetic_rmsnorm_profile")), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        bool listed = false;
        for (const auto &f : o[QStringLiteral("files")].toArray()) {
            const QJsonObject fo = f.toObject();
            if (fo[QStringLiteral("path")].toString().endsWith(QStringLiteral("/system_profile.json"))) {
                listed = true;
                QCOMPARE(fo[QStringLiteral("kind")].toString(), QStringLiteral("system-profile-json"));
                QCOMPARE(fo[QStringLiteral("status")].toString(), QStringLiteral("loaded"));
            }
        }
        QVERIFY(listed);
        QStringList lanes;
        for (const auto &t : o[QStringLiteral("tracks")].toArray())
            lanes << t.toObject()[QStringLiteral("name")].toString();
        for (const QString &l : {QStringLiteral("neuron_rt · NC 0"), QStringLiteral("hardware · NC 0"), QStringLiteral("framework 4242")})
            QVERIFY2(lanes.contains(l), qPrintable(l));
        const QJsonObject flows = o[QStringLiteral("flow_categories")].toObject();
        QCOMPARE(flows[QStringLiteral("exec")].toInt(), 18);
        QCOMPARE(flows[QStringLiteral("nrt")].toInt(), 3 * (6 + 8 + 8));
        // trace.json's nrt_execute -> its device timeline (18), its launching op -> its slice on the executions lane (18)
        QCOMPARE(flows[QStringLiteral("neuron")].toInt(), 36);
        QCOMPARE(o[QStringLiteral("flows")].toInt(), 18 + 66 + 36);
    }

    void missingFileAndUsage()
    {
        QCOMPARE(cli({QStringLiteral("info"), QStringLiteral("/nonexistent/trace.json")}).exitCode, 2);
        QCOMPARE(cli({QStringLiteral("info")}).exitCode, 2);
        QCOMPARE(cli({QStringLiteral("no-such-command")}).exitCode, 2);
        const Run v = cli({QStringLiteral("--version")});
        QCOMPARE(v.exitCode, 0);
        QVERIFY(v.out.startsWith("lanescope-cli "));
        QCOMPARE(cli({QStringLiteral("--help")}).exitCode, 0);
    }

    // --memory-budget (any command): a file past it is a clear error that says how to raise the budget;
    // a bad size is a usage error.
    void memoryBudgetFlag()
    {
        QTemporaryDir dir;
        QByteArray big = "{\"traceEvents\":[";
        for (int i = 0; big.size() < 3 * 1024 * 1024; ++i)
            big += QByteArray(i ? "," : "") + "{\"ph\":\"X\",\"name\":\"op\",\"ts\":" + QByteArray::number(i) +
                   ",\"dur\":1,\"pid\":1,\"tid\":1}";
        big += "]}";
        const QString path = lanescope::test::writeFileIn(dir, QStringLiteral("big.json"), big);
        const Run tight = cli({QStringLiteral("info"), path, QStringLiteral("--memory-budget"), QStringLiteral("1M")});
        QCOMPARE(tight.exitCode, 2);
        QVERIFY2(tight.err.contains(path.toUtf8()) && tight.err.contains("memory budget of 1 MiB") &&
                     tight.err.contains("--memory-budget"),
                 tight.err.constData());
        const Run roomy = cli({QStringLiteral("info"), QStringLiteral("--memory-budget"), QStringLiteral("64M"), path});
        QCOMPARE(roomy.exitCode, 0);
        const Run bad = cli({QStringLiteral("info"), path, QStringLiteral("--memory-budget"), QStringLiteral("lots")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--memory-budget expects a size"), bad.err.constData());
    }

    void realKinetoFile()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("kineto/docs__after_fix_trace.json"));
        const Run r = cli({QStringLiteral("info"), lanescope::test::corpusFile(QStringLiteral("kineto/docs__after_fix_trace.json")), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        // counted independently: grep -c '"ph": "X"' etc. on the file
        QCOMPARE(o[QStringLiteral("events")].toInt(), 75);
        QCOMPARE(o[QStringLiteral("phases")].toObject()[QStringLiteral("X")].toInt(), 9);
        QCOMPARE(o[QStringLiteral("phases")].toObject()[QStringLiteral("f")].toInt(), 3);
        QCOMPARE(o[QStringLiteral("flows")].toInt(), 1);
        QVERIFY(o[QStringLiteral("metadata")].toObject().contains(QStringLiteral("deviceProperties")));
        QVERIFY(o[QStringLiteral("metadata")].toObject().contains(QStringLiteral("baseTimeNanoseconds")));
    }
};

QTEST_GUILESS_MAIN(TestCliInfo)
#include "tst_cliinfo.moc"
