// Capture checks on the command line, run as a user would: `generate-sample --capture no-sync|no-warmup`,
// `insights` (JSON "capture" beside "findings", the text's capture section first) and the one-line
// verdict of `info` (text and --json). The bundled sample and its --compare-set folders pass every check.
#include "clirun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = lanescope::test::CliRun;
using lanescope::test::runCli;

QStringList ruleIds(const QJsonArray &findings)
{
    QStringList out;
    for (const QJsonValue &v : findings)
        out << v.toObject()[QStringLiteral("rule")].toString();
    return out;
}

// The "capture:" line of `info` text output.
QString verdictLine(const QByteArray &out)
{
    for (const QByteArray &line : out.split('\n'))
        if (line.startsWith("capture:"))
            return QString::fromUtf8(line.mid(8)).trimmed();
    return QStringLiteral("(no capture line)");
}

} // namespace

class TestCliCapture : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString path(const char *name) const { return m_dir.filePath(QLatin1String(name)); }
    Run cli(QStringList args) const
    {
        args << QStringLiteral("--no-cache");
        return runCli(args);
    }
    QJsonObject insights(const QString &p) const
    {
        const Run r = cli({QStringLiteral("insights"), p, QStringLiteral("--json")});
        if (r.exitCode != 0)
            return {};
        return QJsonDocument::fromJson(r.out).object();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QCOMPARE(runCli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), m_dir.path()}).exitCode, 0);
        for (const char *variant : {"no-sync", "no-warmup"}) {
            const Run r = runCli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), m_dir.path(), QStringLiteral("--capture"),
                                  QLatin1String(variant)});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.contains(QByteArray("captured wrong: ") + variant));
        }
        QCOMPARE(runCli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), m_dir.path(), QStringLiteral("--compare-set")}).exitCode, 0);
        QVERIFY(QDir(path("synthetic_rmsnorm_no_sync")).exists());
        QVERIFY(QDir(path("synthetic_rmsnorm_no_warmup")).exists());
        // Three steady steps, each launch with its kernel: captured the right way.
        QFile f(path("ok.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QStringList events;
        for (int i = 1; i <= 3; ++i) {
            const int ts = (i - 1) * 100, ext = i * 10, c = 1000 + i;
            events << QStringLiteral("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%1\",\"pid\":100,\"tid\":100,\"ts\":%2,\"dur\":100,\"args\":{}}")
                          .arg(i)
                          .arg(ts)
                   << QStringLiteral("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":%1,\"dur\":8,"
                                     "\"args\":{\"External id\":%2,\"correlation\":%3}}")
                          .arg(ts + 5)
                          .arg(ext)
                          .arg(c)
                   << QStringLiteral("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":%1,\"dur\":10,"
                                     "\"args\":{\"External id\":%2,\"correlation\":%3,\"device\":0,\"stream\":7}}")
                          .arg(ts + 15)
                          .arg(ext)
                          .arg(c);
        }
        f.write("{\"traceEvents\":[\n" + events.join(QStringLiteral(",\n")).toUtf8() + "\n]}\n");
    }

    void generateSampleUsage()
    {
        const Run bad = runCli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), m_dir.path(), QStringLiteral("--capture"),
                                QStringLiteral("sloppy")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("unknown capture variant \"sloppy\" (no-sync or no-warmup)"));
        const Run help = runCli({QStringLiteral("generate-sample")});
        QVERIFY(help.err.contains("--capture no-sync|no-warmup"));
    }

    void insightsJsonSplitsCapture()
    {
        const QJsonObject o = insights(path("synthetic_rmsnorm_no_sync"));
        QVERIFY(o[QStringLiteral("capture")].isArray());
        const QStringList capture = ruleIds(o[QStringLiteral("capture")].toArray());
        // Only the missing device side: the two NEFFs of the lost executions still have the NTFFs of steps 1 and 2.
        QCOMPARE(capture, QStringList{QStringLiteral("capture-device-missing")});
        for (const QString &r : ruleIds(o[QStringLiteral("findings")].toArray()))
            QVERIFY2(!r.startsWith(QLatin1String("capture-")), qPrintable(r));
        const QJsonObject f = o[QStringLiteral("capture")].toArray().first().toObject();
        for (const char *key : {"rule", "severity", "title", "detail", "action", "value", "threshold", "recoverable_ns", "events", "ranges"})
            QVERIFY2(f.contains(QLatin1String(key)), key);
        QCOMPARE(f[QStringLiteral("value")].toDouble(), 2.0);
        QCOMPARE(f[QStringLiteral("events")].toArray().size(), 2);

        // No warm-up: the loads in ProfilerStep#1, and the step times spread by that step (p90 / median > 1.5).
        QStringList warmup = ruleIds(insights(path("synthetic_rmsnorm_no_warmup"))[QStringLiteral("capture")].toArray());
        QCOMPARE(warmup.first(), QStringLiteral("capture-no-warmup"));
        warmup.sort();
        QCOMPARE(warmup, (QStringList{QStringLiteral("capture-few-steps"), QStringLiteral("capture-no-warmup")}));
        QVERIFY(insights(path("ok.json"))[QStringLiteral("capture")].toArray().isEmpty());
    }

    // The bundled sample is captured the right way (README, "the bundled sample"): no capture finding,
    // for the whole sample and for each --compare-set variant.
    void bundledSamplePassesEveryCheck_data()
    {
        QTest::addColumn<QString>("folder");
        for (const char *f : {"synthetic_rmsnorm_profile", "synthetic_rmsnorm_naive", "synthetic_rmsnorm_rms_norm", "synthetic_rmsnorm_compile"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void bundledSamplePassesEveryCheck()
    {
        QFETCH(QString, folder);
        const QJsonObject o = insights(m_dir.filePath(folder));
        QVERIFY(o[QStringLiteral("capture")].isArray());
        QCOMPARE(ruleIds(o[QStringLiteral("capture")].toArray()), QStringList());
        QVERIFY(!o[QStringLiteral("findings")].toArray().isEmpty()); // the sample's story is still there
        const Run info = cli({QStringLiteral("info"), m_dir.filePath(folder)});
        QCOMPARE(info.exitCode, 0);
        QCOMPARE(verdictLine(info.out), QStringLiteral("ok"));
        const Run json = cli({QStringLiteral("info"), m_dir.filePath(folder), QStringLiteral("--json")});
        QCOMPARE(QJsonDocument::fromJson(json.out).object()[QStringLiteral("capture")].toString(), QStringLiteral("ok"));
    }

    void insightsTextCaptureFirst()
    {
        const Run r = cli({QStringLiteral("insights"), path("synthetic_rmsnorm_no_sync")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("capture: Device work missing at the end: 2 of 18 launch calls have no device side (capture-device-missing)"));
        QVERIFY(r.out.indexOf("Capture checks (1)") < r.out.indexOf("Key metrics"));
        QVERIFY(r.out.contains("-> call torch.neuron.synchronize() inside the profiling loop"));
        const Run ok = cli({QStringLiteral("insights"), path("ok.json")});
        QVERIFY(ok.out.startsWith("capture: ok\n"));
        QVERIFY(!ok.out.contains("Capture checks"));
    }

    void infoVerdict()
    {
        QCOMPARE(verdictLine(cli({QStringLiteral("info"), path("ok.json")}).out), QStringLiteral("ok"));
        QCOMPARE(verdictLine(cli({QStringLiteral("info"), path("synthetic_rmsnorm_no_sync")}).out),
                 QStringLiteral("Device work missing at the end: 2 of 18 launch calls have no device side (capture-device-missing)"));
        QVERIFY(verdictLine(cli({QStringLiteral("info"), path("synthetic_rmsnorm_no_warmup")}).out).endsWith(QLatin1String("(capture-no-warmup); 1 more")));
        // The bundled sample: captured the right way.
        QCOMPARE(verdictLine(cli({QStringLiteral("info"), path("synthetic_rmsnorm_profile")}).out), QStringLiteral("ok"));
        const Run json = cli({QStringLiteral("info"), path("ok.json"), QStringLiteral("--json")});
        QCOMPARE(QJsonDocument::fromJson(json.out).object()[QStringLiteral("capture")].toString(), QStringLiteral("ok"));
        const Run bad = cli({QStringLiteral("info"), path("synthetic_rmsnorm_no_sync"), QStringLiteral("--json")});
        QVERIFY(QJsonDocument::fromJson(bad.out).object()[QStringLiteral("capture")].toString().contains(QLatin1String("capture-device-missing")));
    }
};

QTEST_GUILESS_MAIN(TestCliCapture)
#include "tst_clicapture.moc"
