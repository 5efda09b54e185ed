// MemoryReport against neuron-profile's own fields on every corpus JSON: static memory equal to
// nc_mem_usage row by row, traffic equal to the summary's byte fields, MBU / MFU / HFU equal to its
// *_estimated_percent (fractions there, percent here), and the usage / throughput counters' peaks and
// sample counts equal to instruction_usage / dma_throughput counted here. The NTFF it was exported from
// has the static memory only. A hand-written export without those sections gives an empty report.
#include "neuronprofilecorpus.h"

#include "analysis/memoryreport.h"
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

const MemoryReport::Counter *counterNamed(const MemoryReport &r, const char *name)
{
    for (const auto &c : r.counters)
        if (c.name == name)
            return &c;
    return nullptr;
}

} // namespace

class TestMemoryReport : public QObject
{
    Q_OBJECT

private slots:
    void groundTruth_data();
    void groundTruth();
    void missingSections();
};

void TestMemoryReport::groundTruth_data()
{
    QTest::addColumn<QString>("input");
    for (const QString &j : test::neuronProfileJsons())
        QTest::newRow(qPrintable(QFileInfo(j).fileName())) << j;
}

void TestMemoryReport::groundTruth()
{
    LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-profile-json"));
    QFETCH(QString, input);
    const QJsonObject doc = test::jsonObjectOf(input);
    const QJsonObject summary = doc[QStringLiteral("summary")].toArray().at(0).toObject();
    const LoadResult loaded = TraceLoader::load(input.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const MemoryReport r = MemoryReport::compute(*loaded.trace);

    const QJsonArray usage = doc[QStringLiteral("nc_mem_usage")].toArray();
    QVERIFY(!usage.isEmpty());
    QCOMPARE(qsizetype(r.staticMemory.size()), usage.size());
    for (qsizetype i = 0; i < usage.size(); ++i) {
        QCOMPARE(QString::fromStdString(r.staticMemory[size_t(i)].category), usage[i].toObject()[QStringLiteral("usage_type")].toString());
        QCOMPARE(qint64(r.staticMemory[size_t(i)].bytes), usage[i].toObject()[QStringLiteral("amount_bytes")].toInteger());
    }
    QCOMPARE(r.traffic.size(), size_t(8));
    for (const MemoryReport::Traffic &t : r.traffic) {
        QVERIFY2(t.bytes, t.key);
        QCOMPARE(*t.bytes, summary[QLatin1String(t.key)].toDouble());
    }
    QVERIFY(r.hasTraffic());
    QVERIFY(r.mbuPercent && r.mfuPercent && r.hfuPercent);
    QCOMPARE(*r.mbuPercent, 100.0 * summary[QStringLiteral("mbu_estimated_percent")].toDouble());
    QCOMPARE(*r.mfuPercent, 100.0 * summary[QStringLiteral("mfu_estimated_percent")].toDouble());
    QCOMPARE(*r.hfuPercent, 100.0 * summary[QStringLiteral("hfu_estimated_percent")].toDouble());

    // counters: per memory and partition group (PSUM: per bank), the largest value and the number of rows
    std::map<QString, std::pair<double, qint64>> want; // counter name -> (peak, samples)
    const auto note = [&want](const QString &name, double v) {
        auto [it, added] = want.try_emplace(name, v, 0);
        it->second.first = std::max(it->second.first, v);
        ++it->second.second;
    };
    for (const QJsonValue &v : doc[QStringLiteral("instruction_usage")].toArray()) {
        const QJsonObject u = v.toObject();
        const QString memory = u[QStringLiteral("type")].toString() == QLatin1String("sb") ? QStringLiteral("SBUF") : QStringLiteral("PSUM");
        for (auto it = u.begin(); it != u.end(); ++it) {
            if (it.key() == QLatin1String("usage_avg"))
                note(memory + QLatin1String(" usage (average)"), it.value().toDouble());
            else if (it.key().startsWith(QLatin1String("partition_"))) {
                const int first = it.key().mid(10).section(QLatin1Char('_'), 0, 0).toInt();
                note(memory + QStringLiteral(" usage (partitions %1-%2)").arg(first).arg(first + 31), it.value().toDouble());
            } else if (it.key().startsWith(QLatin1String("bank_"))) { // PSUM rows: bank_N_usage
                note(memory + QStringLiteral(" usage (bank %1)").arg(it.key().mid(5).section(QLatin1Char('_'), 0, 0)), it.value().toDouble());
            }
        }
    }
    for (const QJsonValue &v : doc[QStringLiteral("dma_throughput")].toArray()) {
        note(QStringLiteral("DMA throughput"), v.toObject()[QStringLiteral("transfer_rate")].toDouble());
        note(QStringLiteral("HBM throughput"), v.toObject()[QStringLiteral("hbm_transfer_rate")].toDouble());
    }
    QVERIFY(want.size() >= 4);
    QCOMPARE(r.counters.size(), want.size());
    for (const auto &[name, w] : want) {
        const MemoryReport::Counter *c = counterNamed(r, name.toUtf8().constData());
        QVERIFY2(c, qPrintable(name));
        QCOMPARE(c->peak, w.first);
        QCOMPARE(qint64(c->samples), w.second);
        QVERIFY(c->mean >= 0 && c->mean <= c->peak);
    }
    QCOMPARE(QString::fromStdString(counterNamed(r, "SBUF usage (average)")->unit), QStringLiteral("fraction"));

    // The NTFF it was exported from: the static memory table only (the NTFF has no summary).
    const QString ntff = input.chopped(5) + QLatin1String(".ntff");
    if (QFile::exists(ntff)) {
        const LoadResult n = TraceLoader::load(ntff.toStdString());
        QVERIFY2(n.ok(), n.error.c_str());
        const MemoryReport m = MemoryReport::compute(*n.trace);
        QVERIFY(!m.hasTraffic() && !m.mbuPercent && m.counters.empty());
        QVERIFY(!m.staticMemory.empty());
    }
}

void TestMemoryReport::missingSections()
{
    const QByteArray text = R"({"instruction":[{"timestamp":0,"duration":10,"pc":1,"opcode":"NOP","subgroup":"Sync","label":"Sync"}],
"summary":[{"total_time":0.00001}],"instruction_usage":[{"timestamp":3,"type":"sb"},{"type":"sb","usage_avg":0.5}]})";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
    f.close();
    const LoadResult loaded = TraceLoader::load(path.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const MemoryReport r = MemoryReport::compute(*loaded.trace);
    QVERIFY(r.empty());
    QCOMPARE(r.traffic.size(), size_t(8)); // listed, without values
    QVERIFY(!r.traffic.front().bytes);
    // the row without a timestamp is counted
    QCOMPARE(loaded.trace->diagnostics().count("instruction_usage rows without a valid \"timestamp\" (expected integer ns; skipped)"), uint64_t(1));
}

QTEST_GUILESS_MAIN(TestMemoryReport)
#include "tst_memoryreport.moc"
