// lanescope-cli ops / kernels / devices: JSON shape, flags, exit codes, run as a real process.
#include "clirun.h"
#include "corpus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

namespace {

using Run = lanescope::test::CliRun;

Run cli(const QStringList &args)
{
    return lanescope::test::runCli(args);
}

QString fixture() { return QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"); }

QJsonObject jsonOf(const Run &r)
{
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(r.out, &e);
    if (e.error != QJsonParseError::NoError)
        qWarning("%s", qPrintable(e.errorString()));
    return d.object();
}

QJsonObject rowNamed(const QJsonArray &rows, const QString &name)
{
    for (const auto &v : rows)
        if (v.toObject()[QStringLiteral("name")].toString() == name)
            return v.toObject();
    return {};
}

} // namespace

class TestCliTables : public QObject
{
    Q_OBJECT
private slots:
    void opsJson()
    {
        const Run r = cli({QStringLiteral("ops"), fixture(), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray ops = jsonOf(r)[QStringLiteral("ops")].toArray();
        QCOMPARE(ops.size(), 5);
        for (const auto &v : ops)
            for (const char *key : {"name", "calls", "cpu_total_ns", "cpu_self_ns", "device_total_ns", "device_self_ns"})
                QVERIFY2(v.toObject().contains(QLatin1String(key)), key);
        const QJsonObject mm = rowNamed(ops, QStringLiteral("aten::mm"));
        QCOMPARE(mm[QStringLiteral("calls")].toInteger(), 2);
        QCOMPARE(mm[QStringLiteral("cpu_total_ns")].toInteger(), 40000);
        QCOMPARE(mm[QStringLiteral("cpu_self_ns")].toInteger(), 32000);
        QCOMPARE(mm[QStringLiteral("device_total_ns")].toInteger(), 60000);
        QCOMPARE(mm[QStringLiteral("device_self_ns")].toInteger(), 60000);
        QCOMPARE(jsonOf(r)[QStringLiteral("unattributed_device_ns")].toInteger(), 5000);
    }

    void opsSortLimitRangeShapes_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("first");
        QTest::addColumn<int>("rows");
        QTest::newRow("pytorch self device") << QStringList{QStringLiteral("--sort"), QStringLiteral("self_privateuse1_time_total")} << QStringLiteral("aten::mm") << 5;
        QTest::newRow("self cuda, =form") << QStringList{QStringLiteral("--sort=self_cuda_time_total")} << QStringLiteral("aten::mm") << 5;
        QTest::newRow("ours") << QStringList{QStringLiteral("--sort"), QStringLiteral("cpu_self_ns")} << QStringLiteral("ProfilerStep*") << 5;
        QTest::newRow("limit") << QStringList{QStringLiteral("--limit"), QStringLiteral("2")} << QStringLiteral("ProfilerStep*") << 2;
        QTest::newRow("range") << QStringList{QStringLiteral("--range"), QStringLiteral("150000:300000")} << QStringLiteral("ProfilerStep*") << 3;
        QTest::newRow("shapes") << QStringList{QStringLiteral("--group-by-shapes")} << QStringLiteral("ProfilerStep*") << 6;
    }

    void opsSortLimitRangeShapes()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, first);
        QFETCH(int, rows);
        const Run r = cli(QStringList{QStringLiteral("ops"), fixture(), QStringLiteral("--json")} + flags);
        QCOMPARE(r.exitCode, 0);
        const QJsonArray ops = jsonOf(r)[QStringLiteral("ops")].toArray();
        QCOMPARE(ops.size(), rows);
        QCOMPARE(ops[0].toObject()[QStringLiteral("name")].toString(), first);
        if (flags.contains(QStringLiteral("--group-by-shapes")))
            QVERIFY(ops[0].toObject().contains(QStringLiteral("input_shapes")));
    }

    void kernelsJson()
    {
        const Run r = cli({QStringLiteral("kernels"), fixture(), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray kernels = jsonOf(r)[QStringLiteral("kernels")].toArray();
        QCOMPARE(kernels.size(), 3);
        for (const auto &v : kernels)
            for (const char *key : {"name", "count", "total_ns", "min_ns", "max_ns", "launched_by"})
                QVERIFY2(v.toObject().contains(QLatin1String(key)), key);
        const QJsonObject gemm = rowNamed(kernels, QStringLiteral("gemm"));
        QCOMPARE(gemm[QStringLiteral("count")].toInteger(), 3);
        QCOMPARE(gemm[QStringLiteral("total_ns")].toInteger(), 70000);
        QCOMPARE(gemm[QStringLiteral("min_ns")].toInteger(), 10000);
        QCOMPARE(gemm[QStringLiteral("max_ns")].toInteger(), 40000);
        QCOMPARE(gemm[QStringLiteral("launched_by")].toString(), QStringLiteral("aten::mm"));
    }

    void devicesJson()
    {
        const Run r = cli({QStringLiteral("devices"), fixture(), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray devices = jsonOf(r)[QStringLiteral("devices")].toArray();
        QCOMPARE(devices.size(), 1);
        const QJsonObject d = devices[0].toObject();
        QCOMPARE(d[QStringLiteral("device")].toString(), QStringLiteral("GPU 0"));
        QCOMPARE(d[QStringLiteral("total_ns")].toInteger(), 215000);
        QCOMPARE(d[QStringLiteral("busy_ns")].toInteger(), 95000);
        QCOMPARE(d[QStringLiteral("idle_ns")].toInteger(), 120000);
        QCOMPARE(d[QStringLiteral("compute_ns")].toInteger(), 75000);
        QCOMPARE(d[QStringLiteral("memcpy_ns")].toInteger(), 20000);
    }

    // The numbers the CLI prints for a real trace are PyTorch's (see tst_optable for the rest).
    void opsRealTrace()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("generated-torch-cpu/rmsnorm_naive.trace.json"));
        const Run r = cli({QStringLiteral("ops"), lanescope::test::corpusFile(QStringLiteral("generated-torch-cpu/rmsnorm_naive.trace.json")),
                           QStringLiteral("--json"), QStringLiteral("--sort"), QStringLiteral("self_cpu_time_total"), QStringLiteral("--limit"),
                           QStringLiteral("1")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject top = jsonOf(r)[QStringLiteral("ops")].toArray()[0].toObject();
        QCOMPARE(top[QStringLiteral("name")].toString(), QStringLiteral("rmsnorm_naive"));
        QCOMPARE(top[QStringLiteral("calls")].toInteger(), 3);
        QCOMPARE(top[QStringLiteral("cpu_self_ns")].toInteger(), 375000);
        QCOMPARE(top[QStringLiteral("cpu_total_ns")].toInteger(), 853000);
    }

    void textOutput()
    {
        for (const char *cmd : {"ops", "kernels", "devices"}) {
            const Run r = cli({QLatin1String(cmd), fixture()});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.contains("GPU 0") || r.out.contains("gemm") || r.out.contains("aten::mm"));
        }
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no path") << QStringList{QStringLiteral("ops")} << QStringLiteral("missing PATH");
        QTest::newRow("bad sort") << QStringList{QStringLiteral("ops"), fixture(), QStringLiteral("--sort"), QStringLiteral("bogus")} << QStringLiteral("unknown sort column 'bogus'");
        QTest::newRow("bad range") << QStringList{QStringLiteral("kernels"), fixture(), QStringLiteral("--range"), QStringLiteral("5:1")} << QStringLiteral("--range expects START_NS:END_NS");
        QTest::newRow("bad limit") << QStringList{QStringLiteral("ops"), fixture(), QStringLiteral("--limit"), QStringLiteral("x")} << QStringLiteral("--limit expects");
        QTest::newRow("unknown flag") << QStringList{QStringLiteral("devices"), fixture(), QStringLiteral("--frobnicate")} << QStringLiteral("unknown option '--frobnicate'");
        QTest::newRow("shapes on kernels") << QStringList{QStringLiteral("kernels"), fixture(), QStringLiteral("--group-by-shapes")} << QStringLiteral("applies to `ops` only");
        QTest::newRow("missing file") << QStringList{QStringLiteral("ops"), QStringLiteral("/nonexistent/trace.json")} << QStringLiteral("/nonexistent/trace.json");
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliTables)
#include "tst_clitables.moc"
