// RankDetection: the rank of a Kineto trace from distributedInfo.rank (as PyTorch writes it, through
// the real importer, or in the head of the text), else from the file name, else the folder name.
#include "io/formats.h"
#include "io/input/inputbuffer.h"
#include "io/ranks/rankdetection.h"
#include "model/trace.h"

#include <QTest>

using namespace lanescope;

class TestRankDetection : public QObject
{
    Q_OBJECT

private slots:
    void fileName_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<qlonglong>("rank");
        QTest::newRow("rank-3") << "out/trace_rank-3.json" << 3LL;
        QTest::newRow("rank_12") << "trace_rank_12.pt.trace.json.gz" << 12LL;
        QTest::newRow("_rank3") << "negative_queue_check__rank3.json.gz" << 3LL;
        QTest::newRow("HTA rank-34") << "hta/cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz" << 34LL;
        QTest::newRow("start") << "rank0.json" << 0LL;
        QTest::newRow("upper case") << "Rank_7.json" << 7LL;
        QTest::newRow("folder ignored") << "rank_5/trace.json" << -1LL;
        QTest::newRow("frank") << "frank3.json" << -1LL;
        QTest::newRow("no digits") << "rank_non_gpu.json" << -1LL;
        QTest::newRow("none") << "worker0.pt.trace.json" << -1LL;
    }
    void fileName()
    {
        QFETCH(QString, path);
        QFETCH(qlonglong, rank);
        QCOMPARE(RankDetection::fromFileName(path.toStdString()), int64_t(rank));
    }

    // The file name first, else the folder holding the file (one level up only).
    void path_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<qlonglong>("rank");
        QTest::addColumn<QString>("source");
        QTest::newRow("file name wins") << "rank_5/trace_rank-2.json" << 2LL << "file name";
        QTest::newRow("rank_3/") << "rank_3/trace.json" << 3LL << "folder name";
        QTest::newRow("rank-3/") << "logs/rank-3/host.pt.trace.json.gz" << 3LL << "folder name";
        QTest::newRow("_rank3/") << "/tmp/job_rank3/trace.json" << 3LL << "folder name";
        QTest::newRow("two up ignored") << "rank_3/host/trace.json" << -1LL << "";
        QTest::newRow("worker3/") << "worker3/trace.json" << -1LL << "";
        QTest::newRow("no folder") << "trace.json" << -1LL << "";
    }
    void path()
    {
        QFETCH(QString, path);
        QFETCH(qlonglong, rank);
        QFETCH(QString, source);
        const RankOrigin o = RankDetection::fromPath(path.toStdString());
        QCOMPARE(o.rank, int64_t(rank));
        QCOMPARE(QString::fromStdString(o.source), source);
    }

    // distributedInfo in the head of the text, as PyTorch writes it (before traceEvents); an object
    // cut off at the end of the head does not count.
    void head()
    {
        const std::string text = R"({
  "schemaVersion": 1,
  "distributedInfo": {"backend": "nccl", "rank": 5, "world_size": 8, "pg_count": 1, "pg_config": [{"pg_name": "0", "ranks": [0, 1, 2]}]},
  "traceEvents": [)";
        QCOMPARE(RankDetection::fromHead(text), int64_t(5));
        QCOMPARE(RankDetection::fromHead(text.substr(0, text.find("\"pg_config\""))), int64_t(-1));
        QCOMPARE(RankDetection::fromHead(R"({"traceEvents": []})"), int64_t(-1));
    }

    void distributedInfo()
    {
        QCOMPARE(RankDetection::fromDistributedInfo(R"({"backend": "nccl", "rank": 1, "world_size": 128})"), int64_t(1));
        QCOMPARE(RankDetection::fromDistributedInfo(R"({"rank": "6"})"), int64_t(6));
        // pg_config lists "ranks": only the object's own "rank" counts
        QCOMPARE(RankDetection::fromDistributedInfo(R"({"backend": "gloo", "rank": 34, "pg_config": [{"ranks": [0, 1]}]})"), int64_t(34));
        QCOMPARE(RankDetection::fromDistributedInfo(R"({"backend": "nccl"})"), int64_t(-1));
        QCOMPARE(RankDetection::fromDistributedInfo(R"({"rank": -2})"), int64_t(-1));
        // past int64: no rank (the conversion of such a double to int64_t would be undefined)
        QCOMPARE(RankDetection::fromDistributedInfo(R"({"rank": 7203685477580807758080})"), int64_t(-1));
        QCOMPARE(RankDetection::fromDistributedInfo(R"({"rank": 9223372036854775808})"), int64_t(-1));
        QCOMPARE(RankDetection::fromDistributedInfo(R"({"rank": 1e300})"), int64_t(-1));
        QCOMPARE(RankDetection::fromDistributedInfo(R"({"rank": 4611686018427387904})"), int64_t(4611686018427387904));
        QCOMPARE(RankDetection::fromDistributedInfo("not json"), int64_t(-1));
    }

    // Through the real importer: distributedInfo wins over the name; without it the name decides.
    void detect()
    {
        const std::string json = R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 2, "world_size": 4},
  "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 10, "dur": 5}]})";
        const std::string bare = R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 10, "dur": 5}]})";
        auto import = [](const std::string &text, const std::string &name) {
            InputBuffer in = InputBuffer::fromBytes(text, name, {});
            return Formats::info(FileFormat::ChromeJson).import(in, name, {});
        };
        const Trace a = import(json, "trace_rank_9.json");
        const RankOrigin ra = RankDetection::detect(a, "trace_rank_9.json");
        QCOMPARE(ra.rank, int64_t(2));
        QCOMPARE(ra.source, std::string("distributedInfo.rank"));
        const Trace b = import(bare, "dir/trace_rank_9.json");
        const RankOrigin rb = RankDetection::detect(b, "dir/trace_rank_9.json");
        QCOMPARE(rb.rank, int64_t(9));
        QCOMPARE(rb.source, std::string("file name"));
        QVERIFY(!RankDetection::detect(b, "trace.json").found());
    }
};

QTEST_GUILESS_MAIN(TestRankDetection)
#include "tst_rankdetection.moc"
