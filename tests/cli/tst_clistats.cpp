// lanescope-cli stats: JSON shape and numbers, --range, exit codes (unreadable input, bad regex,
// missing --name), run as a real process on the op-table fixture (gemm: 10, 20, 40 us).
#include "clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {

using Run = lanescope::test::CliRun;
using lanescope::test::jsonOf;

QString fixture() { return QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"); }

} // namespace

class TestCliStats : public QObject
{
    Q_OBJECT
private slots:
    void json()
    {
        const Run r = lanescope::test::runCli({QStringLiteral("stats"), fixture(), QStringLiteral("--name"), QStringLiteral("^gemm$"),
                                               QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = jsonOf(r);
        QCOMPARE(doc.keys(), QStringList{QStringLiteral("names")});
        const QJsonArray names = doc[QStringLiteral("names")].toArray();
        QCOMPARE(names.size(), 1);
        const QJsonObject g = names[0].toObject();
        QStringList keys;
        for (const char *k : {"name", "count", "total_ns", "mean_ns", "median_ns", "p90_ns", "p99_ns", "min_ns", "max_ns", "stddev_ns", "histogram"})
            keys << QLatin1String(k);
        keys.sort();
        QCOMPARE(g.keys(), keys);
        QCOMPARE(g[QStringLiteral("name")].toString(), QStringLiteral("gemm"));
        QCOMPARE(g[QStringLiteral("count")].toInteger(), 3);
        QCOMPARE(g[QStringLiteral("total_ns")].toInteger(), 70000);
        QCOMPARE(g[QStringLiteral("mean_ns")].toDouble(), 70000.0 / 3);
        QCOMPARE(g[QStringLiteral("median_ns")].toInteger(), 20000); // rank 2 of 10, 20, 40 us
        QCOMPARE(g[QStringLiteral("p90_ns")].toInteger(), 40000);    // rank ceil(2.7) = 3
        QCOMPARE(g[QStringLiteral("p99_ns")].toInteger(), 40000);
        QCOMPARE(g[QStringLiteral("min_ns")].toInteger(), 10000);
        QCOMPARE(g[QStringLiteral("max_ns")].toInteger(), 40000);
        // Population stddev of 10, 20, 40 us: sqrt(((-40/3)^2 + (-10/3)^2 + (50/3)^2) / 3) us.
        QVERIFY(qAbs(g[QStringLiteral("stddev_ns")].toDouble() - 1000.0 * std::sqrt((1600.0 + 100.0 + 2500.0) / 27.0)) < 1e-6);
        const QJsonArray bins = g[QStringLiteral("histogram")].toArray();
        QVERIFY(!bins.isEmpty());
        qint64 sum = 0;
        for (const auto &b : bins) {
            QStringList binKeys = b.toObject().keys();
            QCOMPARE(binKeys, (QStringList{QStringLiteral("count"), QStringLiteral("from_ns"), QStringLiteral("to_ns")}));
            sum += b.toObject()[QStringLiteral("count")].toInteger();
        }
        QCOMPARE(sum, 3);
        QCOMPARE(bins.first().toObject()[QStringLiteral("from_ns")].toInteger(), 10000);
        QCOMPARE(bins.last().toObject()[QStringLiteral("to_ns")].toInteger(), 40001);
    }

    void rangeAndText()
    {
        const Run all = lanescope::test::runCli({QStringLiteral("stats"), fixture(), QStringLiteral("--name"), QStringLiteral("."), QStringLiteral("--json")});
        QCOMPARE(all.exitCode, 0);
        const int names = int(jsonOf(all)[QStringLiteral("names")].toArray().size());
        QVERIFY(names > 3);
        // The first step only (as the kernel table's range test): 2 of the 3 gemms.
        const Run r = lanescope::test::runCli({QStringLiteral("stats"), fixture(), QStringLiteral("--name=^gemm$"),
                                               QStringLiteral("--range"), QStringLiteral("0abs:150000abs"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = jsonOf(r)[QStringLiteral("names")].toArray();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows[0].toObject()[QStringLiteral("count")].toInteger(), 2);
        const Run text = lanescope::test::runCli({QStringLiteral("stats"), fixture(), QStringLiteral("--name"), QStringLiteral("^gemm$")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("p99") && text.out.contains("gemm") && text.out.contains("Histogram of gemm"), text.out.constData());
    }

    void errors()
    {
        const Run bad = lanescope::test::runCli({QStringLiteral("stats"), fixture(), QStringLiteral("--name"), QStringLiteral("gemm(")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("invalid regular expression 'gemm('"), bad.err.constData());
        QVERIFY(bad.out.isEmpty());
        const Run missing = lanescope::test::runCli({QStringLiteral("stats"), fixture()});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("--name REGEX is required"), missing.err.constData());
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\": [ {\"ph\": \"X\", \"name\": ");
        f.close();
        const Run unreadable = lanescope::test::runCli({QStringLiteral("stats"), broken, QStringLiteral("--name"), QStringLiteral("x"),
                                                        QStringLiteral("--no-cache")});
        QCOMPARE(unreadable.exitCode, 2);
        QVERIFY2(unreadable.err.contains("broken.json"), unreadable.err.constData());
        const Run nofile = lanescope::test::runCli({QStringLiteral("stats"), dir.filePath(QStringLiteral("absent.json")),
                                                    QStringLiteral("--name"), QStringLiteral("x")});
        QCOMPARE(nofile.exitCode, 2);
        const Run badRange = lanescope::test::runCli({QStringLiteral("stats"), fixture(), QStringLiteral("--name"), QStringLiteral("x"),
                                                      QStringLiteral("--range"), QStringLiteral("5ms:1ms")});
        QCOMPARE(badRange.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliStats)
#include "tst_clistats.moc"
