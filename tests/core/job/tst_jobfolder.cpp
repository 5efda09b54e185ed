// JobFolder on folders of hand-built rank summaries: a folder is recognised by the formats table's scan
// (and a trace folder is not); summaries of two jobs (another world size) are kept apart as two jobs
// with a warning naming the files of each; two summaries of one rank are kept apart (the second in a
// job of its own) with a warning naming both; a summary that cannot be read is named with its
// position and reason while the others still make the job; ranks below the world size without a
// summary are listed; locateTrace finds a rank's trace where it was, else beside the summary, and
// says where it looked.
#include "filebytes.h"
#include "ranksummaries.h"

#include "job/jobfolder.h"
#include "job/ranksummaryjson.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {


bool contains(const std::vector<std::string> &list, const std::string &part)
{
    return std::any_of(list.begin(), list.end(), [&](const std::string &s) { return s.find(part) != std::string::npos; });
}

} // namespace

class TestJobFolder : public QObject
{
    Q_OBJECT

private slots:
    void oneJob()
    {
        QTemporaryDir dir;
        for (int64_t r = 0; r < 4; ++r)
            QVERIFY(test::writeSummary(dir, QStringLiteral("rank-%1.summary.json").arg(r), test::summaryOfRank(r, 4, r == 1 ? 1'500'000 : 1'000'000)));
        QVERIFY(test::writeFileIn(dir, QStringLiteral("notes.txt"), QByteArray("hello")).size() > 0);
        QVERIFY(JobFolder::isJob(dir.path().toStdString()));
        QVERIFY(JobFolder::isJob(dir.filePath(QStringLiteral("rank-0.summary.json")).toStdString()));
        QVERIFY(!JobFolder::isJob(dir.filePath(QStringLiteral("notes.txt")).toStdString()));
        const JobFolder::Result r = JobFolder::open(dir.path().toStdString());
        QVERIFY(r.errors.empty());
        QVERIFY(r.warnings.empty());
        QCOMPARE(r.summaries, uint64_t(4));
        QCOMPARE(r.otherFiles, std::vector<std::string>{"notes.txt"});
        QCOMPARE(r.jobs.size(), size_t(1));
        const JobOverview &job = r.jobs[0];
        QCOMPARE(job.ranks.size(), size_t(4));
        QCOMPARE(job.stragglers(), std::vector<int64_t>{1});
        QCOMPARE(job.match.matched.size(), size_t(3));
        QCOMPARE(job.match.unmatched, uint64_t(0));
        // rank 1's steps are 1.5 x longer: it enters the allreduce of step i at 1.5 (i + 0.5) ms, the others at i + 0.5 ms
        QCOMPARE(job.match.ranks[1].last, uint64_t(3));
        QCOMPARE(job.match.ranks[1].lateNs, int64_t(250'000 + 750'000 + 1'250'000));
    }

    void twoJobsKeptApart()
    {
        QTemporaryDir dir;
        for (int64_t r = 0; r < 3; ++r)
            QVERIFY(test::writeSummary(dir, QStringLiteral("a-rank%1.summary.json").arg(r), test::summaryOfRank(r, 3)));
        for (int64_t r = 0; r < 2; ++r)
            QVERIFY(test::writeSummary(dir, QStringLiteral("b-rank%1.summary.json").arg(r), test::summaryOfRank(r, 2)));
        const JobFolder::Result r = JobFolder::open(dir.path().toStdString());
        QCOMPARE(r.jobs.size(), size_t(2));
        QCOMPARE(r.jobs[0].ranks.size(), size_t(3));
        QCOMPARE(r.jobs[0].worldSize, int64_t(3));
        QCOMPARE(r.jobs[1].ranks.size(), size_t(2));
        QCOMPARE(r.jobs[1].worldSize, int64_t(2));
        QVERIFY(r.jobs[0].label.starts_with("job 1 (world size 3"));
        QVERIFY(r.jobs[1].label.starts_with("job 2 (world size 2"));
        QCOMPARE(r.warnings.size(), size_t(1));
        const std::string &w = r.warnings[0];
        QVERIFY2(w.find("rank summaries of 2 jobs in one folder") != std::string::npos, w.c_str());
        QVERIFY2(w.find("job 1 (world size 3, process group 0 of 3 ranks): a-rank0.summary.json, a-rank1.summary.json, "
                        "a-rank2.summary.json") != std::string::npos, w.c_str());
        QVERIFY2(w.find("job 2 (world size 2, process group 0 of 2 ranks): b-rank0.summary.json, b-rank1.summary.json") !=
                     std::string::npos, w.c_str());
        // each job matched its own ranks' collectives only
        QCOMPARE(r.jobs[0].match.matched.size(), size_t(3));
        QCOMPARE(r.jobs[0].match.matched[0].members.size(), size_t(3));
        QCOMPARE(r.jobs[1].match.matched[0].members.size(), size_t(2));
    }

    void rankTwice()
    {
        QTemporaryDir dir;
        for (int64_t r = 0; r < 3; ++r)
            QVERIFY(test::writeSummary(dir, QStringLiteral("rank-%1.summary.json").arg(r), test::summaryOfRank(r, 3)));
        QVERIFY(test::writeSummary(dir, QStringLiteral("rank-1.z.summary.json"), test::summaryOfRank(1, 3, 2'000'000)));
        const JobFolder::Result r = JobFolder::open(dir.path().toStdString());
        QCOMPARE(r.jobs.size(), size_t(2));
        QCOMPARE(r.jobs[0].ranks.size(), size_t(3));
        QCOMPARE(r.jobs[1].ranks.size(), size_t(1));
        QCOMPARE(r.jobs[1].ranks[0].rank, int64_t(1));
        QVERIFY(r.jobs[1].label.starts_with("job 1 #2"));
        QVERIFY2(contains(r.warnings, "rank 1 has 2 summaries (rank-1.summary.json, rank-1.z.summary.json): kept apart"),
                 r.warnings.empty() ? "" : r.warnings[0].c_str());
        QVERIFY(r.jobs[0].stragglers().empty()); // the slower copy is not mixed into the job
        QCOMPARE(r.jobs[0].match.unmatched, uint64_t(0));
    }

    void unreadableAndMissing()
    {
        QTemporaryDir dir;
        QVERIFY(test::writeSummary(dir, QStringLiteral("rank-0.summary.json"), test::summaryOfRank(0, 4)));
        QVERIFY(test::writeSummary(dir, QStringLiteral("rank-2.summary.json"), test::summaryOfRank(2, 4)));
        QByteArray cut = RankSummaryJson::write(test::summaryOfRank(1, 4));
        cut.truncate(cut.size() / 2); // the head still says rank summary: the scan takes it, the reader names it
        QVERIFY(test::writeFileIn(dir, QStringLiteral("rank-1.summary.json"), cut).size() > 0);
        const JobFolder::Result r = JobFolder::open(dir.path().toStdString());
        QCOMPARE(r.errors.size(), size_t(1));
        QVERIFY2(r.errors[0].find("rank-1.summary.json: at byte ") != std::string::npos, r.errors[0].c_str());
        QCOMPARE(r.jobs.size(), size_t(1));
        QCOMPARE(r.jobs[0].ranks.size(), size_t(2));
        QCOMPARE(r.jobs[0].missingRanks, (std::vector<int64_t>{1, 3}));
        QVERIFY(contains(r.warnings, "no summary of 2 of its 4 ranks: 1 3"));

        QTemporaryDir empty;
        const JobFolder::Result none = JobFolder::open(empty.path().toStdString());
        QVERIFY(!none.ok());
        QVERIFY(contains(none.errors, "no rank summaries here"));
    }

    void locateTrace()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("summaries")));
        const QString trace = test::writeFileIn(dir, QStringLiteral("rank0.json"), QByteArray("0123456789")); // 10 bytes, as recorded
        RankSummary s = test::summaryOfRank(0, 1, 1'000'000, trace.toStdString());
        s.summaryPath = dir.filePath(QStringLiteral("summaries/rank-0.summary.json")).toStdString();
        JobFolder::TraceLocation at = JobFolder::locateTrace(s);
        QCOMPARE(at.found, trace.toStdString());
        // moved: the recorded path is gone; found one folder above the summary, every place tried listed
        s.file.path = "/gone/rank0.json";
        at = JobFolder::locateTrace(s);
        QCOMPARE(at.found, QDir::cleanPath(trace).toStdString());
        QCOMPARE(at.tried.size(), size_t(3));
        QCOMPARE(at.tried[0], std::string("/gone/rank0.json"));
        // another file of that name (another size) is not taken
        s.file.bytes = 11;
        at = JobFolder::locateTrace(s);
        QVERIFY(at.found.empty());
        QCOMPARE(at.tried.size(), size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestJobFolder)
#include "tst_jobfolder.moc"
