// Insights: each host / step rule on a small Kineto trace written here the way PyTorch's profiler
// writes it and read by the real importer (fires with the expected numbers / must not fire), and the
// bundled RMSNorm sample (fusion candidate in the naive variant only).
#include "findings.h"
#include "kinetoevents.h"
#include "loadtrace.h"
#include "rankset.h"

#include "analysis/devicesummary.h"
#include "analysis/insights/findingsdiff.h"
#include "analysis/insights/insights.h"
#include "analysis/insights/insighttext.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "io/synthetic/samplefolderwriter.h"
#include "model/trace.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <tuple>

using namespace lanescope;

namespace {

using lanescope::test::KinetoEvents;
using lanescope::test::near;

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

// The host-side rules (docs/insights.md): they fire only where the device starved.
const char *const kHostSideRules[] = {"fusion-candidate", "sync-stall", "launch-bound", "launch-latency", "host-device-copy"};

// Ten pieces of work on GPU 0 starting every 1000 us from 100 us: gemm kernels of `gemmUs`, two
// 995 us HtoD copies (5 and 6), and after kernels 0..3 a 1 us fill_kernel at 997 us past their start,
// each launched by an aten::fill_ whose cudaLaunchKernel takes 50 us (launch-bound). The host launches
// kernels 0..4 at once, synchronises from 600 us until kernel 4 ends (+1 us), then launches 5..9.
KinetoEvents saturationTrace(double gemmUs)
{
    KinetoEvents k;
    const auto launchWork = [&](int i, double t) {
        if (i == 5 || i == 6) {
            k.op("cpu_op", "aten::to", t, 10, i + 1);
            k.launch("cudaMemcpyAsync", t + 1, 2, i + 1, "gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 100 + i * 1000, 995, 1 << 20);
        } else {
            k.op("cpu_op", "aten::mm", t, 10, i + 1);
            k.launch("cudaLaunchKernel", t + 1, 2, i + 1, "kernel", "gemm", 100 + i * 1000, gemmUs);
        }
    };
    for (int i = 0; i < 5; ++i)
        launchWork(i, i * 20);
    for (int j = 0; j < 4; ++j) {
        k.op("cpu_op", "aten::fill_", 300 + j * 60, 55, 20 + j);
        k.launch("cudaLaunchKernel", 302 + j * 60, 50, 20 + j, "kernel", "fill_kernel", 1097 + j * 1000, 1);
    }
    const double syncEnd = 4100 + gemmUs + 1;
    k.runtime("cudaDeviceSynchronize", 600, syncEnd - 600);
    for (int i = 5; i < 10; ++i)
        launchWork(i, syncEnd + (i - 5) * 20);
    return k;
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
        k.launch("cudaLaunchKernel", 502, 5, 2, "kernel", "add_kernel", 510, 10);
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
        QCOMPARE(span, qint64(520000));
        QCOMPARE(f->value, 100.0 * 400000.0 / double(span)); // the sync's 400 us of the host's 520 us
        // The device ran dry at 400 us, inside the sync (10..410 us), and idled until add_kernel at 510 us:
        // 110 us of its 510 us span (10..520 us), 21.6 %: high.
        QCOMPARE(*f->recoverableNs, qint64(110000));
        QCOMPARE(f->severity, Severity::High);
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
        // The launch overhead beyond the device work (200 - 8 us), at most the device idle the launch
        // calls explain: before kernels 2..4 the device idles from the previous kernel's end (t - 238 us)
        // and the call starts at t + 5 us, so [t + 5, t + 60) = 55 us each, 165 us.
        QCOMPARE(*f->recoverableNs, qint64(std::min(200000.0 - 4 * kernelUs * 1000, 3 * 55000.0)));
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
            // Each wait of 150 us is device idle, except the first launch's (nothing ran before it:
            // the device table's span starts there): 11 of 12. No recoverable estimate, always low.
            QCOMPARE(f->value, 100.0 * 11 / 12);
            QCOMPARE(f->events.size(), size_t(11));
            QVERIFY(!f->recoverableNs);
            QCOMPARE(f->severity, Severity::Low);
        }
    }

    // Done when (issue 46): no host-side finding on a device busy >= 95 % of its span. The same host
    // timeline twice: with 995 us gemms the device is busy 8 x 995 + 2 x 995 + 4 x 1 = 9954 us of its
    // 9995 us span (100 .. 10095 us), 99.59 %: the host waits in a synchronisation for 4.5 ms, launches
    // run up to 5 ms ahead, fill_ launches take 50 x its 1 us kernels and copies are 20 % of the time,
    // and none of it costs the device anything. With 495 us gemms it is busy 5954 of 9495 us (62.7 %)
    // and the same host work explains idle gaps.
    void hostRulesNeedAStarvedDevice_data()
    {
        QTest::addColumn<double>("gemmUs");
        QTest::addColumn<bool>("starved");
        QTest::newRow("saturated 99.6 %") << 995.0 << false;
        QTest::newRow("starved 62.7 %") << 495.0 << true;
    }

    void hostRulesNeedAStarvedDevice()
    {
        QFETCH(double, gemmUs);
        QFETCH(bool, starved);
        QTemporaryDir dir;
        const auto trace = saturationTrace(gemmUs).load(dir, "saturation.json");
        QVERIFY(trace);
        const auto r = Insights::run(*trace, {});
        checkWellFormed(*trace, r.findings);
        QCOMPARE(r.metrics.devices.size(), size_t(1));
        QCOMPARE(r.metrics.devices[0].busyNs, qint64(starved ? 5954000 : 9954000));
        QCOMPARE(r.metrics.devices[0].totalNs, qint64(starved ? 9495000 : 9995000));
        if (!starved) {
            for (const char *rule : kHostSideRules)
                QVERIFY2(!find(r.findings, rule), rule);
            QVERIFY(!find(r.findings, "device-idle"));
            return;
        }
        // Starved: the sync's cost is the gap where the device ran dry inside it, 4595 .. 5100 us (the
        // gaps before it ran while the work was queued: not the host's), 505 of 9495 us, 5.3 %: medium.
        const Finding *sync = find(r.findings, "sync-stall");
        QVERIFY(sync);
        QCOMPARE(*sync->recoverableNs, qint64(505000));
        QCOMPARE(sync->severity, Severity::Medium);
        QVERIFY(near(sync->value, 100.0 * (4596.0 - 600.0) / 9595.0)); // the sync of the 9595 us window
        // launch-bound: 4 x 50 us of launch for 4 x 1 us of kernel, 196 us beyond it; the device idled
        // 4 x 502 us before the fills while their calls ran: 196 us, 2.1 % of 9495: low.
        const Finding *launch = find(r.findings, "launch-bound");
        QVERIFY(launch);
        QCOMPARE(*launch->recoverableNs, qint64(196000));
        QCOMPARE(launch->severity, Severity::Low);
        // Copies: 2 x 995 us of the 9595 us window.
        const Finding *copy = find(r.findings, "host-device-copy");
        QVERIFY(copy);
        QCOMPARE(*copy->recoverableNs, qint64(1990000));
        // 13 of 14 launches wait >= 100 us over an idle gap (kernel 0 has nothing before it).
        const Finding *latency = find(r.findings, "launch-latency");
        QVERIFY(latency);
        QVERIFY(near(latency->value, 100.0 * 13 / 14));
        for (const Finding &f : r.findings)
            if (f.recoverableNs && std::count(std::begin(kHostSideRules), std::end(kHostSideRules), f.rule) && f.rule != "host-device-copy")
                QVERIFY2(*f.recoverableNs <= r.metrics.deviceIdleNs, f.rule.c_str()); // drawn from the device's idle time
    }

    // A generated 8-rank job (tests/common/rankset.h: each rank on its own clock, placed by its base),
    // every rank the same 3 steps: per step (at n ms) gemm 30..130 us past it, cudaDeviceSynchronize
    // 35..135 us, add_kernel 420..520 us, the step 900 us long. Counted by hand per rank: each step's
    // device window 490 us, busy 200, idle 290 (the gap 130..420 us begins inside the sync); the GPU's
    // span 1030 .. 3520 us = 2490 us; the rank's span 1000 .. 3900 us = 2900 us; sync 3 x 100 us.
    void rankSetAddsUp()
    {
        KinetoEvents k;
        for (int n = 1; n <= 3; ++n) {
            const double t = n * 1000;
            const QByteArray step = "ProfilerStep#" + QByteArray::number(n);
            k.op("user_annotation", step.constData(), t, 900, n * 10);
            k.op("cpu_op", "aten::mm", t + 10, 20, n * 10 + 1);
            k.launch("cudaLaunchKernel", t + 15, 5, n * 10 + 1, "kernel", "gemm", t + 30, 100);
            k.runtime("cudaDeviceSynchronize", t + 35, 100);
            k.op("cpu_op", "aten::add", t + 400, 20, n * 10 + 2);
            k.launch("cudaLaunchKernel", t + 405, 5, n * 10 + 2, "kernel", "add_kernel", t + 420, 100);
        }
        QTemporaryDir dir;
        const QString one = k.write(dir, "one.json");
        QVERIFY(!one.isEmpty());
        QFile file(one);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject trace = QJsonDocument::fromJson(file.readAll()).object();
        trace[QStringLiteral("distributedInfo")] = QJsonObject{{QStringLiteral("backend"), QStringLiteral("nccl")}, {QStringLiteral("rank"), 0},
                                                               {QStringLiteral("world_size"), 1}};
        trace[QStringLiteral("baseTimeNanoseconds")] = qint64(1'700'000'000'000'000'000);
        const QString ranks = dir.filePath(QStringLiteral("ranks"));
        QVERIFY(QDir().mkpath(ranks));
        constexpr int64_t kRanks = 8;
        lanescope::test::JobRankSet set;
        set.ranks = kRanks;
        QVERIFY(lanescope::test::writeJobRanks(trace, set, ranks));
        const auto loaded = lanescope::test::load(ranks);
        QVERIFY(loaded);
        const auto r = Insights::run(*loaded, {});
        checkWellFormed(*loaded, r.findings);
        QCOMPARE(r.metrics.devices.size(), size_t(kRanks));
        const int64_t gpuSpans = kRanks * 2490000, rankSpans = kRanks * 2900000;
        QCOMPARE(r.metrics.deviceTotalNs, gpuSpans);
        // device-idle: each rank's 3 steps on its own GPU: 8 x 870 of 8 x 1470 us (59.2 %); before,
        // every rank's steps were measured on all 8 GPUs (8 x as much, past the GPUs' 19.92 ms).
        const Finding *idle = find(r.findings, "device-idle");
        QVERIFY(idle);
        QCOMPARE(*idle->recoverableNs, kRanks * 870000);
        QVERIFY(near(idle->value, 100.0 * 870 / 1470));
        QVERIFY2(idle->detail.find("of 8 ranks, each on its own devices") != std::string::npos, idle->detail.c_str());
        // sync-stall: per host 300 of 2900 us (10.3 %), not eight hosts' 2.4 ms over one rank's 2.9 ms;
        // recoverable the gaps after the syncs, 8 x 3 x 290 us, of 8 x 2490 us of device time: high.
        const Finding *sync = find(r.findings, "sync-stall");
        QVERIFY(sync);
        QVERIFY(near(sync->value, 100.0 * 300 / 2900));
        QCOMPARE(*sync->recoverableNs, kRanks * 870000);
        QCOMPARE(sync->severity, Severity::High);
        for (const Finding &f : r.findings) {
            if (!f.recoverableNs)
                continue;
            QVERIFY2(*f.recoverableNs <= rankSpans, f.rule.c_str()); // within the ranks' own time
            if (f.rule == "device-idle" || f.rule == "sync-stall" || f.rule == "launch-bound" || f.rule == "fusion-candidate")
                QVERIFY2(*f.recoverableNs <= gpuSpans, f.rule.c_str()); // within the GPUs' own time
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
