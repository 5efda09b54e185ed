// FindingSource: the Python line a finding's events (or the host during its ranges) share. Small
// Kineto traces written the way PyTorch's profiler writes with_stack=True (python_function slices
// named `path(line): function` on the host thread, ops and runtime calls inside them, kernels on a
// stream) and read by the real importer; findings built by hand so that each rule of the choice is
// checked on its own; and the corpus MI300 trace, whose findings point at the user's train_ddp.py.
#include "corpus.h"
#include "findings.h"
#include "kinetoevents.h"
#include "loadtrace.h"

#include "analysis/insights/findingsource.h"
#include "analysis/insights/insights.h"
#include "analysis/launchindex.h"
#include "analysis/sourceframe.h"
#include "model/trace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;

namespace {

using lanescope::test::KinetoEvents;

void frame(KinetoEvents &k, const char *name, double ts, double dur)
{
    k.x("python_function", QLatin1String(name), 100, 100, ts, dur);
}

// main > step > (_call_impl > aten::mm launching mm_kernel) twice, then step > log > aten::add
// launching add_kernel; after step, the user's collate waiting in threading.py.
KinetoEvents userTrace()
{
    KinetoEvents k;
    frame(k, "/home/u/train.py(200): main", 0, 1000);
    frame(k, "/home/u/train.py(118): step", 10, 900);
    for (int i = 0; i < 2; ++i) {
        const double t = 20 + 100 * i;
        frame(k, "torch/nn/modules/module.py(1779): _call_impl", t, 80);
        k.op("cpu_op", "aten::mm", t + 5, 60, 10 + i);
        k.launch("cudaLaunchKernel", t + 10, 20, 10 + i, "kernel", "mm_kernel", t + 40, 50);
    }
    frame(k, "/home/u/train.py(130): log", 300, 100);
    k.op("cpu_op", "aten::add", 305, 60, 20);
    k.launch("cudaLaunchKernel", 310, 20, 20, "kernel", "add_kernel", 340, 50);
    // The host waits in the user's collate, then in the standard library.
    frame(k, "/home/u/data.py(50): collate", 500, 300);
    frame(k, "threading.py(320): wait", 520, 260);
    return k;
}

std::vector<uint32_t> slicesNamed(const Trace &trace, const char *name)
{
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < trace.allSlices().size(); ++i)
        if (trace.str(trace.allSlices()[i].name) == name)
            ids.push_back(i);
    return ids;
}

Finding withEvents(std::vector<uint32_t> events)
{
    Finding f;
    f.rule = "test";
    f.events = std::move(events);
    return f;
}

// aten::mm at 20 us launching mm_kernel.
void addMm(KinetoEvents &k)
{
    k.op("cpu_op", "aten::mm", 20, 100, 1);
    k.launch("cudaLaunchKernel", 30, 20, 1, "kernel", "mm_kernel", 60, 50);
}

// The source of a finding on the trace's mm_kernel, "<load failed>" when the trace does not load.
std::string sourceOfMmKernel(const KinetoEvents &k)
{
    QTemporaryDir dir;
    const auto trace = k.load(dir, "t.json");
    if (!trace)
        return "<load failed>";
    const LaunchIndex index = LaunchIndex::build(*trace);
    std::vector<Finding> findings{withEvents(slicesNamed(*trace, "mm_kernel"))};
    FindingSource::attach(*trace, index, findings);
    return findings[0].source;
}

} // namespace

class TestFindingSource : public QObject
{
    Q_OBJECT
private slots:
    void paths()
    {
        QVERIFY(SourceFrame::isUserPath("/home/u/train.py"));
        QVERIFY(SourceFrame::isUserPath("train.py")); // a script run from its folder
        QVERIFY(!SourceFrame::isUserPath("torch/nn/modules/module.py"));
        QVERIFY(!SourceFrame::isUserPath("/usr/lib/python3.11/site-packages/vllm/worker.py"));
        QVERIFY(!SourceFrame::isUserPath("/opt/venv/lib/python3.10/threading.py"));
        QVERIFY(!SourceFrame::isUserPath("vllm/worker.py"));
        QVERIFY(!SourceFrame::isUserPath("threading.py"));
        QVERIFY(SourceFrame::isFrameworkPath("torch/autograd/graph.py"));
        QVERIFY(SourceFrame::isFrameworkPath("<frozen runpy>"));
        QVERIFY(SourceFrame::isFrameworkPath("multiprocessing/pool.py"));
        QVERIFY(!SourceFrame::isFrameworkPath("vllm/worker.py"));
        QVERIFY(!SourceFrame::isFrameworkPath("train.py"));
    }

    // Kernels are taken at the slice that launched them (PyTorch's _call_impl between is skipped);
    // the frame chosen is the innermost one holding at least half of the events.
    void deviceEventsTakeTheirLauncher()
    {
        QTemporaryDir dir;
        const auto trace = userTrace().load(dir, "t.json");
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        std::vector<uint32_t> kernels = slicesNamed(*trace, "mm_kernel");
        QCOMPARE(kernels.size(), size_t(2));
        const std::vector<uint32_t> add = slicesNamed(*trace, "add_kernel");
        std::vector<Finding> findings{withEvents(kernels), withEvents({kernels[0], kernels[1], add[0]}), withEvents(add)};
        FindingSource::attach(*trace, index, findings);
        QCOMPARE(findings[0].source, std::string("/home/u/train.py(118): step")); // torch's _call_impl never
        QCOMPARE(findings[0].sourceShare, 1.0);
        // Three kernels, all under step (log runs inside it too), one under log (1/3 < half): step.
        QCOMPARE(findings[1].source, std::string("/home/u/train.py(118): step"));
        QCOMPARE(findings[1].sourceShare, 1.0);
        QCOMPARE(findings[2].source, std::string("/home/u/train.py(130): log"));
    }

    // Events without a Python stack count against the share: one framed event of three is none.
    void sharedByTooFew()
    {
        KinetoEvents k = userTrace();
        k.op("cpu_op", "aten::copy_", 2000, 10, 30); // outside every frame
        k.op("cpu_op", "aten::copy_", 2100, 10, 31);
        QTemporaryDir dir;
        const auto trace = k.load(dir, "t.json");
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        std::vector<uint32_t> events = slicesNamed(*trace, "aten::copy_");
        events.push_back(slicesNamed(*trace, "aten::add")[0]);
        std::vector<Finding> findings{withEvents(events)};
        FindingSource::attach(*trace, index, findings);
        QVERIFY2(findings[0].source.empty(), findings[0].source.c_str());
        QCOMPARE(findings[0].sourceShare, 0.0);
    }

    // A finding with only time ranges: the host's frames at the range covering at least half of
    // it; the user's collate, not threading.py's wait inside it.
    void rangesTakeTheHost()
    {
        QTemporaryDir dir;
        const auto trace = userTrace().load(dir, "t.json");
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        Finding idle;
        idle.rule = "test";
        const uint32_t collate = slicesNamed(*trace, "/home/u/data.py(50): collate")[0];
        const Slice &c = trace->allSlices()[collate];
        idle.ranges = {{c.start + 10'000, c.end() - 10'000}};
        std::vector<Finding> findings{idle};
        FindingSource::attach(*trace, index, findings);
        QCOMPARE(findings[0].source, std::string("/home/u/data.py(50): collate"));
        QCOMPARE(findings[0].sourceShare, 1.0);
    }

    // No user frame anywhere: a library's frame counts, PyTorch's own never.
    void libraryFallback()
    {
        KinetoEvents k;
        frame(k, "vllm/worker/model_runner.py(1700): execute_model", 0, 500);
        frame(k, "torch/nn/modules/module.py(1779): _call_impl", 10, 400);
        addMm(k);
        QCOMPARE(sourceOfMmKernel(k), std::string("vllm/worker/model_runner.py(1700): execute_model"));
    }

    // A trace without Python stacks is left alone.
    void noStacks()
    {
        KinetoEvents k;
        addMm(k);
        QCOMPARE(sourceOfMmKernel(k), std::string());
    }

    // The corpus MI300 ResNet trace (with_stack, a DDP script): findings name the user's script.
    void corpusNamesTheUsersScript()
    {
        const QString file = QStringLiteral("tracelens/mi300_resnet_act_checkpoint.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const auto trace = lanescope::test::load(lanescope::test::corpusFile(file));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const Insights::Result r = Insights::run(*trace, index, {});
        int named = 0;
        for (const Finding &f : r.findings) {
            if (f.source.empty())
                continue;
            ++named;
            QVERIFY2(f.sourceShare >= 0.5 && f.sourceShare <= 1.0, f.rule.c_str());
            QVERIFY2(f.source.find("train_ddp.py(") != std::string::npos, f.source.c_str());
        }
        QVERIFY(named > 0);
        // Its runtime calls without correlation ids are launched from the training step.
        const Finding *uncorrelated = lanescope::test::findRule(r.findings, "capture-uncorrelated");
        QVERIFY(uncorrelated);
        QCOMPARE(uncorrelated->source, std::string("train_ddp.py(82): train_step"));
    }
};

QTEST_GUILESS_MAIN(TestFindingSource)
#include "tst_findingsource.moc"
