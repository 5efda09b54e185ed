// DeviceSummary: busy / idle / compute / memcpy per device.
#include "corpus.h"
#include "loadtrace.h"

#include "analysis/devicesummary.h"
#include "analysis/launchindex.h"
#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;

namespace {

using lanescope::test::load;

void checkInvariants(const std::vector<DeviceSummary::Row> &rows)
{
    for (const auto &r : rows) {
        QVERIFY(r.busy <= r.total);
        QVERIFY(r.idle >= 0);
        QCOMPARE(r.idle, r.total - r.busy);
        QVERIFY(r.compute <= r.busy);
        QVERIFY(r.memcpy <= r.busy);
        QVERIFY(r.compute + r.memcpy >= r.busy); // busy is the union of the two
        QVERIFY(r.work > 0);
    }
}

} // namespace

class TestDeviceSummary : public QObject
{
    Q_OBJECT
private slots:
    // GPU 0 of the fixture: work [30,70] [75,85] memcpy [90,110] [215,235] [240,245] us.
    void fixture_data()
    {
        QTest::addColumn<bool>("hasRange");
        QTest::addColumn<qint64>("t0");
        QTest::addColumn<qint64>("t1");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("busy");
        QTest::addColumn<qint64>("compute");
        QTest::addColumn<qint64>("memcpy");
        QTest::newRow("whole trace") << false << qint64(0) << qint64(0) << qint64(215000) << qint64(95000) << qint64(75000) << qint64(20000);
        QTest::newRow("clipped") << true << qint64(50000) << qint64(100000) << qint64(50000) << qint64(40000) << qint64(30000) << qint64(10000);
        QTest::newRow("inside one kernel") << true << qint64(40000) << qint64(50000) << qint64(10000) << qint64(10000) << qint64(10000) << qint64(0);
    }

    void fixture()
    {
        QFETCH(bool, hasRange);
        QFETCH(qint64, t0);
        QFETCH(qint64, t1);
        QFETCH(qint64, total);
        QFETCH(qint64, busy);
        QFETCH(qint64, compute);
        QFETCH(qint64, memcpy);
        const auto trace = load(QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        DeviceSummary::Options o;
        o.hasRange = hasRange;
        o.t0 = t0;
        o.t1 = t1;
        const auto rows = DeviceSummary::compute(*trace, index, o);
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].device, std::string("GPU 0"));
        QCOMPARE(rows[0].total, total);
        QCOMPARE(rows[0].busy, busy);
        QCOMPARE(rows[0].compute, compute);
        QCOMPARE(rows[0].memcpy, memcpy);
        checkInvariants(rows);
    }

    void emptyRange()
    {
        const auto trace = load(QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        DeviceSummary::Options o;
        o.hasRange = true;
        o.t0 = 120000;
        o.t1 = 200000;
        QVERIFY(DeviceSummary::compute(*trace, index, o).empty());
    }

    void corpus_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("device");
        QTest::newRow("kineto resnet50") << QStringLiteral("kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz") << QStringLiteral("GPU 0");
        QTest::newRow("mi300") << QStringLiteral("tracelens/mi300_resnet_act_checkpoint.json.gz") << QString();
        QTest::newRow("xdit rank0") << QStringLiteral("tracelens/xdit_sd35_rank0.json.gz") << QStringLiteral("GPU 2");
        QTest::newRow("ntff") << QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff") << QStringLiteral("NeuronCore 0");
    }

    void corpus()
    {
        QFETCH(QString, file);
        QFETCH(QString, device);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const auto trace = load(lanescope::test::corpusFile(file));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const auto rows = DeviceSummary::compute(*trace, index, DeviceSummary::Options());
        QVERIFY(!rows.empty());
        if (!device.isEmpty())
            QCOMPARE(QString::fromStdString(rows[0].device), device);
        checkInvariants(rows);
        // GPU busy time equals the sum of kernel/memcpy time when nothing overlaps on the device
        // (one stream): never more than the sum
        int64_t sum = 0;
        for (const auto &w : index.work())
            if (w.kind != LaunchIndex::WorkKind::NeffExecution)
                sum += w.duration();
        int64_t busy = 0;
        for (const auto &r : rows)
            busy += r.busy;
        QVERIFY(busy <= sum);
    }

    void neuronFolder()
    {
        QTemporaryDir dir;
        const auto trace = load(QString::fromStdString(SampleFolderWriter::write(dir.path().toStdString())));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const auto rows = DeviceSummary::compute(*trace, index, DeviceSummary::Options());
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].device, std::string("NeuronCore 0"));
        QVERIFY(rows[0].compute > 0 && rows[0].memcpy > 0);
        checkInvariants(rows);
    }
};

QTEST_GUILESS_MAIN(TestDeviceSummary)
#include "tst_devicesummary.moc"
