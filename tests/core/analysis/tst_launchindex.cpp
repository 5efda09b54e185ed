// LaunchIndex: device work -> runtime call -> framework op. Invariants on real GPU traces of four
// eras/vendors, exact links on the fixture, NEFF executions on the synthetic Neuron profile folder.
#include "corpus.h"
#include "loadtrace.h"

#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;
using Work = LaunchIndex::Work;
using Kind = LaunchIndex::WorkKind;

namespace {

using lanescope::test::load;

} // namespace

class TestLaunchIndex : public QObject
{
    Q_OBJECT
private slots:
    void gpuInvariants_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("minKernels");
        QTest::newRow("kineto 2021 resnet50") << QStringLiteral("kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz") << 8000;
        QTest::newRow("kineto 2021-01 resnet50") << QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz") << 9000;
        QTest::newRow("b200 eager") << QStringLiteral("tracelens/b200_eager_trace.json.gz") << 700;
        QTest::newRow("mi300 resnet") << QStringLiteral("tracelens/mi300_resnet_act_checkpoint.json.gz") << 2900;
        QTest::newRow("mi250 ROCm") << QStringLiteral("hta/amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz") << 14;
    }

    void gpuInvariants()
    {
        QFETCH(QString, file);
        QFETCH(int, minKernels);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const auto trace = load(lanescope::test::corpusFile(file));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const StringId kCorr = trace->strings().find("correlation");
        const StringId kExt = trace->strings().find("External id"), kExtLower = trace->strings().find("external id");
        int compared = 0, mismatched = 0;
        int kernels = 0, attributed = 0, unattributed = 0;
        int64_t total = 0;
        for (const Work &w : index.work()) {
            QVERIFY(w.kind == Kind::Kernel || w.kind == Kind::Memcpy || w.kind == Kind::Memset);
            QCOMPARE(index.role(w.slice), LaunchIndex::Role::DeviceWork);
            QVERIFY(w.end >= w.start);
            total += w.duration();
            kernels += w.kind == Kind::Kernel;
            // a launcher is a runtime call carrying the same correlation id
            int64_t corr = 0, launcherCorr = 0;
            if (w.launcher.isValid()) {
                QCOMPARE(index.role(w.launcher), LaunchIndex::Role::Runtime);
                if (LaunchIndex::intArg(*trace, trace->slice(w.slice).args, kCorr, corr)) {
                    QVERIFY(LaunchIndex::intArg(*trace, trace->slice(w.launcher).args, kCorr, launcherCorr));
                    QCOMPARE(launcherCorr, corr);
                }
            }
            // the op is a framework op and encloses the launching runtime call in time
            if (w.op.isValid()) {
                ++attributed;
                // PyTorch links work to the op whose External id the work carries: same op
                int64_t ext = 0, opExt = 0;
                if ((LaunchIndex::intArg(*trace, trace->slice(w.slice).args, kExt, ext) || LaunchIndex::intArg(*trace, trace->slice(w.slice).args, kExtLower, ext))
                    && (LaunchIndex::intArg(*trace, trace->slice(w.op).args, kExt, opExt) || LaunchIndex::intArg(*trace, trace->slice(w.op).args, kExtLower, opExt))) {
                    ++compared;
                    mismatched += ext != opExt;
                }
                QCOMPARE(index.role(w.op), LaunchIndex::Role::FrameworkOp);
                if (w.launcher.isValid() && index.opParent(w.launcher) == w.op) {
                    const Slice &op = trace->slice(w.op), &rt = trace->slice(w.launcher);
                    QVERIFY(op.start <= rt.start && op.end() >= rt.end());
                    QCOMPARE(trace->trackOfSlice(w.op), trace->trackOfSlice(w.launcher));
                }
            } else {
                // unattributed only when nothing links it: no runtime call with its correlation (the
                // mi300 and 2021-01 traces hold kernels whose launches were not recorded), or a
                // runtime call outside every op
                ++unattributed;
                QVERIFY(!w.launcher.isValid() || !index.opParent(w.launcher).isValid());
            }
        }
        QVERIFY2(kernels >= minKernels, qPrintable(QString::number(kernels)));
        QCOMPARE(attributed + unattributed, int(index.work().size()));
        QVERIFY(attributed > 0);
        qInfo("%d of %zu device work items attributed to an op; External id agrees with PyTorch's link for %d of %d",
              attributed, index.work().size(), compared - mismatched, compared);
        QCOMPARE(mismatched, 0);
        // work in time order
        for (size_t i = 1; i < index.work().size(); ++i)
            QVERIFY(index.work()[i - 1].start <= index.work()[i].start);
        // op table: device self over ops + unattributed == all device work; total >= self
        const OpTable::Result ops = OpTable::compute(*trace, index, OpTable::Options());
        int64_t selfSum = 0;
        for (const auto &r : ops.rows) {
            selfSum += r.deviceSelf;
            QVERIFY(r.deviceTotal >= r.deviceSelf);
            QVERIFY(r.cpuTotal >= r.cpuSelf);
            QVERIFY(r.cpuSelf >= 0);
            QVERIFY(r.cpuMin <= r.cpuMax);
            if (r.runtime)
                QCOMPARE(r.deviceSelf, 0);
        }
        QCOMPARE(selfSum + ops.unattributedDevice, total);
        QCOMPARE(ops.deviceTime, total);
        // gpu_user_annotation and python_function are never ops nor work
        for (uint32_t id : index.opSlices()) {
            const std::string_view cat = trace->str(trace->slice(SliceId(id)).category);
            QVERIFY(cat != "python_function" && cat != "gpu_user_annotation");
        }
    }

    void fixtureLinks()
    {
        const auto trace = load(QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        QCOMPARE(index.work().size(), size_t(5)); // the gpu_user_annotation is not work
        QCOMPARE(index.devices().size(), size_t(1));
        QCOMPARE(index.devices()[0].name, std::string("GPU 0"));
        const auto opName = [&](const Work &w) { return w.op.isValid() ? std::string(trace->str(trace->slice(w.op).name)) : std::string(); };
        const auto launcherName = [&](const Work &w) {
            return w.launcher.isValid() ? std::string(trace->str(trace->slice(w.launcher).name)) : std::string();
        };
        const auto work = index.work();
        QCOMPARE(opName(work[0]), std::string("aten::mm")); // correlation 100, through python_function
        QCOMPARE(launcherName(work[1]), std::string("cudaLaunchKernel")); // no correlation: the ac2g flow
        QCOMPARE(opName(work[1]), std::string("aten::linear"));
        QCOMPARE(work[2].kind, Kind::Memcpy);
        QCOMPARE(launcherName(work[2]), std::string("cudaMemcpyAsync"));
        QCOMPARE(opName(work[3]), std::string("aten::mm"));
        QVERIFY(!work[4].launcher.isValid()); // correlation 999 has no runtime call
        QVERIFY(!work[4].op.isValid());
    }

    // The synthetic TorchNeuron-shaped folder: 18 nrt_execute calls (6 per step), each aligned with one NTFF;
    // the NEFF executions are launched by the ops the sample generator says, the driver's
    // nc_exec_running records are superseded, opcodes and DMA packets inherit the launcher.
    void neuronFolder()
    {
        QTemporaryDir dir;
        const std::string folder = SampleFolderWriter::write(dir.path().toStdString());
        const auto trace = load(QString::fromStdString(folder));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const auto expected = SampleFolderWriter::executions();
        std::vector<const Work *> neffs;
        int instructions = 0, dma = 0;
        for (const Work &w : index.work()) {
            QVERIFY(w.kind != Kind::DriverExecution);
            if (w.kind == Kind::NeffExecution)
                neffs.push_back(&w);
            if (w.kind == Kind::Instruction || w.kind == Kind::Dma) {
                (w.kind == Kind::Dma ? dma : instructions)++;
                QVERIFY(w.execution < index.work().size());
                const Work &e = index.work()[w.execution];
                QCOMPARE(e.kind, Kind::NeffExecution);
                QCOMPARE(w.op, e.op);
                QVERIFY(w.start >= e.start && w.end <= e.end);
            }
        }
        QCOMPARE(neffs.size(), expected.size());
        QVERIFY(instructions > 0 && dma > 0);
        for (size_t i = 0; i < neffs.size(); ++i) {
            const Work &w = *neffs[i];
            QCOMPARE(LaunchIndex::workName(*trace, w), "neff_" + expected[i].hash);
            QVERIFY(w.launcher.isValid());
            QCOMPARE(std::string(trace->str(trace->slice(w.launcher).name)), std::string("nrt_execute"));
            QVERIFY(w.op.isValid());
            QCOMPARE(std::string(trace->str(trace->slice(w.op).name)), expected[i].op);
        }
        QCOMPARE(index.devices().size(), size_t(1));
        QCOMPARE(index.devices()[0].name, std::string("NeuronCore 0"));
        QVERIFY(index.devices()[0].neuron);
    }

    // The framework trace alone: the driver's execution records are the device work.
    void neuronTraceOnly()
    {
        QTemporaryDir dir;
        SampleFolderWriter::write(dir.path().toStdString());
        const auto trace = load(dir.path() + QLatin1Char('/') + QString::fromStdString(SampleFolderWriter::runFolder()) + QStringLiteral("/trace.json"));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        QCOMPARE(index.work().size(), SampleFolderWriter::executions().size());
        for (const Work &w : index.work()) {
            QCOMPARE(w.kind, Kind::DriverExecution);
            QVERIFY(w.op.isValid());
            QCOMPARE(std::string(trace->str(trace->slice(w.launcher).name)), std::string("nrt_execute"));
        }
        QCOMPARE(index.devices()[0].name, std::string("NeuronCore 0"));
    }

    void standaloneNtff()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff"));
        const auto trace = load(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff")));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        int executions = 0;
        for (const Work &w : index.work()) {
            executions += w.kind == Kind::NeffExecution;
            QVERIFY(!w.op.isValid()); // no host trace: nothing launched it that we can see
        }
        QCOMPARE(executions, 1);
        QVERIFY(index.work().size() > 100);
    }

    // Args of the wrong type or out of range (1e300, strings, arrays, null) link nothing and crash
    // nothing; every piece of work is still counted once.
    void hostileArgs()
    {
        const auto trace = load(QStringLiteral(LANESCOPE_TEST_DATA "/optable_hostile.json"));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        QCOMPARE(index.work().size(), size_t(4));
        for (const Work &w : index.work()) {
            QVERIFY(!w.launcher.isValid());
            QVERIFY(!w.op.isValid());
            QVERIFY(w.device < index.devices().size());
        }
        const OpTable::Result ops = OpTable::compute(*trace, index, OpTable::Options());
        QCOMPARE(ops.unattributedCount, uint64_t(4));
        QCOMPARE(ops.deviceTime, ops.unattributedDevice);
    }

    void emptyAndCpuOnly()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("generated-torch-cpu/rmsnorm_naive.trace.json"));
        const auto trace = load(lanescope::test::corpusFile(QStringLiteral("generated-torch-cpu/rmsnorm_naive.trace.json")));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        QVERIFY(index.work().empty());
        QVERIFY(index.devices().empty());
        QCOMPARE(index.opSlices().size(), trace->allSlices().size()); // legacy exporter: no categories, all ops
    }
};

QTEST_GUILESS_MAIN(TestLaunchIndex)
#include "tst_launchindex.moc"
