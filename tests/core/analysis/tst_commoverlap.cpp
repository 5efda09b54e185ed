// CommOverlap (HTA's temporal breakdown and communication / computation overlap): a hand-built
// two-step Kineto trace on three streams whose answers are worked out below by hand (compute kernels
// overlapping each other count once; an NCCL kernel half hidden, one wholly hidden; a memcpy; work
// launched outside every step left out); the low-overlap insight on a step with 20 % overlap and not on
// a wholly hidden one; and the corpus NCCL trace against an independent computation from its own
// events (a kernel's step: the ProfilerStep# enclosing the runtime call of the same correlation).
#include "corpus.h"
#include "findings.h"
#include "gzipjson.h"
#include "kinetoevents.h"

#include "analysis/collectivetable.h"
#include "analysis/commoverlap.h"
#include "analysis/insights/insights.h"
#include "analysis/launchindex.h"
#include "model/trace.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>
#include <map>

using namespace lanescope;

namespace {

const QString kAllReduceArgs = QStringLiteral(
    "\"Collective name\":\"allreduce\",\"In msg nelems\":1024,\"Out msg nelems\":1024,\"Group size\":2,\"dtype\":\"Float\","
    "\"Process Group Name\":\"0\"");
constexpr const char *kNccl = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";

// Step 1 [0, 1000] us: gemm_a [100, 400] (stream 7), gemm_b [350, 500] (stream 8), the all-reduce
// [450, 700] (stream 20), a memcpy [800, 850] (stream 7).
void stepOne(test::KinetoEvents &k)
{
    k.op("user_annotation", "ProfilerStep#1", 0, 1000, 10);
    k.op("cpu_op", "aten::mm", 10, 20, 11);
    k.launch("cudaLaunchKernel", 12, 5, 11, "kernel", "gemm_a", 100, 300);
    k.op("cpu_op", "aten::mm", 40, 20, 12);
    k.launch("cudaLaunchKernel", 42, 5, 12, "kernel", "gemm_b", 350, 150, 0, 8);
    k.op("cpu_op", "nccl:all_reduce", 70, 20, 13);
    k.launch("cudaLaunchKernel", 72, 5, 13, "kernel", kNccl, 450, 250, 0, 20, kAllReduceArgs);
    k.op("cpu_op", "aten::copy_", 100, 20, 14);
    k.launch("cudaMemcpyAsync", 102, 5, 14, "gpu_memcpy", "Memcpy DtoD (Device -> Device)", 800, 50);
}

// Step 2 [2000, 3000] us: gemm [2100, 2600], the all-reduce [2200, 2400] wholly behind it.
void stepTwo(test::KinetoEvents &k)
{
    k.op("user_annotation", "ProfilerStep#2", 2000, 1000, 20);
    k.op("cpu_op", "aten::mm", 2010, 20, 21);
    k.launch("cudaLaunchKernel", 2012, 5, 21, "kernel", "gemm_a", 2100, 500);
    k.op("cpu_op", "nccl:all_reduce", 2040, 20, 22);
    k.launch("cudaLaunchKernel", 2042, 5, 22, "kernel", kNccl, 2200, 200, 0, 20, kAllReduceArgs);
}

CommOverlapResult overlapOf(const Trace &t)
{
    const LaunchIndex index = LaunchIndex::build(t);
    return CommOverlap::compute(t, index, CollectiveTable::compute(t));
}

struct Expected
{
    int64_t step;
    uint64_t kernels;
    int64_t span, compute, communication, memory, idle, nonCompute, overlapped;
};

// `tolerance`: ns each figure may differ by (0: exact). The corpus case computes from JSON doubles,
// where an event's ts + dur can land 1 ns from the importer's exact reading of the text.
void check(const CommOverlapRow &r, const Expected &e, int64_t tolerance = 0)
{
    const auto near = [tolerance](int64_t a, int64_t b) { return std::abs(a - b) <= tolerance; };
    QCOMPARE(r.step, e.step);
    QCOMPARE(r.kernels, e.kernels);
    QVERIFY2(near(r.spanNs, e.span), qPrintable(QStringLiteral("span %1 vs %2").arg(r.spanNs).arg(e.span)));
    QVERIFY2(near(r.computeNs, e.compute), qPrintable(QStringLiteral("compute %1 vs %2").arg(r.computeNs).arg(e.compute)));
    QVERIFY2(near(r.communicationNs, e.communication), qPrintable(QStringLiteral("communication %1 vs %2").arg(r.communicationNs).arg(e.communication)));
    QVERIFY2(near(r.memoryNs, e.memory), qPrintable(QStringLiteral("memory %1 vs %2").arg(r.memoryNs).arg(e.memory)));
    QVERIFY2(near(r.idleNs, e.idle), qPrintable(QStringLiteral("idle %1 vs %2").arg(r.idleNs).arg(e.idle)));
    QVERIFY2(near(r.nonComputeNs, e.nonCompute), qPrintable(QStringLiteral("non-compute %1 vs %2").arg(r.nonComputeNs).arg(e.nonCompute)));
    QVERIFY2(near(r.overlappedNs, e.overlapped), qPrintable(QStringLiteral("overlapped %1 vs %2").arg(r.overlappedNs).arg(e.overlapped)));
    QVERIFY(near(r.exposedNs(), e.communication - e.overlapped) || tolerance > 0);
}

using Intervals = std::vector<std::pair<int64_t, int64_t>>;

} // namespace

class TestCommOverlap : public QObject
{
    Q_OBJECT

private slots:
    void intervals()
    {
        Intervals a{{50, 60}, {0, 10}, {5, 20}, {30, 30}, {60, 70}};
        QCOMPARE(CommOverlap::merge(a), int64_t(40)); // [0, 20] + [50, 70]; the empty one dropped
        QCOMPARE(a, (Intervals{{0, 20}, {50, 70}}));
        Intervals b{{15, 55}, {65, 100}};
        QCOMPARE(CommOverlap::merge(b), int64_t(75));
        QCOMPARE(CommOverlap::intersection(a, b), int64_t(5 + 5 + 5));
        QCOMPARE(CommOverlap::intersection(a, {}), int64_t(0));
    }

    void twoStepsOnThreeStreams()
    {
        test::KinetoEvents k;
        stepOne(k);
        stepTwo(k);
        // Launched outside every step: not part of any iteration.
        k.op("cpu_op", "aten::mm", 4000, 20, 30);
        k.launch("cudaLaunchKernel", 4002, 5, 30, "kernel", "gemm_a", 5000, 100);
        QTemporaryDir dir;
        const auto t = k.load(dir, "two_steps.json");
        QVERIFY(t);
        const CommOverlapResult r = overlapOf(*t);
        QCOMPARE(r.steps.size(), size_t(2));
        // Step 1: span [100, 850]; compute [100, 500]; all work [100, 700] + [800, 850]; the all-reduce
        // under computation on [450, 500].
        check(r.steps[0], {1, 4, 750'000, 400'000, 250'000, 50'000, 100'000, 250'000, 50'000});
        QCOMPARE(*r.steps[0].overlap(), 0.2);
        // Step 2: span [2100, 2600], all of it computation, the all-reduce wholly behind it.
        check(r.steps[1], {2, 2, 500'000, 500'000, 200'000, 0, 0, 0, 200'000});
        QCOMPARE(*r.steps[1].overlap(), 1.0);
        QCOMPARE(r.devices.size(), size_t(1));
        check(r.devices[0], {-1, 6, 1'250'000, 900'000, 450'000, 50'000, 100'000, 250'000, 250'000});
        QCOMPARE(r.devices[0].rank, int64_t(-1));
        QCOMPARE(r.devices[0].device, std::string("GPU 0"));
        // A window keeps the work starting in it, clipped at its end.
        const LaunchIndex index = LaunchIndex::build(*t);
        const CommOverlapResult w = CommOverlap::compute(*t, index, CollectiveTable::compute(*t), {true, 0, 600'000});
        QCOMPARE(w.steps.size(), size_t(1));
        check(w.steps[0], {1, 3, 500'000, 400'000, 150'000, 0, 0, 100'000, 50'000});
    }

    void lowOverlapInsight()
    {
        test::KinetoEvents exposed, hidden;
        stepOne(exposed);
        stepTwo(hidden);
        QTemporaryDir dir;
        const auto a = exposed.load(dir, "exposed.json"), b = hidden.load(dir, "hidden.json");
        QVERIFY(a && b);
        const std::vector<Finding> findings = Insights::run(*a, {}).findings;
        const Finding *f = test::findRule(findings, "low-overlap");
        QVERIFY(f);
        QCOMPARE(f->value, 0.2);
        QCOMPARE(f->threshold, 0.5);
        QCOMPARE(*f->recoverableNs, int64_t(200'000));
        QVERIFY2(f->title.find("GPU 0") != std::string::npos && f->title.find("200.000 us") != std::string::npos, f->title.c_str());
        QCOMPARE(f->events.size(), size_t(1)); // the all-reduce
        QCOMPARE(a->str(a->slice(SliceId(f->events[0])).name).substr(0, 10), std::string_view("ncclKernel"));
        QVERIFY(!test::findRule(Insights::run(*b, {}).findings, "low-overlap"));
    }

    // The corpus NCCL trace (one A100 rank, ProfilerStep#4-6, 21 all-reduces, memcpy and memset),
    // computed here from its events.
    void corpusNcclTrace()
    {
        const QString rel = QStringLiteral("hta/nccl_parser_config__nccl_data.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const QJsonArray events = test::loadGzipJson(test::corpusFile(rel))[QStringLiteral("traceEvents")].toArray();
        QVERIFY(!events.isEmpty());
        const auto ns = [](const QJsonValue &v) { return std::llround(v.toDouble() * 1000.0); };
        struct Step { int64_t n, start, end; };
        std::vector<Step> steps;
        std::map<int64_t, int64_t> runtimeAt; // correlation -> runtime call start
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            const QString name = e[QStringLiteral("name")].toString(), cat = e[QStringLiteral("cat")].toString();
            if (name.startsWith(QLatin1String("ProfilerStep#")))
                steps.push_back({name.mid(13).toLongLong(), ns(e[QStringLiteral("ts")]), ns(e[QStringLiteral("ts")]) + ns(e[QStringLiteral("dur")])});
            else if (cat == QLatin1String("cuda_runtime"))
                runtimeAt[e[QStringLiteral("args")].toObject()[QStringLiteral("correlation")].toInteger()] = ns(e[QStringLiteral("ts")]);
        }
        struct Bucket { Intervals compute, comm, memory, all; int64_t first = INT64_MAX, last = INT64_MIN; uint64_t n = 0; };
        std::map<int64_t, Bucket> byStep;
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            const QString cat = e[QStringLiteral("cat")].toString();
            if (cat != QLatin1String("kernel") && cat != QLatin1String("gpu_memcpy") && cat != QLatin1String("gpu_memset"))
                continue;
            const auto call = runtimeAt.find(e[QStringLiteral("args")].toObject()[QStringLiteral("correlation")].toInteger());
            if (call == runtimeAt.end())
                continue;
            const Step *step = nullptr;
            for (const Step &s : steps)
                if (call->second >= s.start && call->second <= s.end)
                    step = &s;
            if (!step)
                continue;
            const int64_t s = ns(e[QStringLiteral("ts")]), end = s + ns(e[QStringLiteral("dur")]);
            Bucket &b = byStep[step->n];
            (cat != QLatin1String("kernel")                                                             ? b.memory
             : e[QStringLiteral("name")].toString().contains(QLatin1String("nccl"), Qt::CaseInsensitive) ? b.comm
                                                                                                         : b.compute)
                .emplace_back(s, end);
            b.all.emplace_back(s, end);
            b.first = std::min(b.first, s);
            b.last = std::max(b.last, end);
            ++b.n;
        }
        QCOMPARE(byStep.size(), size_t(3));
        const auto t = test::load(test::corpusFile(rel));
        QVERIFY(t);
        const CommOverlapResult r = overlapOf(*t);
        QCOMPARE(r.steps.size(), byStep.size());
        size_t i = 0;
        int64_t communication = 0;
        for (auto &[n, b] : byStep) {
            const CommOverlapRow &row = r.steps[i++];
            const int64_t busy = CommOverlap::merge(b.all), compute = CommOverlap::merge(b.compute);
            const int64_t comm = CommOverlap::merge(b.comm);
            check(row, {n, b.n, b.last - b.first, compute, comm, CommOverlap::merge(b.memory), b.last - b.first - busy, busy - compute,
                        CommOverlap::intersection(b.comm, b.compute)},
                  2 * int64_t(b.n)); // at most 1 ns per interval end
            QVERIFY(!QTest::currentTestFailed());
            communication += comm;
            qInfo("ProfilerStep#%lld: %llu works, step %lld ns, compute %lld, communication %lld, overlap %.1f %%", (long long)n,
                  (unsigned long long)b.n, (long long)row.spanNs, (long long)row.computeNs, (long long)row.communicationNs,
                  row.overlap() ? *row.overlap() * 100.0 : 0.0);
        }
        QVERIFY(communication > 0);
        QCOMPARE(r.devices.size(), size_t(1));
        QVERIFY(std::abs(r.devices[0].communicationNs - communication) <= 2 * int64_t(r.devices[0].kernels));
    }
};

QTEST_GUILESS_MAIN(TestCommOverlap)
#include "tst_commoverlap.moc"
