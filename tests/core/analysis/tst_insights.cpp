// Insights: each host / step rule on a small Kineto trace written here the way PyTorch's profiler
// writes it and read by the real importer (fires with the expected numbers / must not fire), and the
// bundled RMSNorm sample (fusion candidate in the naive variant only).
#include "findings.h"
#include "kinetoevents.h"
#include "loadtrace.h"

#include "analysis/devicesummary.h"
#include "analysis/insights/findingsdiff.h"
#include "analysis/insights/insights.h"
#include "analysis/insights/insighttext.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "io/synthetic/samplefolderwriter.h"
#include "model/trace.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <tuple>

using namespace lanescope;

namespace {

using lanescope::test::KinetoEvents;

const auto find = lanescope::test::findRule;

// pow, mean, mul, each one kernel, idle 10 us and 20 us between them on the device.
void addNormOps(KinetoEvents &k)
{
    k.op("cpu_op", "aten::pow", 5, 10, 2);
    k.launch("cudaLaunchKernel", 7, 5, 2, "kernel", "pow_kernel", 20, 10);
    k.op("cpu_op", "aten::mean", 30, 10, 3);
    k.launch("cudaLaunchKernel", 32, 5, 3, "kernel", "mean_kernel", 40, 10);
    k.op("cpu_op", "aten::mul", 60, 10, 4);
    k.launch("cudaLaunchKernel", 62, 5, 4, "kernel", "mul_kernel", 70, 10);
}

// my_norm: the three ops inside one.
KinetoEvents fusionTrace()
{
    KinetoEvents k;
    k.op("cpu_op", "my_norm", 0, 100, 1);
    addNormOps(k);
    return k;
}

void checkWellFormed(const Trace &trace, const std::vector<Finding> &findings)
{
    for (const Finding &f : findings) {
        QVERIFY2(!f.rule.empty() && !f.title.empty() && !f.detail.empty() && !f.action.empty(), f.rule.c_str());
        QVERIFY(f.events.size() <= Finding::kMaxEvents);
        QVERIFY(f.ranges.size() <= Finding::kMaxEvents);
        for (uint32_t e : f.events)
            QVERIFY(e < trace.allSlices().size());
        for (const auto &[s, e] : f.ranges)
            QVERIFY(s <= e);
        QVERIFY(std::isfinite(f.value) && std::isfinite(f.threshold));
        if (f.recoverableNs)
            QVERIFY(*f.recoverableNs >= 0);
    }
}

// Insights over the whole trace, each finding checked for its shape.
Insights::Result analyse(const Trace &trace, const LaunchIndex &index)
{
    Insights::Result r = Insights::run(trace, index, {});
    checkWellFormed(trace, r.findings);
    return r;
}

// The findings of the builder's trace, each checked for its shape (a trace that does not load fails).
void analyseBuilt(const KinetoEvents &k, const char *file, std::vector<Finding> &out)
{
    QTemporaryDir dir;
    const auto trace = k.load(dir, file);
    QVERIFY(trace);
    out = Insights::run(*trace, {}).findings;
    checkWellFormed(*trace, out);
}

} // namespace

class TestInsights : public QObject
{
    Q_OBJECT
private slots:
    void fusionCandidateFires()
    {
        QTemporaryDir dir;
        const auto trace = fusionTrace().load(dir, "fusion.json");
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const auto r = analyse(*trace, index);
        const Finding *f = find(r.findings, "fusion-candidate");
        QVERIFY(f);
        QCOMPARE(f->value, 3.0);
        QCOMPARE(f->threshold, 3.0);
        QCOMPARE(*f->recoverableNs, qint64(30000)); // 10 us + 20 us idle on GPU 0
        QVERIFY2(f->title.find("my_norm") != std::string::npos, f->title.c_str());
        QVERIFY2(f->detail.find("aten::pow, aten::mean, aten::mul") != std::string::npos, f->detail.c_str());
        OpTable::Options o;
        const auto ops = OpTable::compute(*trace, index, o);
        for (const auto &row : ops.rows)
            if (row.name == "my_norm") {
                QCOMPARE(row.deviceTotal, qint64(30000));
                QVERIFY(f->detail.find("device total " + insighttext::ns(row.deviceTotal)) != std::string::npos);
            }
        QCOMPARE(f->ranges.size(), size_t(2));
        QCOMPARE(f->ranges[0], std::make_pair(int64_t(50000), int64_t(70000))); // largest gap first
        // The op itself first, then its three kernels.
        QCOMPARE(std::string(trace->str(trace->slice(SliceId(f->events[0])).name)), std::string("my_norm"));
        QCOMPARE(f->events.size(), size_t(4));
        QCOMPARE(std::count_if(r.findings.begin(), r.findings.end(), [](const Finding &x) { return x.rule == "fusion-candidate"; }), 1);
    }

    // A run of adjacent sibling ops, each launching one kernel: at the top level, or under a step
    // where another op ends the run (it launches three kernels back to back itself).
    void fusionRun_data()
    {
        QTest::addColumn<bool>("inStep");
        QTest::newRow("top level") << false;
        QTest::newRow("in a step") << true;
    }

    void fusionRun()
    {
        QFETCH(bool, inStep);
        KinetoEvents k;
        if (inStep) {
            k.op("user_annotation", "ProfilerStep#1", 0, 200, 9);
            k.op("cpu_op", "aten::linear", 120, 20, 8);
            k.launch("cudaLaunchKernel", 121, 2, 8, "kernel", "gemm_a", 120, 10);
            k.launch("cudaLaunchKernel", 124, 2, 8, "kernel", "gemm_b", 130, 10);
            k.launch("cudaLaunchKernel", 127, 2, 8, "kernel", "gemm_c", 140, 10);
        }
        addNormOps(k);
        k.op("cpu_op", "aten::view", 20, 5, 5); // host only, between pow and mean: does not break the run
        QTemporaryDir dir;
        const auto trace = k.load(dir, "run.json");
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const auto r = analyse(*trace, index);
        const Finding *f = find(r.findings, "fusion-candidate");
        QVERIFY(f);
        const std::string parent = inStep ? "ProfilerStep*" : "top level";
        QCOMPARE(f->title, "Fusion candidate: 3 adjacent ops under " + parent + " (aten::pow, aten::mean, aten::mul) make 3 separate device executions");
        QCOMPARE(f->value, 3.0);
        QCOMPARE(*f->recoverableNs, qint64(30000)); // 10 us + 20 us idle on GPU 0
        // The device table over the three kernels' span says the same.
        DeviceSummary::Options o;
        o.hasRange = true;
        o.t0 = 20000; // KinetoEvents us -> ns on the trace clock
        o.t1 = 80000;
        const auto rows = DeviceSummary::compute(*trace, index, o);
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(*f->recoverableNs, rows[0].idle);
        QVERIFY2(f->detail.find("device time 30.000 us (kernel table, these executions); device idle between them 30.000 us in 2 gap(s)") !=
                     std::string::npos,
                 f->detail.c_str());
        QCOMPARE(f->ranges.size(), size_t(2));
        QCOMPARE(f->ranges[0], std::make_pair(int64_t(50000), int64_t(70000)));
        // The three ops, then their kernels.
        QCOMPARE(f->events.size(), size_t(6));
        QCOMPARE(std::string(trace->str(trace->slice(SliceId(f->events[0])).name)), std::string("aten::pow"));
        QCOMPARE(std::string(trace->str(trace->slice(SliceId(f->events[3])).name)), std::string("pow_kernel"));
    }

    void fusionRunQuiet_data()
    {
        QTest::addColumn<int>("shape");
        QTest::newRow("the whole step") << 0;
        QTest::newRow("back to back") << 1;
        QTest::newRow("two ops") << 2;
    }

    void fusionRunQuiet()
    {
        QFETCH(int, shape);
        KinetoEvents k;
        if (shape == 0)
            k.op("user_annotation", "ProfilerStep#1", 0, 100, 9); // a step's every op: device-idle's finding
        const double gap = shape == 1 ? 0 : 10;
        k.op("cpu_op", "aten::pow", 5, 10, 2);
        k.launch("cudaLaunchKernel", 7, 5, 2, "kernel", "pow_kernel", 20, 10);
        k.op("cpu_op", "aten::mean", 30, 10, 3);
        k.launch("cudaLaunchKernel", 32, 5, 3, "kernel", "mean_kernel", 30 + gap, 10);
        if (shape != 2) {
            k.op("cpu_op", "aten::mul", 60, 10, 4);
            k.launch("cudaLaunchKernel", 62, 5, 4, "kernel", "mul_kernel", 40 + 2 * gap, 10);
        }
        std::vector<Finding> found;
        analyseBuilt(k, "norun.json", found);
        QVERIFY(!QTest::currentTestFailed() && !find(found, "fusion-candidate"));
    }

    void fusionCandidateQuiet()
    {
        // One launch per op, or three kernels back to back: nothing to fuse.
        KinetoEvents k;
        k.op("cpu_op", "fused_norm", 0, 30, 1);
        k.launch("cudaLaunchKernel", 2, 5, 1, "kernel", "fused_kernel", 10, 30);
        k.op("cpu_op", "three_back_to_back", 50, 20, 2);
        k.launch("cudaLaunchKernel", 51, 2, 2, "kernel", "a", 60, 10);
        k.launch("cudaLaunchKernel", 54, 2, 2, "kernel", "b", 70, 10);
        k.launch("cudaLaunchKernel", 57, 2, 2, "kernel", "c", 80, 10);
        std::vector<Finding> found;
        analyseBuilt(k, "nofusion.json", found);
        QVERIFY(!QTest::currentTestFailed() && !find(found, "fusion-candidate"));
    }

    void deviceIdle()
    {
        QTemporaryDir dir;
        const auto trace = fusionTrace().load(dir, "idle.json");
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const auto rows = DeviceSummary::compute(*trace, index, {});
        QCOMPARE(rows.size(), size_t(1));
        const auto r = Insights::run(*trace, index, {});
        const Finding *f = find(r.findings, "device-idle");
        QVERIFY(f);
        QCOMPARE(f->value, 100.0 * double(rows[0].idle) / double(rows[0].total)); // 30 of 60 us
        QCOMPARE(f->value, 50.0);
        QCOMPARE(*f->recoverableNs, rows[0].idle);
        // The largest gap first, with the innermost host slice in its middle (an op, or a runtime call inside one).
        QVERIFY2(f->detail.find("Largest gaps: 20.000 us (host in aten::mul), 10.000 us (host in cudaLaunchKernel)") != std::string::npos,
                 f->detail.c_str());
        QCOMPARE(f->ranges.size(), size_t(2));
        QCOMPARE(f->ranges[0], std::make_pair(int64_t(50000), int64_t(70000)));
        QCOMPARE(r.metrics.deviceIdleNs, rows[0].idle);
        QCOMPARE(r.metrics.deviceBusyNs, rows[0].busy);
    }

    void deviceIdleQuiet()
    {
        KinetoEvents k;
        k.op("cpu_op", "big", 0, 20, 1);
        k.launch("cudaLaunchKernel", 1, 2, 1, "kernel", "a", 10, 100);
        k.launch("cudaLaunchKernel", 4, 2, 1, "kernel", "b", 110, 100);
        QTemporaryDir dir;
        const auto trace = k.load(dir, "busy.json");
        QVERIFY(trace);
        const auto r = Insights::run(*trace, {});
        QVERIFY(!find(r.findings, "device-idle"));
    }

    void syncStall_data()
    {
        QTest::addColumn<double>("syncUs");
        QTest::addColumn<bool>("fires");
        QTest::newRow("long wait") << 400.0 << true;
        QTest::newRow("short wait") << 2.0 << false;
    }

    void syncStall()
    {
        QFETCH(double, syncUs);
        QFETCH(bool, fires);
        KinetoEvents k;
        k.op("cpu_op", "aten::mm", 0, 10, 1);
        k.launch("cudaLaunchKernel", 2, 5, 1, "kernel", "gemm", 10, 390);
        k.runtime("cudaDeviceSynchronize", 10, syncUs);
        k.op("cpu_op", "aten::add", 500, 10, 2);
        QTemporaryDir dir;
        const auto trace = k.load(dir, "sync.json");
        QVERIFY(trace);
        const auto r = Insights::run(*trace, {});
        checkWellFormed(*trace, r.findings);
        const Finding *f = find(r.findings, "sync-stall");
        QCOMPARE(f != nullptr, fires);
        if (!f)
            return;
        const int64_t span = trace->endNs() - trace->startNs();
        QCOMPARE(*f->recoverableNs, qint64(400000));
        QCOMPARE(f->value, 100.0 * 400000.0 / double(span));
        QVERIFY2(f->detail.find("waiting for gemm") != std::string::npos, f->detail.c_str());
    }

    void steps_data()
    {
        QTest::addColumn<QList<double>>("durations");
        QTest::addColumn<bool>("warmup");
        QTest::addColumn<bool>("outlier");
        QTest::addColumn<double>("value");
        QTest::newRow("warm-up") << QList<double>{400, 100, 110, 100} << true << false << 4.0;
        QTest::newRow("outlier") << QList<double>{100, 100, 300, 100, 100} << false << true << 3.0;
        QTest::newRow("even") << QList<double>{100, 105, 100, 95} << false << false << 0.0;
        QTest::newRow("two steps") << QList<double>{900, 100} << false << false << 0.0;
    }

    void steps()
    {
        QFETCH(QList<double>, durations);
        QFETCH(bool, warmup);
        QFETCH(bool, outlier);
        QFETCH(double, value);
        KinetoEvents k;
        double t = 0;
        int n = 0;
        for (double d : durations) {
            const QByteArray name = "ProfilerStep#" + QByteArray::number(++n);
            k.op("user_annotation", name.constData(), t, d, n);
            t += d + 1;
        }
        QTemporaryDir dir;
        const auto trace = k.load(dir, "steps.json");
        QVERIFY(trace);
        const auto r = Insights::run(*trace, {});
        checkWellFormed(*trace, r.findings);
        QCOMPARE(r.metrics.steps, quint64(durations.size()));
        const Finding *w = find(r.findings, "step-warmup");
        const Finding *o = find(r.findings, "step-outlier");
        QCOMPARE(w != nullptr, warmup);
        QCOMPARE(o != nullptr, outlier);
        if (w)
            QCOMPARE(w->value, value);
        if (o) {
            QCOMPARE(o->value, value);
            QCOMPARE(*o->recoverableNs, qint64(200000));
            QVERIFY2(o->detail.find("ProfilerStep#3") != std::string::npos, o->detail.c_str());
        }
    }

    void hostDeviceCopy_data()
    {
        QTest::addColumn<double>("copyUs");
        QTest::addColumn<bool>("fires");
        QTest::newRow("large copy") << 200.0 << true;
        QTest::newRow("small copy") << 5.0 << false;
    }

    void hostDeviceCopy()
    {
        QFETCH(double, copyUs);
        QFETCH(bool, fires);
        KinetoEvents k;
        k.op("cpu_op", "aten::to", 0, 10, 1);
        k.launch("cudaMemcpyAsync", 2, 5, 1, "gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 10, copyUs, 1 << 20);
        k.op("cpu_op", "aten::mm", 300, 10, 2);
        k.launch("cudaLaunchKernel", 302, 5, 2, "kernel", "gemm", 310, 200);
        QTemporaryDir dir;
        const auto trace = k.load(dir, "copy.json");
        QVERIFY(trace);
        const auto r = Insights::run(*trace, {});
        const Finding *f = find(r.findings, "host-device-copy");
        QCOMPARE(f != nullptr, fires);
        if (!f)
            return;
        QCOMPARE(*f->recoverableNs, qint64(copyUs * 1000));
        QVERIFY2(f->detail.find("1.0 MiB") != std::string::npos, f->detail.c_str());
    }

    void launchBound_data()
    {
        QTest::addColumn<double>("kernelUs");
        QTest::addColumn<bool>("fires");
        QTest::newRow("tiny kernels") << 2.0 << true;
        QTest::newRow("long kernels") << 200.0 << false;
    }

    void launchBound()
    {
        QFETCH(double, kernelUs);
        QFETCH(bool, fires);
        KinetoEvents k;
        for (int i = 0; i < 4; ++i) {
            const double t = i * 300;
            k.op("cpu_op", "aten::add", t, 60, i + 1);
            k.launch("cudaLaunchKernel", t + 5, 50, i + 1, "kernel", "add_kernel", t + 60, kernelUs);
        }
        QTemporaryDir dir;
        const auto trace = k.load(dir, "launch.json");
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const auto r = Insights::run(*trace, index, {});
        const Finding *f = find(r.findings, "launch-bound");
        QCOMPARE(f != nullptr, fires);
        if (!f)
            return;
        QCOMPARE(f->value, 200.0 / (4 * kernelUs)); // 4 x 50 us of launch vs the op table's device self
        QCOMPARE(*f->recoverableNs, qint64(200000 - 4 * kernelUs * 1000));
    }

    void launchLatency_data()
    {
        QTest::addColumn<double>("delayUs");
        QTest::addColumn<bool>("fires");
        QTest::newRow("queued") << 150.0 << true;
        QTest::newRow("prompt") << 3.0 << false;
    }

    void launchLatency()
    {
        QFETCH(double, delayUs);
        QFETCH(bool, fires);
        KinetoEvents k;
        for (int i = 0; i < 12; ++i) {
            const double t = i * 400;
            k.op("cpu_op", "aten::mm", t, 10, i + 1);
            k.launch("cudaLaunchKernel", t + 2, 5, i + 1, "kernel", "gemm", t + 7 + delayUs, 100);
        }
        QTemporaryDir dir;
        const auto trace = k.load(dir, "latency.json");
        QVERIFY(trace);
        const auto r = Insights::run(*trace, {});
        const Finding *f = find(r.findings, "launch-latency");
        QCOMPARE(f != nullptr, fires);
        if (f) {
            QCOMPARE(f->value, 100.0);
            QCOMPARE(f->events.size(), size_t(12));
        }
    }

    void rangeAndSeverityFilter()
    {
        QTemporaryDir dir;
        const auto trace = fusionTrace().load(dir, "range.json");
        QVERIFY(trace);
        Insights::Options o;
        o.hasRange = true; // after the op started: its occurrence is out of range
        o.t0 = trace->startNs() + 1000;
        o.t1 = trace->endNs();
        QVERIFY(!find(Insights::run(*trace, o).findings, "fusion-candidate"));
        Insights::Options high;
        high.minSeverity = Severity::High;
        for (const Finding &f : Insights::run(*trace, high).findings)
            QCOMPARE(f.severity, Severity::High);
    }

    void noDeviceWorkNoOps()
    {
        KinetoEvents k;
        k.runtime("cudaGetDevice", 0, 1);
        QTemporaryDir dir;
        const auto trace = k.load(dir, "empty.json");
        QVERIFY(trace);
        const auto r = Insights::run(*trace, {});
        QVERIFY(r.findings.empty());
        QVERIFY(r.metrics.devices.empty());
        QCOMPARE(r.metrics.steps, quint64(0));
    }

    // The bundled sample: the naive variant names "rmsnorm naive" and its four executions; the fused
    // variants have no fusion candidate; naive -> compile resolves it.
    void sampleFolders()
    {
        QTemporaryDir dir;
        const auto folders = SampleFolderWriter::writeComparison(dir.path().toStdString(), {});
        QCOMPARE(folders.size(), size_t(3));
        std::vector<std::vector<Finding>> found;
        for (const std::string &folder : folders) {
            const auto trace = lanescope::test::load(QString::fromStdString(folder));
            QVERIFY(trace);
            const LaunchIndex index = LaunchIndex::build(*trace);
            const auto r = Insights::run(*trace, index, {});
            checkWellFormed(*trace, r.findings);
            found.push_back(r.findings);
            const Finding *f = find(r.findings, "fusion-candidate");
            if (folder.find("naive") == std::string::npos) {
                QVERIFY2(!f, folder.c_str());
                continue;
            }
            QVERIFY(f);
            QVERIFY2(f->title.find("rmsnorm naive") != std::string::npos, f->title.c_str());
            QCOMPARE(f->value, 4.0);
            QVERIFY2(f->detail.find("aten::pow, aten::mean, aten::rsqrt, aten::mul") != std::string::npos, f->detail.c_str());
            // The idle between them equals the device table over each occurrence's four executions' span
            // (one occurrence per ProfilerStep, 3 steps), summed.
            QVERIFY2(f->detail.find("rmsnorm naive: 3 occurrence(s), 12 device executions") != std::string::npos, f->detail.c_str());
            std::vector<std::pair<int64_t, int64_t>> steps;
            for (const Slice &s : trace->allSlices())
                if (trace->str(s.name).starts_with("ProfilerStep#"))
                    steps.emplace_back(s.start, s.end());
            QCOMPARE(steps.size(), size_t(3));
            int64_t idle = 0;
            for (const auto &[s0, s1] : steps) {
                int64_t first = INT64_MAX, last = INT64_MIN;
                int executions = 0;
                for (const auto &w : index.work())
                    if (w.kind == LaunchIndex::WorkKind::NeffExecution && w.start >= s0 && w.start < s1) {
                        first = std::min(first, w.start);
                        last = std::max(last, w.end);
                        ++executions;
                    }
                QCOMPARE(executions, 4);
                DeviceSummary::Options between; // the device table over this occurrence's span
                std::tie(between.hasRange, between.t0, between.t1) = std::make_tuple(true, first, last);
                const auto rows = DeviceSummary::compute(*trace, index, between);
                QVERIFY(rows.size() == 1 && rows[0].idle > 0);
                idle += rows[0].idle;
            }
            QCOMPARE(*f->recoverableNs, idle);
            QVERIFY(f->detail.find("device idle between them " + insighttext::ns(idle)) != std::string::npos);
            QVERIFY(f->ranges.size() >= 3); // between the executions, and any idle inside them
        }
        const FindingsDiffResult d = FindingsDiff::compare(found[0], found[2]); // naive -> compile
        QVERIFY(find(d.resolved, "fusion-candidate"));
        QVERIFY(!find(d.added, "fusion-candidate"));
    }
};

QTEST_GUILESS_MAIN(TestInsights)
#include "tst_insights.moc"
