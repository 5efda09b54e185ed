// `lanescope-cli ops` on Neuron device data: the device FLOPs, MFU and DMA bytes columns (optable.h) in
// --json, CSV and text, on the bundled sample (generate-sample) and a GPU corpus trace (null columns).
#include "clirun.h"
#include "corpus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using lanescope::test::jsonOf;
using lanescope::test::rowNamed;
using lanescope::test::runCli;

const char *const kDeviceKeys[] = {"device_flops_total", "device_flops_self", "mfu_percent", "dma_bytes_total", "dma_bytes_self"};

} // namespace

class TestCliOpsDevice : public QObject
{
    Q_OBJECT

private slots:
    void sampleJsonShape()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto gen = runCli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), dir.path()});
        QVERIFY2(gen.exitCode == 0, gen.err.constData());
        const QString folder = dir.filePath(QStringLiteral("synthetic_rmsnorm_profile"));
        const auto r = runCli({QStringLiteral("ops"), folder, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonOf(r);
        QCOMPARE(o[QStringLiteral("device_flops_known")].toBool(), true);
        QCOMPARE(o[QStringLiteral("dma_bytes_known")].toBool(), true);
        const QJsonArray ops = o[QStringLiteral("ops")].toArray();
        QVERIFY(ops.size() > 5);
        for (const auto &v : ops) // every row has every key: a number, or null where not known
            for (const char *key : kDeviceKeys) {
                const QJsonValue x = v.toObject().value(QLatin1String(key));
                QVERIFY2(x.isDouble() || x.isNull(), key);
            }
        // torch.compile's program: a dot of 512 x 4096 MACs per execution, 3 steps
        const QJsonObject compiled = rowNamed(ops, QStringLiteral("CompiledFunction"));
        QCOMPARE(compiled[QStringLiteral("device_flops_self")].toDouble(), 2.0 * 512 * 4096 * 3);
        QCOMPARE(compiled[QStringLiteral("device_flops_total")].toDouble(), 2.0 * 512 * 4096 * 3);
        const double mfu = compiled[QStringLiteral("mfu_percent")].toDouble();
        const double deviceNs = compiled[QStringLiteral("device_total_ns")].toDouble();
        QVERIFY(mfu > 0 && mfu < 100);
        QVERIFY(qAbs(mfu - 100.0 * 2.0 * 512 * 4096 * 3 / (deviceNs * 1e-9 * 2.0 * 128 * 128 * 2.8e9)) < 1e-6 * mfu + 1e-3);
        QVERIFY(compiled[QStringLiteral("dma_bytes_self")].toDouble() > 0);
        // naive's XLA graphs have no dot: 0 FLOPs, a known 0, and MFU 0
        const QJsonObject pow = rowNamed(ops, QStringLiteral("aten::pow"));
        QVERIFY(pow[QStringLiteral("device_flops_self")].isDouble());
        QCOMPARE(pow[QStringLiteral("device_flops_self")].toDouble(), 0.0);
        QCOMPARE(pow[QStringLiteral("mfu_percent")].toDouble(), 0.0);
        // torch.rms_norm is an NKI kernel: no hlo_stats.json, FLOPs unknown (null), DMA bytes known
        const QJsonObject nki = rowNamed(ops, QStringLiteral("aten::rms_norm"));
        QVERIFY(nki[QStringLiteral("device_flops_self")].isNull());
        QVERIFY(nki[QStringLiteral("mfu_percent")].isNull());
        QVERIFY(nki[QStringLiteral("dma_bytes_self")].toDouble() > 0);

        // --sort by the new columns; nulls after every value
        const auto sorted = runCli({QStringLiteral("ops"), folder, QStringLiteral("--json"), QStringLiteral("--sort"), QStringLiteral("mfu_percent")});
        QCOMPARE(sorted.exitCode, 0);
        const QJsonArray byMfu = jsonOf(sorted)[QStringLiteral("ops")].toArray();
        QVERIFY(byMfu.at(0).toObject()[QStringLiteral("mfu_percent")].toDouble() > 0);
        QVERIFY(byMfu.last().toObject()[QStringLiteral("mfu_percent")].isNull());

        // the text table shows the columns, '-' for null
        const auto text = runCli({QStringLiteral("ops"), folder});
        QCOMPARE(text.exitCode, 0);
        const QString out = QString::fromUtf8(text.out);
        QVERIFY2(out.contains(QStringLiteral("FLOPs total")) && out.contains(QStringLiteral("MFU")) && out.contains(QStringLiteral("DMA total")),
                 text.out.constData());
        const QString nkiLine = out.split(QLatin1Char('\n')).filter(QStringLiteral("aten::rms_norm")).value(0);
        QVERIFY2(nkiLine.contains(QStringLiteral(" - ")), qPrintable(nkiLine));
    }

    void gpuTraceNullColumns()
    {
        const QString rel = QStringLiteral("hta/critical_path__alexnet__benchmark_result_2869224_1695835535_trace.json.gz");
        if (const QString missing = lanescope::test::corpusMissing(rel); !missing.isEmpty())
            LANESCOPE_SKIP_OR_FAIL(missing);
        const auto r = runCli({QStringLiteral("ops"), lanescope::test::corpusFile(rel), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonOf(r);
        QCOMPARE(o[QStringLiteral("device_flops_known")].toBool(), false);
        QCOMPARE(o[QStringLiteral("dma_bytes_known")].toBool(), false);
        const QJsonArray ops = o[QStringLiteral("ops")].toArray();
        int withDevice = 0;
        for (const auto &v : ops) {
            withDevice += v.toObject()[QStringLiteral("device_total_ns")].toDouble() > 0;
            for (const char *key : kDeviceKeys)
                QVERIFY2(v.toObject().value(QLatin1String(key)).isNull(), key);
        }
        QVERIFY(withDevice > 0);
        // and the text table leaves the columns out
        const auto text = runCli({QStringLiteral("ops"), lanescope::test::corpusFile(rel)});
        QVERIFY(!QString::fromUtf8(text.out).contains(QStringLiteral("FLOPs total")));
    }
};

QTEST_GUILESS_MAIN(TestCliOpsDevice)
#include "tst_cliopsdevice.moc"
