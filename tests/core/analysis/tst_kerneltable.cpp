// KernelTable: device work by kind and name, with its launching op.
#include "corpus.h"
#include "loadtrace.h"

#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;

namespace {

using lanescope::test::load;

const KernelTable::Row *findRow(const KernelTable::Result &r, const std::string &name)
{
    for (const auto &row : r.rows)
        if (row.name == name)
            return &row;
    return nullptr;
}

} // namespace

class TestKernelTable : public QObject
{
    Q_OBJECT
private slots:
    void fixture()
    {
        const auto trace = load(QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const KernelTable::Result r = KernelTable::compute(*trace, index, KernelTable::Options());
        QCOMPARE(r.rows.size(), size_t(3));
        QCOMPARE(r.executionTime, 95000);
        QCOMPARE(r.instructionTime, 0);
        const KernelTable::Row *gemm = findRow(r, "gemm");
        QVERIFY(gemm);
        QCOMPARE(gemm->count, uint64_t(3));
        QCOMPARE(gemm->total, 70000);
        QCOMPARE(gemm->min, 10000);
        QCOMPARE(gemm->max, 40000);
        QCOMPARE(gemm->mean(), 70000.0 / 3);
        QCOMPARE(gemm->percent, 100.0 * 70000 / 95000);
        QCOMPARE(gemm->launchedBy, std::string("aten::mm")); // 2 of its 3 launches
        QCOMPARE(gemm->launchers, uint32_t(2));
        QCOMPARE(gemm->occurrences.size(), size_t(3));
        const KernelTable::Row *copy = findRow(r, "Memcpy HtoD (Pinned -> Device)");
        QVERIFY(copy);
        QCOMPARE(copy->kind, LaunchIndex::WorkKind::Memcpy);
        QCOMPARE(copy->launchedBy, std::string("aten::linear"));
        const KernelTable::Row *orphan = findRow(r, "orphan");
        QVERIFY(orphan);
        QCOMPARE(orphan->launchedBy, std::string());
        QCOMPARE(orphan->unattributed, uint64_t(1));
        QCOMPARE(r.rows.front().name, std::string("gemm")); // by total, longest first
    }

    void range_data()
    {
        QTest::addColumn<qint64>("t0");
        QTest::addColumn<qint64>("t1");
        QTest::addColumn<qint64>("gemmCount");
        QTest::addColumn<int>("rows");
        QTest::newRow("first step") << qint64(0) << qint64(150000) << qint64(2) << 2;
        QTest::newRow("second step") << qint64(150000) << qint64(300000) << qint64(1) << 2;
        QTest::newRow("nothing") << qint64(500000) << qint64(600000) << qint64(0) << 0;
    }

    void range()
    {
        QFETCH(qint64, t0);
        QFETCH(qint64, t1);
        QFETCH(qint64, gemmCount);
        QFETCH(int, rows);
        const auto trace = load(QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        KernelTable::Options o;
        o.hasRange = true;
        o.t0 = t0;
        o.t1 = t1;
        const KernelTable::Result r = KernelTable::compute(*trace, index, o);
        QCOMPARE(int(r.rows.size()), rows);
        const KernelTable::Row *gemm = findRow(r, "gemm");
        QCOMPARE(gemm ? qint64(gemm->count) : 0, gemmCount);
        double percent = 0;
        for (const auto &row : r.rows)
            percent += row.percent;
        QVERIFY(rows == 0 || qAbs(percent - 100.0) < 1e-9);
    }

    void corpusSums_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("kineto resnet50") << QStringLiteral("kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz");
        QTest::newRow("b200") << QStringLiteral("tracelens/b200_eager_trace.json.gz");
        QTest::newRow("mi300") << QStringLiteral("tracelens/mi300_resnet_act_checkpoint.json.gz");
        QTest::newRow("neuron-profile json") << QStringLiteral("neuron-profile-json/profile_128x128x256.json");
    }

    // Counts and totals add up to the index; each level's percentages to 100.
    void corpusSums()
    {
        QFETCH(QString, file);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const auto trace = load(lanescope::test::corpusFile(file));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const KernelTable::Result r = KernelTable::compute(*trace, index, KernelTable::Options());
        uint64_t count = 0;
        int64_t total = 0;
        double execPercent = 0, instrPercent = 0;
        for (const auto &row : r.rows) {
            count += row.count;
            total += row.total;
            QVERIFY(row.min <= row.mean() && row.mean() <= row.max);
            QCOMPARE(row.occurrences.size(), size_t(row.count));
            QVERIFY(row.unattributed <= row.count);
            QCOMPARE(row.launchedBy.empty(), row.unattributed == row.count);
            (LaunchIndex::isExecutionLevel(row.kind) ? execPercent : instrPercent) += row.percent;
        }
        QCOMPARE(count, uint64_t(index.work().size()));
        QCOMPARE(total, r.executionTime + r.instructionTime);
        QVERIFY(qAbs(execPercent - 100.0) < 1e-6);
        QVERIFY(r.instructionTime == 0 || qAbs(instrPercent - 100.0) < 1e-6);
        for (size_t i = 1; i < r.rows.size(); ++i)
            QVERIFY(r.rows[i - 1].total >= r.rows[i].total);
    }

    void neffExecutions()
    {
        QTemporaryDir dir;
        const auto trace = load(QString::fromStdString(SampleFolderWriter::write(dir.path().toStdString())));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const KernelTable::Result r = KernelTable::compute(*trace, index, KernelTable::Options());
        int neffs = 0, opcodes = 0;
        for (const auto &e : SampleFolderWriter::executions()) {
            if (e.step != 1)
                continue; // one row per NEFF, whatever the step
            const KernelTable::Row *row = findRow(r, "neff_" + e.hash);
            QVERIFY2(row, e.hash.c_str());
            QCOMPARE(row->kind, LaunchIndex::WorkKind::NeffExecution);
            QCOMPARE(row->launchedBy, e.op);
            QCOMPARE(row->count, uint64_t(SampleFolderWriter::kActiveSteps)); // run once per step: 3
            ++neffs;
        }
        for (const auto &row : r.rows)
            opcodes += row.kind == LaunchIndex::WorkKind::Instruction;
        QCOMPARE(neffs, 6);
        QVERIFY(opcodes >= 3);
        QVERIFY(findRow(r, "DMA packet"));
    }

    // rocprof v1 writes no "cat": its process names say what a lane holds ("GPU0": kernels, "COPY":
    // copies, "CPU HIP API": runtime calls), its numbers as strings. The file follows sqlitedb.py's
    // output (open_json, label_json, dump_json) for a vector add: 1 kernel, 4 host-to-device and 2
    // device-to-host copies, as rocprof's own stats (results.stats.csv, results.copy_stats.csv) count them.
    void rocprofV1()
    {
        std::string text = "{ \"traceEvents\":[{}\n"
                           ",{\"args\":{\"name\":\"CPU HIP API\"},\"ph\":\"M\",\"pid\":2,\"name\":\"process_name\",\"sort_index\":0}\n"
                           ",{\"args\":{\"name\":\"COPY\"},\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"sort_index\":1}\n"
                           ",{\"args\":{\"name\":\"GPU0\"},\"ph\":\"M\",\"pid\":6,\"name\":\"process_name\",\"sort_index\":2}\n";
        const auto x = [&text](const char *name, int pid, int ts, int dur) {
            text += ",{\"ph\":\"X\",\"name\":\"" + std::string(name) + "\",\"pid\":\"" + std::to_string(pid) + "\",\"tid\":\"0\",\"ts\":\"" +
                    std::to_string(ts) + "\",\"dur\":\"" + std::to_string(dur) + "\",\n  \"args\":{\n    \"Index\":\"0\"\n  }\n}\n";
        };
        for (int i = 0; i < 4; ++i)
            x("CopyHostToDevice", 1, 10 + 10 * i, 5);
        x("hipLaunchKernel", 2, 55, 3);
        x("vectoradd_float(float*, float const*, float const*, int, int) [clone .kd]", 6, 60, 20);
        for (int i = 0; i < 2; ++i)
            x("CopyDeviceToHost", 1, 90 + 10 * i, 5);
        text += "],\n\"otherData\": {\n    \"AMDGPU\": \"gfx90a\"\n  }\n}\n";
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("results.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.data(), qint64(text.size()));
        f.close();
        const auto trace = load(path);
        QVERIFY(trace);
        QCOMPARE(trace->diagnostics().total(DiagnosticSeverity::Warning), uint64_t(0));
        const LaunchIndex index = LaunchIndex::build(*trace);
        const KernelTable::Result r = KernelTable::compute(*trace, index, KernelTable::Options());
        QCOMPARE(r.rows.size(), size_t(3));
        const KernelTable::Row *kernel = findRow(r, "vectoradd_float(float*, float const*, float const*, int, int) [clone .kd]");
        QVERIFY(kernel);
        QCOMPARE(kernel->kind, LaunchIndex::WorkKind::Kernel);
        QCOMPARE(kernel->count, uint64_t(1));
        QCOMPARE(kernel->total, 20000);
        const KernelTable::Row *h2d = findRow(r, "CopyHostToDevice");
        const KernelTable::Row *d2h = findRow(r, "CopyDeviceToHost");
        QVERIFY(h2d && d2h);
        QCOMPARE(h2d->kind, LaunchIndex::WorkKind::Memcpy);
        QCOMPARE(h2d->count + d2h->count, uint64_t(6));
        QCOMPARE(r.executionTime, 20000 + 6 * 5000);
    }

    void columnNames()
    {
        for (int i = 0; i < int(KernelTable::Column::ColumnCount); ++i)
            QCOMPARE(int(*KernelTable::columnFromName(KernelTable::columnName(KernelTable::Column(i)))), i);
        QVERIFY(!KernelTable::columnFromName("nope"));
    }
};

QTEST_GUILESS_MAIN(TestKernelTable)
#include "tst_kerneltable.moc"
