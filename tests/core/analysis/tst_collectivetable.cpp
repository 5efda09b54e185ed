// CollectiveTable against the corpus NCCL traces, computed here independently from the files' own
// events: HTA's nccl_parser_config trace (Kineto kernels carrying "Collective name", "In/Out msg
// nelems", "Group size", "dtype", "Process Group Name"): per collective kind, process group and message
// size, the count, total / median / max time and bytes equal; algbw = bytes x count / total time and
// busbw = algbw x nccl-tests' factor. HTA's sampled rank pair (SendRecv kernels without those args):
// the kind from the kernel name, no bytes, one row per rank. Plus the name and dtype rules.
#include "corpus.h"
#include "gzipjson.h"

#include "analysis/collectivetable.h"
#include "io/ranks/multirankloader.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <map>

using namespace lanescope;

using test::loadGzipJson;

class TestCollectiveTable : public QObject
{
    Q_OBJECT

private slots:
    void ncclTrace()
    {
        const QString rel = QStringLiteral("hta/nccl_parser_config__nccl_data.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const QString path = test::corpusFile(rel);
        struct Want
        {
            qint64 count = 0, totalNs = 0, maxNs = 0;
            std::vector<qint64> ns;
            int groupSize = 0;
        };
        std::map<std::tuple<QString, QString, qint64>, Want> want; // (kind, group, bytes)
        const std::map<QString, int> dtypeSize = {{QStringLiteral("Float"), 4}, {QStringLiteral("Long"), 8}, {QStringLiteral("Int"), 4}};
        for (const QJsonValue &v : loadGzipJson(path)[QStringLiteral("traceEvents")].toArray()) {
            const QJsonObject e = v.toObject();
            const QJsonObject a = e[QStringLiteral("args")].toObject();
            if (e[QStringLiteral("cat")].toString() != QLatin1String("kernel") || !a.contains(QStringLiteral("Collective name")))
                continue;
            const QString dtype = a[QStringLiteral("dtype")].toString();
            QVERIFY2(dtypeSize.count(dtype), qPrintable(dtype));
            const qint64 bytes = std::max(a[QStringLiteral("In msg nelems")].toInteger(), a[QStringLiteral("Out msg nelems")].toInteger())
                * dtypeSize.at(dtype);
            Want &w = want[{a[QStringLiteral("Collective name")].toString(), a[QStringLiteral("Process Group Name")].toString(), bytes}];
            const qint64 ns = std::llround(e[QStringLiteral("dur")].toDouble() * 1000.0);
            ++w.count;
            w.totalNs += ns;
            w.maxNs = std::max(w.maxNs, ns);
            w.ns.push_back(ns);
            w.groupSize = a[QStringLiteral("Group size")].toInt();
        }
        QVERIFY(want.size() >= 2);

        const LoadResult loaded = TraceLoader::load(path.toStdString());
        QVERIFY2(loaded.ok(), loaded.error.c_str());
        const CollectiveTableResult r = CollectiveTable::compute(*loaded.trace);
        QCOMPARE(r.rows.size(), want.size());
        QVERIFY(r.perRank.empty()); // one rank's trace
        qint64 instances = 0;
        for (const CollectiveRow &row : r.rows) {
            QVERIFY(row.messageBytes);
            const auto it = want.find({QString::fromStdString(row.kind), QString::fromStdString(row.processGroup), qint64(*row.messageBytes)});
            QVERIFY2(it != want.end(), row.kind.c_str());
            const Want &w = it->second;
            QCOMPARE(qint64(row.count), w.count);
            instances += w.count;
            // the importer reads ts / dur as text (exact ns); the double here may be 1 ns off per event
            QVERIFY2(std::abs(row.totalNs - w.totalNs) <= w.count, row.kind.c_str());
            QVERIFY(std::abs(row.maxNs - w.maxNs) <= 1);
            std::vector<qint64> ns = w.ns;
            std::sort(ns.begin(), ns.end());
            const qint64 med = ns.size() % 2 ? ns[ns.size() / 2] : (ns[ns.size() / 2 - 1] + ns[ns.size() / 2]) / 2;
            QVERIFY(std::abs(row.medianNs - med) <= 1);
            QCOMPARE(row.groupSize, int64_t(w.groupSize));
            const double algbw = double(*row.messageBytes) * double(w.count) * 1e9 / double(row.totalNs);
            QVERIFY(row.algBwBytesPerSec && row.busBwBytesPerSec);
            QCOMPARE(*row.algBwBytesPerSec, algbw);
            const double n = double(w.groupSize);
            const double factor = row.kind == "allreduce" ? 2.0 * (n - 1) / n : 1.0; // allreduce and broadcast here
            QCOMPARE(*row.busBwBytesPerSec, algbw * factor);
        }
        QCOMPARE(qint64(r.instances.size()), instances);
    }

    void sampledRanks()
    {
        const QString a = QStringLiteral("hta/trace_filter__sampled_rank-0.json.gz"), b = QStringLiteral("hta/trace_filter__sampled_rank-1.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(a);
        LANESCOPE_REQUIRE_CORPUS_FILE(b);
        // NCCL kernels per rank file, counted here
        std::vector<qint64> counts;
        for (const QString &rel : {a, b}) {
            qint64 n = 0;
            for (const QJsonValue &v : loadGzipJson(test::corpusFile(rel))[QStringLiteral("traceEvents")].toArray()) {
                const QJsonObject e = v.toObject();
                n += e[QStringLiteral("cat")].toString() == QLatin1String("kernel") && e[QStringLiteral("name")].toString().startsWith(QLatin1String("ncclKernel_SendRecv"));
            }
            counts.push_back(n);
        }
        QVERIFY(counts[0] > 0 && counts[1] > 0);
        LoadOptions o;
        const LoadResult loaded = MultiRankLoader::loadFiles({test::corpusFile(a).toStdString(), test::corpusFile(b).toStdString()}, o);
        QVERIFY2(loaded.ok(), loaded.error.c_str());
        const CollectiveTableResult r = CollectiveTable::compute(*loaded.trace);
        QCOMPARE(r.rows.size(), size_t(1));
        QCOMPARE(r.rows.front().kind, std::string("sendrecv"));
        QVERIFY(!r.rows.front().messageBytes && !r.rows.front().algBwBytesPerSec); // no args: no size
        QCOMPARE(qint64(r.rows.front().count), counts[0] + counts[1]);
        QCOMPARE(r.perRank.size(), size_t(2));
        for (const CollectiveRow &row : r.perRank)
            QCOMPARE(qint64(row.count), counts[size_t(row.rank)]);
        const CollectiveTableResult one = CollectiveTable::compute(*loaded.trace, 1);
        QCOMPARE(qint64(one.instances.size()), counts[1]);
    }

    void rules()
    {
        QCOMPARE(CollectiveTable::kindOfKernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"), std::string("allreduce"));
        QCOMPARE(CollectiveTable::kindOfKernel("ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"), std::string("allgather"));
        QCOMPARE(CollectiveTable::kindOfKernel("ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(x)"), std::string("reduce_scatter"));
        QCOMPARE(CollectiveTable::kindOfKernel("void at::native::vectorized_elementwise_kernel<4>"), std::string());
        QCOMPARE(CollectiveTable::normalizeKind("_allgather_base"), std::string("allgather"));
        QCOMPARE(CollectiveTable::normalizeKind("reduce_scatter_tensor_coalesced"), std::string("reduce_scatter"));
        QCOMPARE(*CollectiveTable::dtypeBytes("BFloat16"), 2);
        QVERIFY(!CollectiveTable::dtypeBytes("Mystery"));
        QCOMPARE(CollectiveTable::busFactor("allreduce", 8), 2.0 * 7 / 8);
        QCOMPARE(CollectiveTable::busFactor("allgather", 4), 3.0 / 4);
        QCOMPARE(CollectiveTable::busFactor("broadcast", 4), 1.0);
    }
};

QTEST_GUILESS_MAIN(TestCollectiveTable)
#include "tst_collectivetable.moc"
