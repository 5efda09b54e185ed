// lanescope-cli diff: JSON shape, zero deltas on identical inputs, the --fail-if-slower gate's exit
// status, and exit 2 on unreadable input, run as a CI job would (a real process).
#include "clirun.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

namespace {

using Run = lanescope::test::CliRun;

Run cli(const QStringList &args)
{
    return lanescope::test::runCli(QStringList{QStringLiteral("diff")} + args);
}

QString data(const char *name)
{
    return QStringLiteral(LANESCOPE_TEST_DATA "/diff/") + QLatin1String(name);
}

} // namespace

class TestCliDiff : public QObject
{
    Q_OBJECT
private slots:
    void jsonShape()
    {
        const Run r = cli({data("a.json"), data("b.json"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0); // no gate asked for
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("metric")].toString(), QStringLiteral("device"));
        const QJsonObject total = o[QStringLiteral("total")].toObject();
        QCOMPARE(total[QStringLiteral("a_ns")].toInteger(), 250000);
        QCOMPARE(total[QStringLiteral("b_ns")].toInteger(), 310000);
        QCOMPARE(total[QStringLiteral("delta_pct")].toDouble(), 24.0);
        const QJsonArray ops = o[QStringLiteral("ops")].toArray();
        QVERIFY(!ops.isEmpty());
        const QJsonObject first = ops[0].toObject();
        QCOMPARE(first[QStringLiteral("name")].toString(), QStringLiteral("aten::linear"));
        for (const char *key : {"a_ns", "b_ns", "delta_ns", "delta_pct", "a_calls", "b_calls"})
            QVERIFY2(first.contains(QLatin1String(key)), key);
        QCOMPARE(first[QStringLiteral("delta_ns")].toInteger(), 60000);
        QVERIFY(o[QStringLiteral("kernels")].isArray());
        QVERIFY(o[QStringLiteral("engines")].isArray());
        QVERIFY(!o.contains(QStringLiteral("gate")));
    }

    void identicalInputsPassTheStrictestGate()
    {
        const Run r = cli({data("a.json"), data("a.json"), QStringLiteral("--json"), QStringLiteral("--fail-if-slower"),
                           QStringLiteral("0")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("total")].toObject()[QStringLiteral("delta_ns")].toInteger(), 0);
        for (const QJsonValue &v : o[QStringLiteral("ops")].toArray())
            QCOMPARE(v.toObject()[QStringLiteral("delta_ns")].toInteger(), 0);
        QCOMPARE(o[QStringLiteral("gate")].toObject()[QStringLiteral("failed")].toBool(), false);
    }

    void gateExitStatus_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("op +30% > 25%") << QStringList{QStringLiteral("--fail-if-slower"), QStringLiteral("25")} << 1;
        QTest::newRow("nothing > 35%") << QStringList{QStringLiteral("--fail-if-slower"), QStringLiteral("35")} << 0;
        QTest::newRow("op below min-time, total +24% > 20%")
            << QStringList{QStringLiteral("--fail-if-slower"), QStringLiteral("20"), QStringLiteral("--min-time"), QStringLiteral("300000")} << 1;
        QTest::newRow("op below min-time, total +24% < 25%")
            << QStringList{QStringLiteral("--fail-if-slower"), QStringLiteral("25"), QStringLiteral("--min-time"), QStringLiteral("300000")} << 0;
        QTest::newRow("cpu metric: linear self +10.3%")
            << QStringList{QStringLiteral("--metric"), QStringLiteral("cpu"), QStringLiteral("--fail-if-slower"), QStringLiteral("10")} << 1;
    }

    void gateExitStatus()
    {
        QFETCH(QStringList, flags);
        QFETCH(int, exitCode);
        const Run r = cli(QStringList{data("a.json"), data("b.json")} + flags);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY(r.out.contains(exitCode ? "gate: FAILED" : "gate: passed"));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing file") << QStringList{data("a.json"), data("nope.json")} << QStringLiteral("nope.json");
        QTest::newRow("one path") << QStringList{data("a.json")} << QStringLiteral("usage: lanescope-cli diff");
        QTest::newRow("bad metric") << QStringList{data("a.json"), data("b.json"), QStringLiteral("--metric"), QStringLiteral("gpu")}
                                    << QStringLiteral("--metric must be device, cpu or wall");
        QTest::newRow("bad percent") << QStringList{data("a.json"), data("b.json"), QStringLiteral("--fail-if-slower"), QStringLiteral("x")}
                                     << QStringLiteral("--fail-if-slower expects a percentage");
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliDiff)
#include "tst_clidiff.moc"
