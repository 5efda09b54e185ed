// TensorTable against neuron-profile itself: on every corpus JSON, the tensors equal neff_node's rows
// (name, type, format, shape, size) and the load-to-SBUF numbers equal its load_to_sbuf_* fields; the
// packet counts and bytes equal a count of the JSON's own dma rows made here; slicesOf finds every DMA
// of a tensor. A hand-written export without neff_node (older profiler versions) lists the tensors its
// DMA rows name and says what is missing.
#include "neuronprofilecorpus.h"

#include "analysis/tensortable.h"
#include "io/neff/neffreader.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace lanescope;

namespace {

const TensorRow *rowNamed(const TensorTableResult &r, const QString &name)
{
    for (const TensorRow &row : r.rows)
        if (QString::fromStdString(row.name) == name)
            return &row;
    return nullptr;
}

} // namespace

class TestTensorTable : public QObject
{
    Q_OBJECT

private slots:
    void neffNode_data();
    void neffNode();
    void withoutNeffNode();
    void profileFolderNeffVariables();
};

void TestTensorTable::neffNode_data()
{
    QTest::addColumn<QString>("input");
    for (const QString &j : test::neuronProfileJsons())
        QTest::newRow(qPrintable(QFileInfo(j).fileName())) << j;
}

void TestTensorTable::neffNode()
{
    LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-profile-json"));
    QFETCH(QString, input);
    const QJsonObject doc = test::jsonObjectOf(input);
    const LoadResult loaded = TraceLoader::load(input.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const TensorTableResult r = TensorTable::compute(*loaded.trace);
    QVERIFY(r.listedAny);
    QVERIFY(r.note.empty());

    // packets per tensor, from the dma rows themselves
    std::map<QString, std::pair<qint64, qint64>> packets, transfers; // name -> (count, bytes)
    for (const QJsonValue &v : doc[QStringLiteral("dma")].toArray()) {
        const QJsonObject d = v.toObject();
        const QString name = d[QStringLiteral("variable")].toString();
        if (name.isEmpty() || name == QLatin1String("unknown"))
            continue;
        auto &p = d[QStringLiteral("aggregated")].toString() == QLatin1String("no") ? packets[name] : transfers[name];
        ++p.first;
        p.second += d[QStringLiteral("transfer_size")].toInteger();
    }
    QVERIFY(!packets.empty());

    int withLoads = 0;
    size_t listed = 0;
    for (const QJsonValue &v : doc[QStringLiteral("neff_node")].toArray()) {
        const QJsonObject n = v.toObject();
        const QString name = n[QStringLiteral("variable_name")].toString();
        if (name.isEmpty())
            continue;
        ++listed;
        const TensorRow *row = rowNamed(r, name);
        QVERIFY2(row, qPrintable(name));
        QVERIFY(row->listed);
        QCOMPARE(QString::fromStdString(row->type), n[QStringLiteral("type")].toString());
        QCOMPARE(QString::fromStdString(row->format), n[QStringLiteral("format")].toString());
        QCOMPARE(QString::fromStdString(row->shape), n[QStringLiteral("shape")].toString());
        QVERIFY(row->sizeBytes);
        QCOMPARE(qint64(*row->sizeBytes), n[QStringLiteral("size")].toString().toLongLong());
        QCOMPARE(qint64(row->packets), packets[name].first);
        QCOMPARE(qint64(row->packetBytes), packets[name].second);
        QCOMPARE(qint64(row->transfers), transfers[name].first);
        QCOMPARE(qint64(row->transferBytes), transfers[name].second);
        QCOMPARE(TensorTable::slicesOf(*loaded.trace, name.toStdString()).size(), size_t(row->packets + row->transfers));
        if (n.contains(QStringLiteral("load_to_sbuf_dma_count"))) {
            ++withLoads;
            QCOMPARE(qint64(row->loadToSbufCount), n[QStringLiteral("load_to_sbuf_dma_count")].toInteger());
            QCOMPARE(qint64(row->loadToSbufBytes), n[QStringLiteral("load_to_sbuf_total_size_bytes")].toInteger());
            QVERIFY(row->loadToSbufAvgBytes && row->repeatFactor);
            QCOMPARE(*row->loadToSbufAvgBytes, n[QStringLiteral("load_to_sbuf_avg_size_bytes")].toDouble());
            QCOMPARE(*row->repeatFactor, n[QStringLiteral("load_to_sbuf_repeat_factor")].toDouble());
            QVERIFY(!row->bytesByDirection.empty());
        } else {
            QCOMPARE(row->loadToSbufCount, uint64_t(0)); // IN / OUT tensors: no load to SBUF reported or found
            QVERIFY(!row->loadToSbufAvgBytes);
        }
    }
    QVERIFY(withLoads > 0);
    // every tensor the dma rows name is in neff_node on the corpus: no extra rows
    QCOMPARE(r.rows.size(), listed);
}

void TestTensorTable::withoutNeffNode()
{
    const QByteArray text = R"({"instruction":[{"timestamp":0,"duration":10,"pc":1,"opcode":"NOP","subgroup":"Sync","label":"Sync"}],
"dma":[{"timestamp":1,"duration":4,"dma_engine":"0","dma_queue":"1","transfer_size":64,"aggregated":"no","variable":"w","source":[["WEIGHT"]],"dest":["SB"],"subgroup":"qW-Q1-E0"},
{"timestamp":5,"duration":4,"dma_engine":"0","dma_queue":"1","transfer_size":64,"aggregated":"no","variable":"unknown","source":[["unknown"]],"dest":["unknown"],"subgroup":"qW-Q1-E0"},
{"timestamp":1,"duration":8,"dma_engine":"0","dma_queue":"1","transfer_size":128,"aggregated":"yes","variable":"w","source":[["WEIGHT"]],"dest":["SB"],"subgroup":"qW"}]})";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
    f.close();
    const LoadResult loaded = TraceLoader::load(path.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const TensorTableResult r = TensorTable::compute(*loaded.trace);
    QVERIFY(!r.listedAny);
    QVERIFY(QString::fromStdString(r.note).contains(QLatin1String("no neff_node")));
    QCOMPARE(r.rows.size(), size_t(1)); // "unknown" is no tensor
    const TensorRow &w = r.rows.front();
    QVERIFY(!w.listed);
    QCOMPARE(w.packets, uint64_t(1));
    QCOMPARE(w.transfers, uint64_t(1));
    QCOMPARE(w.loadToSbufBytes, uint64_t(128));
    QVERIFY(!w.repeatFactor); // no size without neff_node
    QCOMPARE(TensorTable::directionsText(w), std::string("WEIGHT -> SB: 128 B"));
    QCOMPARE(TensorTable::slicesOf(*loaded.trace, "w").size(), size_t(2));
}

// An NTFF + NEFF pair in a profile folder: the tensors are the NEFF's variables, names, shapes, sizes
// and dtypes equal to NeffReader's, one row per variable of each paired NEFF.
void TestTensorTable::profileFolderNeffVariables()
{
    const QString rel = QStringLiteral("neuron-cs149-asst4");
    LANESCOPE_REQUIRE_CORPUS_FILE(rel + QStringLiteral("/stream_256k_fd1k.neff"));
    const LoadResult loaded = TraceLoader::load(test::corpusFile(rel).toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const TensorTableResult r = TensorTable::compute(*loaded.trace);
    QVERIFY(r.fromNeff);
    QVERIFY(!r.note.empty());
    size_t want = 0;
    for (const char *stem : {"stream_256k_fd1k", "stream_256k_fd2k"}) {
        const NeffInfo neff = NeffReader::read(test::corpusFile(rel + QLatin1Char('/') + QLatin1String(stem) + QLatin1String(".neff")).toStdString(), {});
        QCOMPARE(neff.subgraphs.size(), size_t(1));
        for (const NeffVariable &v : neff.subgraphs.front().variables) {
            ++want;
            const TensorRow *row = nullptr;
            for (const TensorRow &t : r.rows)
                if (t.name == v.name && t.program == std::string(stem) + ".neff")
                    row = &t;
            QVERIFY2(row, v.name.c_str());
            QCOMPARE(row->type, v.type);
            QCOMPARE(row->format, v.dtype);
            QCOMPARE(row->sizeBytes.has_value(), v.hasSize);
            if (v.hasSize)
                QCOMPARE(*row->sizeBytes, v.size);
            std::string shape;
            for (int64_t d : v.shape)
                shape += (shape.empty() ? "" : " ") + std::to_string(d);
            QCOMPARE(row->shape, v.shape.empty() ? std::string() : "[" + shape + "]");
            QCOMPARE(row->packets, uint64_t(0)); // the NTFF names no tensor on its DMAs
        }
    }
    QVERIFY(want >= 6);
    QCOMPARE(r.rows.size(), want);
}

QTEST_GUILESS_MAIN(TestTensorTable)
#include "tst_tensortable.moc"
