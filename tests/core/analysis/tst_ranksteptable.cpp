// RankStepTable and the straggler-rank insight, on rank sets written as PyTorch's profiler writes them
// (Kineto JSON with distributedInfo, one file per rank) and loaded through the real loader: medians,
// p90, slowest step, the median of ranks, the straggler mark, and the finding's numbers, events and
// ranges; no finding without a straggler, none on a single trace.
#include "loadtrace.h"

#include "analysis/insights/insights.h"
#include "analysis/launchindex.h"
#include "analysis/ranksteptable.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace lanescope;

namespace {

// One rank's trace: steps of the given durations (µs) back to back from ts 1000, each with an op.
std::string rankTrace(int rank, const std::vector<int> &stepsUs)
{
    std::string out = "{\n  \"schemaVersion\": 1,\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + std::to_string(rank) +
                      ", \"world_size\": 4},\n  \"traceEvents\": [\n";
    int64_t ts = 1000 + rank * 37; // a little skew: the first-step rule removes it
    for (size_t i = 0; i < stepsUs.size(); ++i) {
        out += "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#" + std::to_string(10 + i) +
               "\", \"pid\": 100, \"tid\": 100, \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(stepsUs[i]) + "},\n";
        out += "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 100, \"tid\": 100, \"ts\": " + std::to_string(ts + 1) +
               ", \"dur\": " + std::to_string(stepsUs[i] - 2) + "},\n";
        ts += stepsUs[i] + 10;
    }
    out += "  {\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 100, \"tid\": 0, \"args\": {\"name\": \"python\"}}\n  ]\n}\n";
    return out;
}

std::shared_ptr<const Trace> writeAndLoad(QTemporaryDir &dir, const std::vector<std::vector<int>> &ranks)
{
    for (size_t r = 0; r < ranks.size(); ++r) {
        QFile f(dir.filePath(QStringLiteral("worker%1.pt.trace.json").arg(r)));
        const std::string text = rankTrace(int(r), ranks[r]);
        if (!f.open(QIODevice::WriteOnly) || f.write(text.data(), qint64(text.size())) != qint64(text.size()))
            return nullptr;
    }
    return test::load(dir.path());
}

} // namespace

class TestRankStepTable : public QObject
{
    Q_OBJECT

private slots:
    void straggler()
    {
        QTemporaryDir dir;
        // medians: 1000, 1010, 1300 (straggler: 1300 > 1.1 x 1010), 990
        const auto t = writeAndLoad(dir, {{1000, 1200, 990, 1000}, {1010, 1005, 1020, 1300}, {1300, 1290, 1500, 1310}, {990, 980, 1000, 995}});
        QVERIFY(t);
        const LaunchIndex ix = LaunchIndex::build(*t);
        const RankStepTable::Result table = RankStepTable::compute(*t, ix, {});
        QCOMPARE(table.rows.size(), size_t(4));
        QCOMPARE(table.medianOfRanks, int64_t(1000000)); // lower middle of 990, 1000, 1010, 1300 µs
        const RankStepTable::Row &r0 = table.rows[0], &r2 = table.rows[2];
        QCOMPARE(r0.rank, int64_t(0));
        QCOMPARE(r0.steps, uint64_t(4));
        QCOMPARE(r0.median, int64_t(1000000));
        QCOMPARE(r0.p90, int64_t(1200000));
        QCOMPARE(r0.slowest, int64_t(1200000));
        QCOMPARE(std::string(t->str(t->slice(SliceId(r0.slowestStep)).name)), std::string("ProfilerStep#11"));
        QCOMPARE(r2.median, int64_t(1300000));
        QCOMPARE(r2.ratio, 1.3);
        QVERIFY(r2.straggler);
        QCOMPARE(std::count_if(table.rows.begin(), table.rows.end(), [](const RankStepTable::Row &r) { return r.straggler; }), 1L);

        const Insights::Result insights = Insights::run(*t, {});
        const auto f = std::find_if(insights.findings.begin(), insights.findings.end(),
                                    [](const Finding &x) { return x.rule == "straggler-rank"; });
        QVERIFY(f != insights.findings.end());
        QCOMPARE(f->value, 1.3);
        QCOMPARE(f->threshold, 1.1);
        QCOMPARE(*f->recoverableNs, int64_t(300000) * 4);
        QCOMPARE(f->events.size(), size_t(4));
        QCOMPARE(f->events.front(), r2.slowestStep); // slowest first
        QCOMPARE(f->ranges.front(), std::make_pair(t->slice(SliceId(r2.slowestStep)).start, t->slice(SliceId(r2.slowestStep)).end()));
        QVERIFY2(f->title.starts_with("Rank 2 is a straggler: its median step takes 1.300 ms, 1.30 x the median of ranks (1.000 ms)"),
                 f->title.c_str());
    }

    // 9 % above the median of ranks is not a straggler; a trace without ranks has no table.
    void noStraggler()
    {
        QTemporaryDir dir;
        const auto t = writeAndLoad(dir, {{1000, 1000, 1000}, {1090, 1090, 1090}, {1000, 1000, 1000}});
        QVERIFY(t);
        const RankStepTable::Result table = RankStepTable::compute(*t, LaunchIndex::build(*t), {});
        QCOMPARE(table.rows.size(), size_t(3));
        QVERIFY(std::none_of(table.rows.begin(), table.rows.end(), [](const RankStepTable::Row &r) { return r.straggler; }));
        const Insights::Result insights = Insights::run(*t, {});
        QVERIFY(std::none_of(insights.findings.begin(), insights.findings.end(), [](const Finding &x) { return x.rule == "straggler-rank"; }));

        QTemporaryDir one;
        QFile f(one.filePath(QStringLiteral("trace.json")));
        const std::string text = rankTrace(0, {1000, 5000});
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text.data(), qint64(text.size())) == qint64(text.size()));
        f.close();
        const auto single = test::load(f.fileName());
        QVERIFY(single);
        QVERIFY(RankStepTable::compute(*single, LaunchIndex::build(*single), {}).empty());
    }

    // A range keeps the steps that start in it (the op table's rule).
    void range()
    {
        QTemporaryDir dir;
        const auto t = writeAndLoad(dir, {{1000, 3000, 1000}, {1000, 1000, 1000}});
        QVERIFY(t);
        RankStepTable::Options o;
        o.hasRange = true;
        o.t0 = t->startNs();
        o.t1 = t->startNs() + 1500000; // the first two steps of each rank
        const RankStepTable::Result table = RankStepTable::compute(*t, LaunchIndex::build(*t), o);
        QCOMPARE(table.rows[0].steps, uint64_t(2));
        QCOMPARE(table.rows[0].slowest, int64_t(3000000));
    }
};

QTEST_GUILESS_MAIN(TestRankStepTable)
#include "tst_ranksteptable.moc"
