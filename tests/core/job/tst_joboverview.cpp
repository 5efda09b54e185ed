// JobOverview from rank summaries against the full multi-rank load of the same files: a job of 8 ranks
// written from HTA's real NCCL trace (tests/common/rankset.h: every rank on its own clock, rank 5
// running 1.3 x slower, rank 2 arriving 1 ms late at every collective), each rank summarised
// (RankSummarizer), written and read back (RankSummaryJson), and the overview computed from the
// summaries alone. Every number of the overview equals the full load's: the job's span, the per-rank
// step table (medians, p90, slowest, ratios, stragglers), the collective table across and per rank,
// every matched collective (group, kind, bytes, step, sequence, entries, last rank, lateness, waits),
// the per-rank lateness and the unmatched count, and the straggler-rank and late-arrival findings; the
// slow and the late rank are the ones named. A rank that misses one collective instance: its step's
// instances are unmatched on every rank, as in the full load, never paired with another instance.
#include "corpus.h"
#include "findings.h"
#include "gzipjson.h"
#include "loadtrace.h"
#include "rankset.h"

#include "analysis/collectivematch.h"
#include "analysis/collectivetable.h"
#include "analysis/insights/insights.h"
#include "analysis/launchindex.h"
#include "analysis/ranksteptable.h"
#include "job/joboverview.h"
#include "job/ranksummarizer.h"
#include "job/ranksummaryjson.h"
#include "model/trace.h"

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

const QString kNccl = QStringLiteral("hta/nccl_parser_config__nccl_data.json.gz");
constexpr int64_t kSlow = 5, kLate = 2;

struct Job
{
    std::shared_ptr<const Trace> full; // the folder loaded as one multi-rank trace
    JobOverview overview;              // from the summaries, written and read back
    std::vector<RankSummary> summaries;
};

// Summarises every rank file of `dir`, through the JSON file format, and loads the folder whole.
bool summarizeAndLoad(const QString &dir, Job &job)
{
    std::vector<RankSummary> read;
    for (const QString &name : QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        const RankSummarizer::Outcome made = RankSummarizer::summarizeFile((dir + QLatin1Char('/') + name).toStdString());
        if (!made.ok()) {
            qWarning("%s", made.error.c_str());
            return false;
        }
        const RankSummaryJson::Read back = RankSummaryJson::read(RankSummaryJson::write(made.summary), name.toStdString());
        if (!back.ok()) {
            qWarning("%s", back.error.c_str());
            return false;
        }
        read.push_back(back.summary);
    }
    job.summaries = read;
    job.overview = JobOverview::compute(std::move(read), "job");
    job.full = test::load(dir);
    return job.full != nullptr;
}

std::vector<const Finding *> ofRules(const std::vector<Finding> &all)
{
    std::vector<const Finding *> out;
    for (const Finding &f : all)
        if (f.rule == "straggler-rank" || f.rule == "late-arrival")
            out.push_back(&f);
    return out;
}

} // namespace

class TestJobOverview : public QObject
{
    Q_OBJECT

    QJsonObject m_source;

    void compareWithFullLoad(const Job &job)
    {
        const Trace &t = *job.full;
        const JobOverview &o = job.overview;
        QCOMPARE(o.startNs, t.startNs());
        QCOMPARE(o.endNs, t.endNs());

        const LaunchIndex index = LaunchIndex::build(t);
        const RankStepTable::Result steps = RankStepTable::compute(t, index, {});
        QCOMPARE(o.steps.medianOfRanks, steps.medianOfRanks);
        QCOMPARE(o.steps.rows.size(), steps.rows.size());
        for (size_t i = 0; i < steps.rows.size(); ++i) {
            const RankStepTable::Row &a = o.steps.rows[i], &b = steps.rows[i];
            QCOMPARE(a.rank, b.rank);
            QCOMPARE(a.steps, b.steps);
            QCOMPARE(a.median, b.median);
            QCOMPARE(a.p90, b.p90);
            QCOMPARE(a.slowest, b.slowest);
            QCOMPARE(a.slowestStepName, b.slowestStepName);
            QCOMPARE(a.ratio, b.ratio);
            QCOMPARE(a.straggler, b.straggler);
            QCOMPARE(a.stepList.size(), b.stepList.size());
            for (size_t s = 0; s < a.stepList.size(); ++s) // on the job clock, as the full load placed them
                QCOMPARE(a.stepList[s].start, b.stepList[s].start);
        }

        const CollectiveTableResult table = CollectiveTable::compute(t);
        QCOMPARE(o.collectives.instances.size(), table.instances.size());
        QCOMPARE(o.collectives.totalNs, table.totalNs);
        QCOMPARE(o.collectives.rows.size(), table.rows.size());
        for (size_t i = 0; i < table.rows.size(); ++i) {
            QCOMPARE(o.collectives.rows[i].kind, table.rows[i].kind);
            QCOMPARE(o.collectives.rows[i].count, table.rows[i].count);
            QCOMPARE(o.collectives.rows[i].totalNs, table.rows[i].totalNs);
            QCOMPARE(o.collectives.rows[i].medianNs, table.rows[i].medianNs);
            QCOMPARE(o.collectives.rows[i].messageBytes, table.rows[i].messageBytes);
        }
        QCOMPARE(o.collectives.perRank.size(), table.perRank.size());
        for (size_t i = 0; i < table.perRank.size(); ++i) {
            QCOMPARE(o.collectives.perRank[i].rank, table.perRank[i].rank);
            QCOMPARE(o.collectives.perRank[i].totalNs, table.perRank[i].totalNs);
            QCOMPARE(o.collectives.perRank[i].maxNs, table.perRank[i].maxNs);
        }

        const CollectiveMatchResult match = CollectiveMatch::compute(t, index, table);
        QCOMPARE(o.match.unmatched, match.unmatched);
        QCOMPARE(o.match.matched.size(), match.matched.size());
        for (size_t i = 0; i < match.matched.size(); ++i) {
            const MatchedCollective &a = o.match.matched[i], &b = match.matched[i];
            QCOMPARE(a.processGroup, b.processGroup);
            QCOMPARE(a.kind, b.kind);
            QCOMPARE(a.bytes, b.bytes);
            QCOMPARE(a.step, b.step);
            QCOMPARE(a.sequence, b.sequence);
            QCOMPARE(a.firstEntry, b.firstEntry);
            QCOMPARE(a.lastEntry, b.lastEntry);
            QCOMPARE(a.lastRank, b.lastRank);
            QCOMPARE(a.lateNs, b.lateNs);
            QCOMPARE(a.waitNs, b.waitNs);
            QCOMPARE(a.maxWaitNs, b.maxWaitNs);
            QCOMPARE(a.members.size(), b.members.size());
            for (size_t m = 0; m < a.members.size(); ++m) { // the same instances: rank, start and duration
                const CollectiveInstance &x = o.collectives.instances[a.members[m]], &y = table.instances[b.members[m]];
                QCOMPARE(x.rank, y.rank);
                QCOMPARE(x.start, y.start);
                QCOMPARE(x.duration, y.duration);
            }
        }
        QCOMPARE(o.match.ranks.size(), match.ranks.size());
        for (size_t i = 0; i < match.ranks.size(); ++i) {
            const RankLateness &a = o.match.ranks[i], &b = match.ranks[i];
            QCOMPARE(a.rank, b.rank);
            QCOMPARE(a.matched, b.matched);
            QCOMPARE(a.last, b.last);
            QCOMPARE(a.lateNs, b.lateNs);
            QCOMPARE(a.causedWaitNs, b.causedWaitNs);
            QCOMPARE(a.maxLateNs, b.maxLateNs);
            QCOMPARE(a.worst, b.worst);
        }

        // The job's findings are the full load's findings of the same rules, word for word.
        const std::vector<Finding> all = Insights::run(t, index, {}).findings;
        const std::vector<const Finding *> want = ofRules(all), got = ofRules(o.findings);
        QCOMPARE(got.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(got[i]->rule, want[i]->rule);
            QCOMPARE(got[i]->title, want[i]->title);
            QCOMPARE(got[i]->detail, want[i]->detail);
            QCOMPARE(got[i]->severity, want[i]->severity);
            QCOMPARE(got[i]->value, want[i]->value);
            QCOMPARE(got[i]->threshold, want[i]->threshold);
            QCOMPARE(got[i]->recoverableNs, want[i]->recoverableNs);
            QCOMPARE(got[i]->ranges, want[i]->ranges);
            QVERIFY(got[i]->events.empty()); // slice ids of the ranks' own traces mean nothing in the job
        }
    }

private slots:
    void initTestCase()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kNccl);
        m_source = test::loadGzipJson(test::corpusFile(kNccl));
        QVERIFY(!m_source.isEmpty());
    }

    void roundTrip()
    {
        QTemporaryDir dir;
        test::JobRankSet set;
        set.ranks = 8;
        set.slowRank = kSlow;
        set.lateRank = kLate;
        QVERIFY(test::writeJobRanks(m_source, set, dir.path()));
        Job job;
        QVERIFY(summarizeAndLoad(dir.path(), job));
        QCOMPARE(job.overview.ranks.size(), size_t(8));
        QCOMPARE(job.overview.worldSize, int64_t(8));
        QCOMPARE(job.overview.clockRule, std::string("baseTimeNanoseconds"));
        QCOMPARE(job.overview.missingRanks.size(), size_t(0));
        compareWithFullLoad(job);
        // The slow rank is the straggler, the late rank the one the late-arrival rule names.
        QCOMPARE(job.overview.stragglers(), std::vector<int64_t>{kSlow});
        QCOMPARE(job.overview.lateRanks(), std::vector<int64_t>{kLate});
        QCOMPARE(job.overview.match.matched.size(), size_t(21));
        QCOMPARE(job.overview.match.unmatched, uint64_t(0));
        QVERIFY(test::findRule(job.overview.findings, "straggler-rank"));
        QVERIFY(test::findRule(job.overview.findings, "late-arrival"));
        // Each rank's own findings are those of its trace alone.
        const auto alone = test::load(QString::fromStdString(job.overview.ranks[0].file.path));
        QVERIFY(alone);
        const std::vector<Finding> own = Insights::run(*alone, {}).findings;
        QCOMPARE(job.overview.ranks[0].findings.size(), own.size());
        for (size_t i = 0; i < own.size(); ++i) {
            QCOMPARE(job.overview.ranks[0].findings[i].title, own[i].title);
            QCOMPARE(job.overview.ranks[0].findings[i].events, own[i].events);
        }
    }

    void missingInstance()
    {
        // Rank 3 lacks its first collective kernel of ProfilerStep#5 (the kernel event only).
        QTemporaryDir dir;
        test::JobRankSet set;
        set.ranks = 4;
        QVERIFY(test::writeJobRanks(m_source, set, dir.path()));
        QJsonObject trace = m_source;
        QJsonArray events = trace[QStringLiteral("traceEvents")].toArray();
        double stepStart = 0, stepEnd = 0;
        for (const QJsonValue &v : events)
            if (v[QStringLiteral("name")].toString() == QLatin1String("ProfilerStep#5")) {
                stepStart = v[QStringLiteral("ts")].toDouble();
                stepEnd = stepStart + v[QStringLiteral("dur")].toDouble();
            }
        for (qsizetype i = 0; i < events.size(); ++i) { // the first NCCL kernel starting inside the step
            const QJsonObject e = events[i].toObject();
            const double ts = e[QStringLiteral("ts")].toDouble();
            if (test::isCollectiveKernel(e) && ts >= stepStart && ts < stepEnd && ts < stepStart + 10000) {
                events.removeAt(i);
                break;
            }
        }
        QVERIFY(events.size() < trace[QStringLiteral("traceEvents")].toArray().size());
        trace[QStringLiteral("traceEvents")] = events;
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("rank3.pt.trace.json")),
                                test::rankVariant(trace, 3, 4, test::JobRankSet::shiftUs(3))));
        Job job;
        QVERIFY(summarizeAndLoad(dir.path(), job));
        compareWithFullLoad(job);
        QVERIFY(job.overview.match.unmatched > 0);
        QVERIFY(job.overview.match.matched.size() < 21);
        for (const MatchedCollective &c : job.overview.match.matched) {
            QVERIFY(c.step != 5); // that step's instances are never paired
            for (uint32_t m : c.members)
                QCOMPARE(job.overview.collectives.instances[m].kind, c.kind);
        }
        QCOMPARE(job.overview.match.unmatched, uint64_t(4 * (21 - job.overview.match.matched.size()) - 1));
    }
};

QTEST_GUILESS_MAIN(TestJobOverview)
#include "tst_joboverview.moc"
