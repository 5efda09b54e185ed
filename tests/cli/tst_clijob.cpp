// lanescope-cli summarize and the job overview (info / job on a folder of rank summaries), through the
// real executable, on small rank traces written as PyTorch's profiler writes them (distributedInfo,
// one file per rank, each with steps and an allreduce per step): one summary per rank named by its
// rank, a bad file failing its own summary (named, with the reason; exit 2) while the others are
// written; `info DIR --json` names the slow rank a straggler and the rank that enters every allreduce
// late, with every rank's row; ranks of another job in the same folder are kept apart with a warning
// naming their files; a summary opened as a trace says what it is; `summarize --parquet` writes each
// rank's numbers as one Parquet row that DuckDB reads with one glob.
#include "clirun.h"
#include "duckdb.h"
#include "filebytes.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

// Rank `rank` of `worldSize`: 4 steps of `stepUs` from ts 1000, in each an op launching an allreduce
// kernel `lateUs` after the step's start + 100 µs (cuda runtime call and kernel linked by correlation).
QByteArray rankTrace(int rank, int worldSize, int stepUs, int lateUs = 0)
{
    QString ranks;
    for (int r = 0; r < worldSize; ++r)
        ranks += (r ? QStringLiteral(",") : QString()) + QString::number(r);
    QString out = QString::fromUtf8(R"({"schemaVersion": 1, "baseTimeNanoseconds": 1700000000000000000,
"distributedInfo": {"backend": "nccl", "rank": %1, "world_size": %2, "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "pg_size": %2, "ranks": [%3]}]},
"traceEvents": [
{"ph": "M", "name": "process_name", "pid": 100, "tid": 0, "args": {"name": "python"}},
{"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}})")
                      .arg(rank)
                      .arg(worldSize)
                      .arg(ranks);
    long ts = 1000;
    for (int s = 0; s < 4; ++s) {
        const long launch = ts + 100 + lateUs, corr = 10 + s;
        out += QString::fromUtf8(R"json(,
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%1", "pid": 100, "tid": 100, "ts": %2, "dur": %3},
{"ph": "X", "cat": "cpu_op", "name": "c10d::allreduce_", "pid": 100, "tid": 100, "ts": %4, "dur": 20},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100, "ts": %5, "dur": 5, "args": {"correlation": %6}},
{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", "pid": 0, "tid": 7, "ts": %7, "dur": 50,
 "args": {"correlation": %6, "Collective name": "allreduce", "In msg nelems": 1024, "Out msg nelems": 1024, "Group size": %8, "dtype": "Float", "Process Group Name": "0"}})json")
                   .arg(s)
                   .arg(ts)
                   .arg(stepUs)
                   .arg(launch)
                   .arg(launch + 1)
                   .arg(corr)
                   .arg(launch + 10)
                   .arg(worldSize);
        ts += stepUs + 10;
    }
    out += QStringLiteral("\n]}\n");
    return out.toUtf8();
}

QJsonObject json(const test::CliRun &r) { return QJsonDocument::fromJson(r.out).object(); }

} // namespace

class TestCliJob : public QObject
{
    Q_OBJECT

private slots:
    void summarizeAndOpen()
    {
        QTemporaryDir dir;
        QStringList files;
        // rank 1 is slow (steps 1.5 x), rank 2 enters every allreduce 300 µs late
        for (int r = 0; r < 4; ++r)
            files << test::writeFileIn(dir, QStringLiteral("trace_rank%1.json").arg(r), rankTrace(r, 4, r == 1 ? 1500 : 1000, r == 2 ? 300 : 0));
        files << test::writeFileIn(dir, QStringLiteral("rank9.json"), QByteArray("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": "));
        const QString out = dir.filePath(QStringLiteral("summaries"));
        const test::CliRun r = test::runCli(QStringList{QStringLiteral("summarize")} + files + QStringList{QStringLiteral("-o"), out, QStringLiteral("--jobs"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 2); // one trace failed
        QVERIFY2(r.err.contains("FAILED") && r.err.contains("rank9.json"), r.err.constData());
        QVERIFY2(r.out.contains("summarized 4 of 5 rank traces"), r.out.constData());
        QVERIFY2(r.out.contains("1 failed:"), r.out.constData());
        QStringList written = QDir(out).entryList(QDir::Files);
        written.sort();
        QCOMPARE(written, (QStringList{QStringLiteral("rank-0.summary.json"), QStringLiteral("rank-1.summary.json"),
                                       QStringLiteral("rank-2.summary.json"), QStringLiteral("rank-3.summary.json")}));

        const test::CliRun info = test::runCli({QStringLiteral("info"), out, QStringLiteral("--json")});
        QCOMPARE(info.exitCode, 0);
        const QJsonObject o = json(info);
        QCOMPARE(o[QStringLiteral("format")].toString(), QStringLiteral("job-overview"));
        QCOMPARE(o[QStringLiteral("summaries")].toInt(), 4);
        const QJsonArray jobs = o[QStringLiteral("jobs")].toArray();
        QCOMPARE(jobs.size(), 1);
        const QJsonObject job = jobs[0].toObject();
        QCOMPARE(job[QStringLiteral("world_size")].toInt(), 4);
        QCOMPARE(job[QStringLiteral("stragglers")].toArray(), QJsonArray{1});
        QCOMPARE(job[QStringLiteral("matched")].toInt(), 4);
        QCOMPARE(job[QStringLiteral("unmatched")].toInt(), 0);
        const QJsonArray ranks = job[QStringLiteral("ranks")].toArray();
        QCOMPARE(ranks.size(), 4);
        for (int i = 0; i < 4; ++i) {
            const QJsonObject row = ranks[i].toObject();
            QCOMPARE(row[QStringLiteral("rank")].toInt(), i);
            QCOMPARE(row[QStringLiteral("steps")].toInt(), 4);
            QCOMPARE(row[QStringLiteral("median_step_ns")].toInteger(), qint64(i == 1 ? 1'500'000 : 1'000'000));
            QCOMPARE(row[QStringLiteral("straggler")].toInt(), i == 1 ? 1 : 0);
            QCOMPARE(row[QStringLiteral("trace")].toString(), QStringLiteral("trace_rank%1.json").arg(i));
        }
        // rank 1 (slow) arrives last from step 1 on; rank 2 at step 0 (300 µs vs rank 1's 0)
        const QJsonArray lateness = job[QStringLiteral("lateness")].toArray();
        QCOMPARE(lateness.size(), 4);
        QCOMPARE(lateness[1].toObject()[QStringLiteral("last")].toInt() + lateness[2].toObject()[QStringLiteral("last")].toInt(), 4);
        // the text form and the dedicated command print the same overview
        const test::CliRun text = test::runCli({QStringLiteral("job"), out});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("stragglers: 1\n"), text.out.constData());
        QVERIFY(text.out.contains("collectives: 16 instances, 4 matched across ranks, 0 instances unmatched"));

        // a summary is not a trace: opening it as one says what it is
        const test::CliRun ops = test::runCli({QStringLiteral("ops"), out + QStringLiteral("/rank-0.summary.json")});
        QCOMPARE(ops.exitCode, 2);
        QVERIFY2(ops.err.contains("a rank summary is one rank of a distributed job"), ops.err.constData());
    }

    // --parquet: rank-R.summary.parquet beside each JSON summary, one row each, read by DuckDB (an
    // independent Parquet reader) with one glob; the values are those the traces were written with.
    void summarizeParquet()
    {
        LANESCOPE_REQUIRE_DUCKDB();
        QTemporaryDir dir;
        QStringList files;
        for (int r = 0; r < 4; ++r)
            files << test::writeFileIn(dir, QStringLiteral("trace_rank%1.json").arg(r), rankTrace(r, 4, r == 1 ? 1500 : 1000));
        const QString out = dir.filePath(QStringLiteral("summaries"));
        const test::CliRun r = test::runCli(QStringList{QStringLiteral("summarize")} + files +
                                            QStringList{QStringLiteral("-o"), out, QStringLiteral("--parquet")});
        QCOMPARE(r.exitCode, 0);
        QStringList written = QDir(out).entryList({QStringLiteral("*.parquet")}, QDir::Files);
        written.sort();
        QCOMPARE(written, (QStringList{QStringLiteral("rank-0.summary.parquet"), QStringLiteral("rank-1.summary.parquet"),
                                       QStringLiteral("rank-2.summary.parquet"), QStringLiteral("rank-3.summary.parquet")}));
        const test::DuckResult d = test::duckdb(
            QStringLiteral("SELECT rank, world_size, backend, trace_name, steps, step_median_ns, step_max_ns, step_total_ns, "
                           "collectives, collective_ns, collective_bytes, start_ns "
                           "FROM read_parquet('%1/*.parquet') ORDER BY rank")
                .arg(out));
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QCOMPARE(d.rows.size(), 4);
        // DuckDB gives BIGINT values as exact decimal strings (tests/parquet/duckdb-run.mjs)
        const auto integer = [](const QJsonValue &v) { return v.toString().toLongLong(); };
        for (int i = 0; i < 4; ++i) {
            const QJsonArray row = d.rows[i].toArray();
            const qint64 step = i == 1 ? 1'500'000 : 1'000'000; // rankTrace: 4 steps of stepUs
            QCOMPARE(integer(row[0]), qint64(i));
            QCOMPARE(integer(row[1]), qint64(4));
            QCOMPARE(row[2].toString(), QStringLiteral("nccl"));
            QCOMPARE(row[3].toString(), QStringLiteral("trace_rank%1.json").arg(i));
            QCOMPARE(integer(row[4]), qint64(4));
            QCOMPARE(integer(row[5]), step);
            QCOMPARE(integer(row[6]), step);
            QCOMPARE(integer(row[7]), 4 * step);
            QCOMPARE(integer(row[8]), qint64(4));             // one allreduce kernel per step
            QCOMPARE(integer(row[9]), qint64(4 * 50'000));    // of 50 µs each
            QCOMPARE(integer(row[10]), qint64(4 * 1024 * 4)); // 1024 Float elements of 4 bytes
            QVERIFY(!row[11].isNull());
        }
        // the overview still reads the JSON summaries; the Parquet twins are not "other files"
        const test::CliRun info = test::runCli({QStringLiteral("info"), out, QStringLiteral("--json")});
        QCOMPARE(info.exitCode, 0);
        const QJsonObject o = json(info);
        QCOMPARE(o[QStringLiteral("summaries")].toInt(), 4);
        QCOMPARE(o[QStringLiteral("other_files")].toArray().size(), 0);
    }

    void jobsKeptApart()
    {
        QTemporaryDir dir;
        QStringList files;
        for (int r = 0; r < 2; ++r)
            files << test::writeFileIn(dir, QStringLiteral("a/rank%1.json").arg(r), rankTrace(r, 2, 1000));
        for (int r = 0; r < 3; ++r)
            files << test::writeFileIn(dir, QStringLiteral("b/rank%1.json").arg(r), rankTrace(r, 3, 1000));
        const QString out = dir.filePath(QStringLiteral("summaries"));
        // the same rank numbers twice: the second run's files get the trace's name in theirs
        QCOMPARE(test::runCli({QStringLiteral("summarize"), dir.filePath(QStringLiteral("a")), QStringLiteral("-o"), out}).exitCode, 0);
        QCOMPARE(test::runCli({QStringLiteral("summarize"), dir.filePath(QStringLiteral("b")), QStringLiteral("-o"), out}).exitCode, 0);
        QCOMPARE(QDir(out).entryList(QDir::Files).size(), 5);
        const QJsonObject o = json(test::runCli({QStringLiteral("info"), out, QStringLiteral("--json")}));
        const QJsonArray jobs = o[QStringLiteral("jobs")].toArray();
        QCOMPARE(jobs.size(), 2);
        QCOMPARE(jobs[0].toObject()[QStringLiteral("ranks")].toArray().size() + jobs[1].toObject()[QStringLiteral("ranks")].toArray().size(), 5);
        const QJsonArray warnings = o[QStringLiteral("warnings")].toArray();
        QCOMPARE(warnings.size(), 1);
        const QString w = warnings[0].toString();
        QVERIFY2(w.contains(QStringLiteral("rank summaries of 2 jobs in one folder")) && w.contains(QStringLiteral("world size 2")) &&
                     w.contains(QStringLiteral("world size 3")) && w.contains(QStringLiteral("rank-0.summary.json")) &&
                     w.contains(QStringLiteral("rank-0.rank0.summary.json")),
                 qPrintable(w));
    }
};

QTEST_GUILESS_MAIN(TestCliJob)
#include "tst_clijob.moc"
