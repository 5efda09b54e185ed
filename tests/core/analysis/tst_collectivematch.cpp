// CollectiveMatch and the late-arrival insight on rank sets written from HTA's real NCCL trace
// (tests/common/rankset.h: each rank on its own clock origin, as separate hosts write them). Four
// ranks, rank 2 made to arrive late at every collective by a known delay: every instance matched on
// all four ranks, rank 2 last every time, its lateness and the others' wait equal the delay put in
// (computed here from the file's own kernels), and the insight names rank 2 with that wait. A rank
// missing one collective: that step's instances are counted unmatched on every rank and nothing is
// paired with another instance. A rank set without delay: nothing late, no finding.
#include "corpus.h"
#include "findings.h"
#include "rankset.h"

#include "analysis/collectivematch.h"
#include "analysis/collectivetable.h"
#include "analysis/insights/insights.h"
#include "analysis/launchindex.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace lanescope;

namespace {

const QString kNccl = QStringLiteral("hta/nccl_parser_config__nccl_data.json.gz");
constexpr int64_t kRanks = 4;
constexpr double kDelayUs = 1000.0;
const qint64 kShiftUs[kRanks] = {0, 1'500'000, -700'000, 3'000'000};

struct RankSet
{
    QTemporaryDir dir;
    std::shared_ptr<const Trace> trace;
};

// Writes the ranks (rank `late` arriving late, rank `dropFrom` missing its first collective kernel
// of ProfilerStep#5) into a folder and loads it as a rank set.
std::unique_ptr<RankSet> writeRanks(const QJsonObject &source, int64_t late, int64_t dropFrom = -1)
{
    auto set = std::make_unique<RankSet>();
    for (int64_t r = 0; r < kRanks; ++r) {
        test::EventEdit edit = r == late ? test::arriveLate(kDelayUs) : test::EventEdit();
        QJsonObject trace = source;
        if (r == dropFrom) {
            // drop the first NCCL kernel launched inside ProfilerStep#5 (its kernel event only)
            QJsonArray events = trace[QStringLiteral("traceEvents")].toArray();
            double stepStart = 0, stepEnd = 0;
            for (const QJsonValue &v : events)
                if (v[QStringLiteral("name")].toString() == QLatin1String("ProfilerStep#5")) {
                    stepStart = v[QStringLiteral("ts")].toDouble();
                    stepEnd = stepStart + v[QStringLiteral("dur")].toDouble();
                }
            std::map<qint64, double> launchAt; // correlation -> runtime call start
            for (const QJsonValue &v : events)
                if (v[QStringLiteral("cat")].toString() == QLatin1String("cuda_runtime"))
                    launchAt[v[QStringLiteral("args")][QStringLiteral("correlation")].toInteger()] = v[QStringLiteral("ts")].toDouble();
            for (qsizetype i = 0; i < events.size(); ++i) {
                const QJsonObject e = events[i].toObject();
                const auto at = launchAt.find(e[QStringLiteral("args")][QStringLiteral("correlation")].toInteger());
                if (test::isCollectiveKernel(e) && at != launchAt.end() && at->second >= stepStart && at->second <= stepEnd) {
                    events.removeAt(i);
                    break;
                }
            }
            trace[QStringLiteral("traceEvents")] = events;
        }
        const QString name = QStringLiteral("rank%1.json").arg(r);
        if (test::writeFileIn(set->dir, name, test::rankVariant(trace, r, kRanks, kShiftUs[r], edit)).isEmpty())
            return nullptr;
    }
    const LoadResult loaded = TraceLoader::load(set->dir.path().toStdString());
    if (!loaded.ok()) {
        qWarning("%s", loaded.error.c_str());
        return nullptr;
    }
    set->trace = loaded.trace;
    return set;
}

struct Kernel
{
    double ts, dur;
};

// The NCCL kernels of the source trace in time order.
std::vector<Kernel> ncclKernels(const QJsonObject &source)
{
    std::vector<Kernel> out;
    for (const QJsonValue &v : source[QStringLiteral("traceEvents")].toArray())
        if (test::isCollectiveKernel(v.toObject()))
            out.push_back({v[QStringLiteral("ts")].toDouble(), v[QStringLiteral("dur")].toDouble()});
    std::sort(out.begin(), out.end(), [](const Kernel &a, const Kernel &b) { return a.ts < b.ts; });
    return out;
}

CollectiveMatchResult matchOf(const Trace &t)
{
    const LaunchIndex index = LaunchIndex::build(t);
    return CollectiveMatch::compute(t, index, CollectiveTable::compute(t));
}

} // namespace

class TestCollectiveMatch : public QObject
{
    Q_OBJECT

    QJsonObject m_source;

private slots:
    void initTestCase()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kNccl);
        m_source = test::loadGzipJson(test::corpusFile(kNccl));
        QVERIFY(!m_source.isEmpty());
    }

    void lateRank()
    {
        const std::vector<Kernel> kernels = ncclKernels(m_source);
        QCOMPARE(kernels.size(), size_t(21));
        const auto set = writeRanks(m_source, 2);
        QVERIFY(set);
        const Trace &t = *set->trace;
        const CollectiveMatchResult m = matchOf(t);
        QCOMPARE(m.matched.size(), kernels.size());
        QCOMPARE(m.unmatched, uint64_t(0));
        QCOMPARE(m.ranks.size(), size_t(kRanks));
        const CollectiveTableResult table = CollectiveTable::compute(t);
        int64_t lateSum = 0;
        for (size_t i = 0; i < m.matched.size(); ++i) {
            const MatchedCollective &c = m.matched[i];
            QCOMPARE(c.members.size(), size_t(kRanks));
            for (uint32_t member : c.members) {
                QCOMPARE(table.instances[member].kind, c.kind); // never another collective
                QCOMPARE(table.instances[member].bytes, c.bytes);
            }
            QCOMPARE(c.lastRank, int64_t(2));
            // the delay put in, on the job's clock: the shifts of the rank clocks are undone
            const int64_t want = std::llround(test::lateBy(kDelayUs, kernels[i].dur) * 1000.0);
            QVERIFY2(std::abs(c.lateNs - want) <= 2, qPrintable(QStringLiteral("#%1: %2 vs %3").arg(i).arg(c.lateNs).arg(want)));
            QVERIFY(std::abs(c.skewNs() - want) <= 2);
            QVERIFY(std::abs(c.waitNs - 3 * want) <= 6); // three ranks each waited the delay
            QVERIFY(c.step >= 4 && c.step <= 6);
            lateSum += c.lateNs;
        }
        for (const RankLateness &r : m.ranks) {
            QCOMPARE(r.matched, uint64_t(kernels.size()));
            QCOMPARE(r.last, r.rank == 2 ? uint64_t(kernels.size()) : uint64_t(0));
        }
        QCOMPARE(m.ranks[2].lateNs, lateSum);
        QVERIFY(std::abs(m.ranks[2].maxLateNs - std::llround(kDelayUs * 1000.0)) <= 2);

        const std::vector<Finding> findings = Insights::run(t, {}).findings;
        const Finding *f = test::findRule(findings, "late-arrival");
        QVERIFY(f);
        QVERIFY2(f->title.rfind("Rank 2 arrives last at 21 of 21 collectives", 0) == 0, f->title.c_str());
        QCOMPARE(*f->recoverableNs, lateSum);
        QCOMPARE(f->value, 1.0); // all of the job's lateness
        QVERIFY(!f->events.empty());
        for (uint32_t e : f->events) // the late rank's own kernels
            QVERIFY(t.str(t.slice(SliceId(e)).name).find("ncclKernel") == 0);
    }

    void inStep()
    {
        const auto set = writeRanks(m_source, -1);
        QVERIFY(set);
        const CollectiveMatchResult m = matchOf(*set->trace);
        QCOMPARE(m.matched.size(), size_t(21));
        for (const MatchedCollective &c : m.matched)
            QVERIFY2(c.skewNs() <= 2, qPrintable(QString::number(c.skewNs()))); // ranks in step: clocks undone exactly
        QVERIFY(!test::findRule(Insights::run(*set->trace, {}).findings, "late-arrival"));
    }

    void missingInstance()
    {
        const auto full = writeRanks(m_source, -1);
        const auto dropped = writeRanks(m_source, 2, 3);
        QVERIFY(full && dropped);
        const CollectiveMatchResult all = matchOf(*full->trace), m = matchOf(*dropped->trace);
        size_t inStep5 = 0;
        for (const MatchedCollective &c : all.matched)
            inStep5 += c.step == 5;
        QVERIFY(inStep5 > 0);
        // ProfilerStep#5's instances cannot be paired safely: none of them is matched, on any rank
        QCOMPARE(m.matched.size(), all.matched.size() - inStep5);
        QCOMPARE(m.unmatched, uint64_t(kRanks * inStep5 - 1));
        for (const MatchedCollective &c : m.matched)
            QVERIFY(c.step != 5);
        QCOMPARE(m.ranks[3].matched, uint64_t(all.matched.size() - inStep5));
    }
};

QTEST_GUILESS_MAIN(TestCollectiveMatch)
#include "tst_collectivematch.moc"
