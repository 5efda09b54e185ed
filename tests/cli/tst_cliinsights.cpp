// lanescope-cli insights: JSON shape and ranking, --min-severity, --range, exit status 2 on
// unreadable input or bad flags; and the findings section of `diff` on the RMSNorm sample (naive ->
// torch.compile resolves the fusion candidate), run as a user would (a real process).
#include "clirun.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = lanescope::test::CliRun;
using lanescope::test::runCli;

int rank(const QString &severity) { return severity == QLatin1String("high") ? 2 : severity == QLatin1String("medium") ? 1 : 0; }

bool hasRule(const QJsonArray &findings, const char *rule)
{
    for (const QJsonValue &v : findings)
        if (v.toObject()[QStringLiteral("rule")].toString() == QLatin1String(rule))
            return true;
    return false;
}

} // namespace

class TestCliInsights : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString folder(const char *name) const { return m_dir.filePath(QLatin1String(name)); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const Run r = runCli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), m_dir.path(), QStringLiteral("--compare-set")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QDir(folder("synthetic_rmsnorm_naive")).exists());
        QVERIFY(QDir(folder("synthetic_rmsnorm_compile")).exists());
    }

    void jsonShape()
    {
        const Run r = runCli({QStringLiteral("insights"), folder("synthetic_rmsnorm_naive"), QStringLiteral("--json"), QStringLiteral("--no-cache")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o[QStringLiteral("metrics")].isObject());
        const QJsonObject m = o[QStringLiteral("metrics")].toObject();
        for (const char *key : {"devices", "device_total_ns", "device_busy_ns", "device_idle_ns", "engines", "dma", "average_dma_bytes",
                                "mfu_percent", "hfu_percent", "framework_cpu_ns", "device_ns", "steps", "median_step_ns"})
            QVERIFY2(m.contains(QLatin1String(key)), key);
        const QJsonArray findings = o[QStringLiteral("findings")].toArray();
        QVERIFY(hasRule(findings, "fusion-candidate"));
        int previous = 2;
        for (const QJsonValue &v : findings) {
            const QJsonObject f = v.toObject();
            for (const char *key : {"rule", "severity", "title", "detail", "action", "value", "threshold", "recoverable_ns", "events", "ranges"})
                QVERIFY2(f.contains(QLatin1String(key)), key);
            const int s = rank(f[QStringLiteral("severity")].toString());
            QVERIFY(s <= previous); // most severe first
            previous = s;
            QVERIFY(f[QStringLiteral("events")].toArray().size() <= 50);
            for (const QJsonValue &range : f[QStringLiteral("ranges")].toArray())
                QVERIFY(range.toArray()[0].toInteger() <= range.toArray()[1].toInteger());
            if (f[QStringLiteral("rule")].toString() == QLatin1String("fusion-candidate")) {
                QVERIFY(f[QStringLiteral("title")].toString().contains(QLatin1String("rmsnorm naive")));
                QCOMPARE(f[QStringLiteral("value")].toDouble(), 4.0);
                QVERIFY(f[QStringLiteral("recoverable_ns")].toInteger() > 0);
            }
        }
    }

    void text()
    {
        const Run r = runCli({QStringLiteral("insights"), folder("synthetic_rmsnorm_naive"), QStringLiteral("--no-cache")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("Key metrics"));
        QVERIFY(r.out.contains("Fusion candidate: rmsnorm naive"));
    }

    void minSeverity()
    {
        const Run r = runCli({QStringLiteral("insights"), folder("synthetic_rmsnorm_naive"), QStringLiteral("--json"),
                              QStringLiteral("--min-severity"), QStringLiteral("high"), QStringLiteral("--no-cache")});
        QCOMPARE(r.exitCode, 0);
        for (const QJsonValue &v : QJsonDocument::fromJson(r.out).object()[QStringLiteral("findings")].toArray())
            QCOMPARE(v.toObject()[QStringLiteral("severity")].toString(), QStringLiteral("high"));
    }

    void range()
    {
        // An empty window before the trace: no device work, no findings, still exit 0.
        const Run r = runCli({QStringLiteral("insights"), folder("synthetic_rmsnorm_compile"), QStringLiteral("--json"),
                              QStringLiteral("--range"), QStringLiteral("0:1000"), QStringLiteral("--no-cache")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o[QStringLiteral("findings")].toArray().isEmpty());
        QCOMPARE(o[QStringLiteral("metrics")].toObject()[QStringLiteral("span_ns")].toInteger(), 1000);
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("missing file") << QStringList{QStringLiteral("/nonexistent/trace.json")};
        QTest::newRow("no path") << QStringList{};
        QTest::newRow("bad range") << QStringList{QStringLiteral("x.json"), QStringLiteral("--range"), QStringLiteral("5:1")};
        QTest::newRow("bad severity") << QStringList{QStringLiteral("x.json"), QStringLiteral("--min-severity"), QStringLiteral("urgent")};
        QTest::newRow("unknown flag") << QStringList{QStringLiteral("x.json"), QStringLiteral("--frobnicate")};
    }

    void errors()
    {
        QFETCH(QStringList, args);
        const Run r = runCli(QStringList{QStringLiteral("insights")} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!r.err.isEmpty());
    }

    void diffFindings()
    {
        const Run r = runCli({QStringLiteral("diff"), folder("synthetic_rmsnorm_naive"), folder("synthetic_rmsnorm_compile"),
                              QStringLiteral("--json"), QStringLiteral("--no-cache")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject f = QJsonDocument::fromJson(r.out).object()[QStringLiteral("findings")].toObject();
        QVERIFY(f[QStringLiteral("changed")].isArray());
        QVERIFY(hasRule(f[QStringLiteral("resolved")].toArray(), "fusion-candidate"));
        QVERIFY(!hasRule(f[QStringLiteral("new")].toArray(), "fusion-candidate"));
        const Run t = runCli({QStringLiteral("diff"), folder("synthetic_rmsnorm_naive"), folder("synthetic_rmsnorm_compile"),
                              QStringLiteral("--no-cache")});
        QCOMPARE(t.exitCode, 0);
        QVERIFY(t.out.contains("findings resolved in B"));
    }
};

QTEST_GUILESS_MAIN(TestCliInsights)
#include "tst_cliinsights.moc"
