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
using lanescope::test::jsonOf;
using lanescope::test::rowNamed;

Run cli(const QStringList &args)
{
    return lanescope::test::runCli(args);
}

QString fixture() { return QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"); }

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

    // --range FROM:TO after the trace start with units, Nabs on the trace clock, and the deprecated
    // unit-less trace-clock ns: the same rows, and a note on stderr for the deprecated form only.
    void rangeForms()
    {
        const Run info = cli({QStringLiteral("info"), fixture(), QStringLiteral("--json")});
        QCOMPARE(info.exitCode, 0);
        const qint64 start = jsonOf(info)[QStringLiteral("start_ns")].toInteger();
        QVERIFY(start <= 150000);
        const auto opsWith = [](const QString &range) {
            return cli({QStringLiteral("ops"), fixture(), QStringLiteral("--json"), QStringLiteral("--range"), range});
        };
        const Run bare = opsWith(QStringLiteral("150000:300000"));
        QCOMPARE(bare.exitCode, 0);
        QVERIFY2(bare.err.contains("deprecated") && bare.err.contains("abs"), bare.err.constData());
        QCOMPARE(bare.err.count('\n'), 1); // one line
        const Run abs = opsWith(QStringLiteral("150000abs:300000abs"));
        QCOMPARE(abs.exitCode, 0);
        QVERIFY2(abs.err.isEmpty(), abs.err.constData());
        QCOMPARE(abs.out, bare.out);
        const Run rel = opsWith(QStringLiteral("%1ns:%2us").arg(150000 - start).arg(double(300000 - start) / 1000.0));
        QCOMPARE(rel.exitCode, 0);
        QVERIFY2(rel.err.isEmpty(), rel.err.constData());
        QCOMPARE(rel.out, bare.out);
        QCOMPARE(jsonOf(rel)[QStringLiteral("ops")].toArray().size(), 3);
        // Open ends: the whole trace gives the rows of no range.
        const Run open = cli({QStringLiteral("kernels"), fixture(), QStringLiteral("--json"), QStringLiteral("--range"), QStringLiteral(":")});
        const Run none = cli({QStringLiteral("kernels"), fixture(), QStringLiteral("--json")});
        QCOMPARE(open.exitCode, 0);
        QCOMPARE(jsonOf(open)[QStringLiteral("kernels")], jsonOf(none)[QStringLiteral("kernels")]);
    }

    // --format csv: a header of the JSON keys, then the rows the JSON has, the same numbers.
    void csvOutput_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("arrayKey");
        QTest::addColumn<QString>("header");
        QTest::newRow("ops") << QStringLiteral("ops") << QStringLiteral("ops")
                             << QStringLiteral("name,kind,calls,cpu_total_ns,cpu_self_ns,cpu_avg_ns,cpu_min_ns,cpu_max_ns,"
                                               "device_total_ns,device_self_ns,device_avg_ns,cpu_self_percent,"
                                               "cpu_total_percent,device_self_percent,device_total_percent,device_flops_total,device_flops_self,"
                                               "mfu_percent,dma_bytes_total,dma_bytes_self");
        QTest::newRow("kernels") << QStringLiteral("kernels") << QStringLiteral("kernels")
                                 << QStringLiteral("name,kind,count,total_ns,mean_ns,min_ns,max_ns,percent,launched_by,launchers,unattributed");
        QTest::newRow("devices") << QStringLiteral("devices") << QStringLiteral("devices")
                                 << QStringLiteral("device,total_ns,busy_ns,idle_ns,compute_ns,memcpy_ns,busy_percent,work");
    }
    void csvOutput()
    {
        QFETCH(QString, command);
        QFETCH(QString, arrayKey);
        QFETCH(QString, header);
        const Run csv = cli({command, fixture(), QStringLiteral("--format"), QStringLiteral("csv")});
        QVERIFY2(csv.exitCode == 0, csv.err.constData());
        const QStringList lines = QString::fromUtf8(csv.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.value(0), header);
        const QJsonArray rows = jsonOf(cli({command, fixture(), QStringLiteral("--format"), QStringLiteral("json")}))[arrayKey].toArray();
        QCOMPARE(lines.size() - 1, rows.size());
        const QStringList keys = header.split(QLatin1Char(','));
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const QStringList fields = lines[i + 1].split(QLatin1Char(','));
            QCOMPARE(fields.size(), keys.size());
            const QJsonObject o = rows[i].toObject();
            for (qsizetype k = 0; k < keys.size(); ++k) {
                const QJsonValue v = o[keys[k]];
                if (v.isString())
                    QCOMPARE(fields[k], v.toString());
                else
                    QCOMPARE(fields[k].toDouble(), v.toDouble());
            }
        }
        const Run limited = cli({command, fixture(), QStringLiteral("--format=csv"), QStringLiteral("--limit"), QStringLiteral("1")});
        QCOMPARE(limited.out.count('\n'), 2);
    }

    // The text tables keep their aligned column form (core's DurationText::column).
    void textTable()
    {
        const Run r = cli({QStringLiteral("ops"), fixture()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("40.000 us") && r.out.contains("Self CPU time total:"), r.out.constData());
    }

    // --help documents the range syntax, its deprecated forms and --format.
    void help()
    {
        for (const char *cmd : {"ops", "kernels", "devices", "engines", "screenshot"}) {
            const Run r = cli({QLatin1String(cmd), QStringLiteral("--help")});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.out.contains("--range FROM:TO") && r.out.contains("after the trace start") && r.out.contains("Nabs")
                         && r.out.contains("Deprecated") && r.out.contains("--format text|json|csv"),
                     r.out.constData());
        }
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no path") << QStringList{QStringLiteral("ops")} << QStringLiteral("missing PATH");
        QTest::newRow("bad sort") << QStringList{QStringLiteral("ops"), fixture(), QStringLiteral("--sort"), QStringLiteral("bogus")} << QStringLiteral("unknown sort column 'bogus'");
        QTest::newRow("bad range") << QStringList{QStringLiteral("kernels"), fixture(), QStringLiteral("--range"), QStringLiteral("5:1")} << QStringLiteral("--range '5:1': TO must be after FROM");
        QTest::newRow("range without colon") << QStringList{QStringLiteral("ops"), fixture(), QStringLiteral("--range"), QStringLiteral("10ms")} << QStringLiteral("expected FROM:TO after the trace start");
        QTest::newRow("range bad side") << QStringList{QStringLiteral("devices"), fixture(), QStringLiteral("--range"), QStringLiteral("1ms:soon")} << QStringLiteral("TO 'soon' is not a time");
        QTest::newRow("range reversed after load") << QStringList{QStringLiteral("ops"), fixture(), QStringLiteral("--range"), QStringLiteral("999999999abs:1ms")} << QStringLiteral("TO must be after FROM");
        QTest::newRow("bad format") << QStringList{QStringLiteral("ops"), fixture(), QStringLiteral("--format"), QStringLiteral("xml")} << QStringLiteral("--format expects text, json or csv, got 'xml'");
        QTest::newRow("json and csv") << QStringList{QStringLiteral("ops"), fixture(), QStringLiteral("--json"), QStringLiteral("--format"), QStringLiteral("csv")} << QStringLiteral("contradict");
        QTest::newRow("sort on devices") << QStringList{QStringLiteral("devices"), fixture(), QStringLiteral("--sort"), QStringLiteral("busy_ns")} << QStringLiteral("--sort applies to `ops` and `kernels`");
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
