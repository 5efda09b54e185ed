// EngineBreakdown: ground truth from neuron-profile itself for every NTFF/JSON pair of the corpus (both
// inputs), time ranges that add up, and hand-built traces for the edge cases (overlap, waits, clipping,
// zero-length instructions, lane aliases, idle gaps, buckets).
//
// Tolerance, from the export's rounding only: neuron-profile computes its totals in picoseconds
// (summary values are seconds with ps resolution; layer_summary[0] is the same in whole ns, floored),
// while an instruction row carries floor(start) and floor(duration) in ns, the same numbers our trace
// holds for both the NTFF and the JSON input. So, per engine:
//   instruction time: every row's duration is floored, 0 <= ps_total - our_sum < 1 ns per row;
//   active time: each merged interval's start moves down by < 1 ns and its end by < 2 ns, so
//                -1 ns < difference < 2 ns per merged interval (active interval count).
// neuron-profile's *_percent fields are fractions (active / total_time), ours are percent.
#include "corpus.h"

#include "analysis/enginebreakdown.h"
#include "io/traceloader.h"
#include "model/tracebuilder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <map>

using namespace lanescope;

namespace {

QJsonObject loadJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

const EngineBreakdownRow *rowOf(const EngineBreakdownResult &r, NeuronEngine e)
{
    for (const auto &row : r.engines)
        if (row.engine == e)
            return &row;
    return nullptr;
}

QString key(NeuronEngine e, const char *suffix)
{
    return QString::fromUtf8(EngineBreakdown::engineName(e)).toLower() + QLatin1String("_engine_") + QLatin1String(suffix);
}

// A trace with one NeuronCore and the given lanes: (lane, start, duration, opcode).
struct Instr
{
    const char *lane;
    int64_t start, duration;
    const char *opcode;
};

Trace buildTrace(const std::vector<Instr> &instrs, const std::vector<std::pair<int64_t, int64_t>> &dma = {},
                 int64_t dmaBytes = 0)
{
    TraceBuilder b;
    const GroupId dev = b.addGroup(GroupKind::Device, b.intern("device"));
    const GroupId core = b.addGroup(GroupKind::NeuronCore, b.intern("NeuronCore 0"), dev);
    std::map<std::string, TrackId> lanes;
    const StringId cat = b.intern("instruction");
    for (const Instr &i : instrs) {
        auto [it, added] = lanes.try_emplace(i.lane);
        if (added)
            it->second = b.addTrack(core, TrackKind::Async, b.intern(i.lane));
        b.addSlice(it->second, i.start, i.duration, b.intern(i.opcode), cat);
    }
    if (!dma.empty()) {
        const TrackId q = b.addTrack(core, TrackKind::Async, b.intern("qTest-Q1-E0"));
        const StringId kSize = b.intern("transfer_size");
        for (const auto &[s, d] : dma) {
            const std::array<Arg, 1> args = {Arg::makeInt(kSize, dmaBytes)};
            b.addSlice(q, s, d, b.intern("DMA packet"), b.intern("dma"), b.addArgs(args));
        }
    }
    return b.finish();
}

} // namespace

class TestEngineBreakdown : public QObject
{
    Q_OBJECT

private slots:
    void groundTruth_data();
    void groundTruth();
    void rangesAddUp_data();
    void rangesAddUp();
    void edgeCases_data();
    void edgeCases();
    void laneAliases();
    void idleGapsAndBuckets();
    void dmaQueue();
    void noNeuronCore();
    void trn2SummaryText();
};

void TestEngineBreakdown::groundTruth_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("truth");
    const QString dir = test::corpusFile(QStringLiteral("neuron-profile-json"));
    if (dir.isEmpty() || !QDir(dir).exists())
        return;
    const QStringList jsons = QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString &j : jsons) {
        const QString base = j.chopped(5);
        const QString truth = dir + QLatin1Char('/') + j;
        QTest::newRow(qPrintable(base + QLatin1String(".json"))) << truth << truth;
        if (QFile::exists(dir + QLatin1Char('/') + base + QLatin1String(".ntff")))
            QTest::newRow(qPrintable(base + QLatin1String(".ntff"))) << dir + QLatin1Char('/') + base + QLatin1String(".ntff") << truth;
    }
    // trn2 (two physical cores, NTFF v6, profiler 2.28): numbers per logical core, both cores together
    const QDir v6(test::corpusFile(QStringLiteral("neuron-trn2-v6")));
    for (const QString &kernel : v6.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QDir k(v6.filePath(kernel));
        for (const QString &f : k.entryList({QStringLiteral("*.ntff")}, QDir::Files, QDir::Name)) {
            const QString json = k.filePath(f.chopped(5) + QLatin1String("_profile_full.json"));
            QTest::newRow(qPrintable(kernel + QLatin1Char('/') + f)) << k.filePath(f) << json;
            // the export itself: the same numbers, and MFU / HFU from its FLOP counts (2.28: no HLO stats,
            // MFU from hardware_flops - transpose_flops) over both physical cores' peak (157.3 TFLOP/s)
            QTest::newRow(qPrintable(kernel + QLatin1Char('/') + QFileInfo(json).fileName())) << json << json;
        }
    }
}

void TestEngineBreakdown::groundTruth()
{
    LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-profile-json"));
    QFETCH(QString, input);
    QFETCH(QString, truth);
    const QJsonObject t = loadJson(truth);
    QVERIFY2(!t.isEmpty(), qPrintable(truth));
    const QJsonObject summary = t[QStringLiteral("summary")].toArray().at(0).toObject();
    // model_info: one row per physical core (two on trn2), counts add up to the logical core's
    const QJsonArray modelInfos = t[QStringLiteral("model_info")].toArray();
    const auto modelInfoCount = [&](NeuronEngine e) {
        qint64 n = 0;
        for (const auto &v : modelInfos)
            n += v.toObject()[key(e, "instruction_count")].toInteger();
        return n;
    };
    const bool oneCore = modelInfos.size() == 1;
    QJsonObject layer; // the whole-subgraph row of layer_summary (name == fully_qualified_subgraph)
    for (const auto &v : t[QStringLiteral("layer_summary")].toArray())
        if (v.toObject()[QStringLiteral("name")] == v.toObject()[QStringLiteral("fully_qualified_subgraph")])
            layer = v.toObject();
    // (2.28 writes a layer_summary per physical core: the whole-core rows are checked on one-core files)
    QVERIFY(!summary.isEmpty() && !modelInfos.isEmpty() && (!oneCore || !layer.isEmpty()));

    const LoadResult loaded = TraceLoader::load(input.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const EngineBreakdownResult r = EngineBreakdown::compute(*loaded.trace);
    QCOMPARE(r.cores.size(), size_t(1));
    QVERIFY(r.wholeTrace);
    const double totalNs = summary[QStringLiteral("total_time")].toDouble() * 1e9;
    QCOMPARE(r.denominatorSource, std::string("recorded total time"));
    QCOMPARE(r.denominatorNs, int64_t(std::llround(totalNs)));

    for (int ei = 0; ei < kNeuronEngineCount; ++ei) {
        const NeuronEngine e = NeuronEngine(ei);
        const EngineBreakdownRow *row = rowOf(r, e);
        QVERIFY2(row, EngineBreakdown::engineName(e).data());
        const QByteArray what = input.toUtf8() + ' ' + EngineBreakdown::engineName(e).data();
        QCOMPARE(qint64(row->instructionCount), modelInfoCount(e));
        QCOMPARE(qint64(row->instructionCount), summary[key(e, "instruction_count")].toInteger());

        const int64_t rows = int64_t(row->instructionCount - row->semaphoreWaitCount);
        const double instrPs = summary[key(e, "instruction_time")].toDouble() * 1e9;
        const double instrDiff = instrPs - double(row->instructionTimeNs);
        QVERIFY2(instrDiff > -1e-3 && instrDiff < double(rows), what + " instruction time " + QByteArray::number(instrDiff));
        const int64_t layerInstr = layer[key(e, "instruction_time")].toInteger();
        QVERIFY2(!oneCore || (layerInstr >= row->instructionTimeNs && layerInstr < row->instructionTimeNs + rows), what);

        const double m = double(row->activeIntervalCount);
        const double activePs = summary[key(e, "active_time")].toDouble() * 1e9;
        const double activeDiff = activePs - double(row->activeTimeNs);
        QVERIFY2(activeDiff > -m && activeDiff < 2 * m, what + " active time " + QByteArray::number(activeDiff));
        const double layerActiveDiff = double(layer[key(e, "active_time")].toInteger() - row->activeTimeNs);
        QVERIFY2(!oneCore || (layerActiveDiff > -m - 1 && layerActiveDiff < 2 * m), what);
        // Percent: the same bound, over total_time.
        const double theirFraction = summary[key(e, "active_time_percent")].toDouble();
        QVERIFY2(std::abs(row->activePercent / 100.0 - theirFraction) * totalNs < 2 * m + 1, what + " active percent");
        QVERIFY(row->instructionTimeNs >= row->activeTimeNs);
        QCOMPARE(row->idleTimeNs, (r.endNs - r.startNs) - row->activeTimeNs);
    }

    // DMA, all queues together: bytes are exact, active time within the packet rows' rounding.
    const CoreBreakdown &core = r.cores.front();
    const qint64 bytes = summary[QStringLiteral("static_dma_size")].toInteger()
        + summary[QStringLiteral("software_dynamic_dma_size")].toInteger()
        + summary[QStringLiteral("hardware_dynamic_dma_size")].toInteger();
    QCOMPARE(qint64(core.dmaBytes), bytes);
    uint64_t queueBytes = 0;
    for (const auto &q : r.dma)
        queueBytes += q.bytes;
    QCOMPARE(queueBytes, core.dmaBytes);
    const double dmaDiff = summary[QStringLiteral("dma_active_time")].toDouble() * 1e9 - double(core.dmaActiveTimeNs);
    const double dm = double(core.dmaActiveIntervalCount);
    QVERIFY2(dmaDiff > -dm && dmaDiff < 2 * dm, qPrintable(QStringLiteral("DMA active %1").arg(dmaDiff)));

    // MFU / HFU: only the JSON export carries the FLOP counts.
    if (input.endsWith(QLatin1String(".json"))) {
        QVERIFY(core.mfuPercent && core.hfuPercent);
        const double mfu = summary[QStringLiteral("mfu_estimated_percent")].toDouble();
        const double hfu = summary[QStringLiteral("hfu_estimated_percent")].toDouble();
        QVERIFY2(std::abs(*core.mfuPercent / 100.0 - mfu) <= 1e-6 * mfu, qPrintable(QString::number(*core.mfuPercent)));
        QVERIFY2(std::abs(*core.hfuPercent / 100.0 - hfu) <= 1e-6 * hfu, qPrintable(QString::number(*core.hfuPercent)));
        // the peak of the logical core: per physical core 2 x 128 x 128 x the Tensor clock (2.8 GHz inf2, 2.4 trn2)
        QCOMPARE(core.peakFlopsPerSec, double(modelInfos.size()) * 2.0 * 128 * 128 * (oneCore ? 2.8e9 : 2.4e9));
    } else {
        QVERIFY(!core.mfuPercent && !core.hfuPercent);
        QVERIFY(!core.flopsNote.empty());
    }
}

void TestEngineBreakdown::rangesAddUp_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("v5 ntff") << QStringLiteral("neuron-profile-json/profile_128x128x1024.ntff");
    QTest::newRow("v5 json") << QStringLiteral("neuron-profile-json/profile_bucketed_128x128x128.json");
    QTest::newRow("v4 ntff") << QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff");
}

// Clipped quantities are additive: [a, c] = [a, b] + [b, c] for times; counts double only for
// instructions that straddle b.
void TestEngineBreakdown::rangesAddUp()
{
    QFETCH(QString, file);
    LANESCOPE_REQUIRE_CORPUS_FILE(file);
    const LoadResult loaded = TraceLoader::load(test::corpusFile(file).toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const EngineBreakdownResult whole = EngineBreakdown::compute(*loaded.trace);
    QVERIFY(!whole.engines.empty());
    const int64_t a = whole.startNs, c = whole.endNs;
    for (const int64_t b : {a + (c - a) / 3, a + (c - a) / 2, c - 1000}) {
        EngineBreakdown::Options o1, o2, o3;
        o1.startNs = a, o1.endNs = b;
        o2.startNs = b, o2.endNs = c;
        o3.startNs = a, o3.endNs = c;
        const auto left = EngineBreakdown::compute(*loaded.trace, o1), right = EngineBreakdown::compute(*loaded.trace, o2),
                   all = EngineBreakdown::compute(*loaded.trace, o3);
        QVERIFY(!left.wholeTrace && left.denominatorNs == b - a);
        QCOMPARE(all.engines.size(), whole.engines.size());
        for (size_t i = 0; i < whole.engines.size(); ++i) {
            QCOMPARE(all.engines[i].instructionTimeNs, whole.engines[i].instructionTimeNs);
            QCOMPARE(all.engines[i].activeTimeNs, whole.engines[i].activeTimeNs);
            QCOMPARE(all.engines[i].instructionCount, whole.engines[i].instructionCount);
            QCOMPARE(left.engines[i].instructionTimeNs + right.engines[i].instructionTimeNs, whole.engines[i].instructionTimeNs);
            QCOMPARE(left.engines[i].activeTimeNs + right.engines[i].activeTimeNs, whole.engines[i].activeTimeNs);
            QVERIFY(left.engines[i].instructionCount + right.engines[i].instructionCount >= whole.engines[i].instructionCount);
            QCOMPARE(left.engines[i].idleTimeNs + right.engines[i].idleTimeNs, whole.engines[i].idleTimeNs);
        }
        for (size_t i = 0; i < whole.dma.size(); ++i)
            QCOMPARE(left.dma[i].activeTimeNs + right.dma[i].activeTimeNs, whole.dma[i].activeTimeNs);
    }
}

void TestEngineBreakdown::edgeCases_data()
{
    QTest::addColumn<qint64>("t0");
    QTest::addColumn<qint64>("t1");
    QTest::addColumn<qint64>("count");
    QTest::addColumn<qint64>("instructionTime");
    QTest::addColumn<qint64>("activeTime");
    QTest::addColumn<qint64>("waits");
    // Tensor lanes: MATMUL 100..200 and 150..250 overlap (TensorMatrix + Tensor), a wait 300..900,
    // a zero-length NOP at 1000, DRAIN 1000..1100.
    QTest::newRow("whole") << qint64(0) << qint64(2000) << qint64(5) << qint64(300) << qint64(250) << qint64(1);
    QTest::newRow("clip into overlap") << qint64(175) << qint64(2000) << qint64(5) << qint64(200) << qint64(175) << qint64(1);
    QTest::newRow("only the wait") << qint64(400) << qint64(800) << qint64(1) << qint64(0) << qint64(0) << qint64(1);
    QTest::newRow("zero-length at edge") << qint64(1000) << qint64(1000) << qint64(1) << qint64(0) << qint64(0) << qint64(0);
    QTest::newRow("touching end excluded") << qint64(250) << qint64(300) << qint64(0) << qint64(0) << qint64(0) << qint64(0);
    QTest::newRow("empty before") << qint64(-500) << qint64(-100) << qint64(0) << qint64(0) << qint64(0) << qint64(0);
}

void TestEngineBreakdown::edgeCases()
{
    QFETCH(qint64, t0);
    QFETCH(qint64, t1);
    QFETCH(qint64, count);
    QFETCH(qint64, instructionTime);
    QFETCH(qint64, activeTime);
    QFETCH(qint64, waits);
    const Trace trace = buildTrace({{"TensorMatrix", 100, 100, "MATMUL"},
                                    {"Tensor", 150, 100, "LDWEIGHTS"},
                                    {"Tensor", 300, 600, "EVENT_SEMAPHORE"},
                                    {"Tensor", 1000, 0, "NOP"},
                                    {"Tensor", 1000, 100, "DRAIN"}});
    EngineBreakdown::Options o;
    o.startNs = t0;
    o.endNs = t1;
    const EngineBreakdownResult r = EngineBreakdown::compute(trace, o);
    QCOMPARE(r.engines.size(), size_t(1));
    const EngineBreakdownRow &row = r.engines.front();
    QCOMPARE(row.engine, NeuronEngine::Tensor);
    QCOMPARE(row.tracks.size(), size_t(2));
    QCOMPARE(qint64(row.instructionCount), count);
    QCOMPARE(qint64(row.instructionTimeNs), instructionTime);
    QCOMPARE(qint64(row.activeTimeNs), activeTime);
    QCOMPARE(qint64(row.semaphoreWaitCount), waits);
    QCOMPARE(row.idleTimeNs, (t1 - t0) - activeTime);
    if (t1 > t0)
        QCOMPARE(row.activePercent, 100.0 * double(activeTime) / double(t1 - t0));
    int64_t opTime = 0;
    for (const auto &op : row.topOpcodes) {
        QVERIFY(!EngineBreakdown::isSemaphoreWait(op.opcode));
        opTime += op.timeNs;
    }
    QCOMPARE(opTime, instructionTime);
}

void TestEngineBreakdown::laneAliases()
{
    const Trace trace = buildTrace({{"PE", 0, 10, "MATMUL"},
                                    {"ACT", 0, 20, "ACTIVATE"},
                                    {"DVE", 0, 30, "op 0x41"},
                                    {"Pool", 0, 40, "TENSOR_LOAD"},
                                    {"SP", 0, 50, "WRITE"},
                                    {"Thread 7", 0, 60, "not an engine"}});
    const EngineBreakdownResult r = EngineBreakdown::compute(trace);
    QCOMPARE(r.engines.size(), size_t(5));
    const std::array<int64_t, kNeuronEngineCount> expected = {10, 30, 20, 40, 50}; // Tensor Vector Scalar GpSimd Sync
    for (int e = 0; e < kNeuronEngineCount; ++e) {
        QCOMPARE(r.engines[size_t(e)].engine, NeuronEngine(e));
        QCOMPARE(r.engines[size_t(e)].activeTimeNs, expected[size_t(e)]);
    }
    QCOMPARE(r.startNs, int64_t(0));
    QCOMPARE(r.endNs, int64_t(50)); // the "Thread 7" lane is not part of the window
    QCOMPARE(r.denominatorSource, std::string("window"));
    QVERIFY(!EngineBreakdown::engineOf("EVENT_SEMAPHORE"));
    QCOMPARE(*EngineBreakdown::engineOf("tensormatrix"), NeuronEngine::Tensor);
    QCOMPARE(EngineBreakdown::defaultClockGHz("inf2.xlarge", NeuronEngine::Tensor), 2.8);
    QCOMPARE(EngineBreakdown::defaultClockGHz("trn2.48xlarge", NeuronEngine::Vector), 0.96);
    QCOMPARE(EngineBreakdown::defaultClockGHz("", NeuronEngine::Tensor), 0.0);
}

void TestEngineBreakdown::idleGapsAndBuckets()
{
    // Active 0..100 and 300..400, window 0..1000 in 10 buckets of 100 ns.
    const Trace trace = buildTrace({{"Vector", 0, 100, "A"}, {"Vector", 300, 100, "B"}, {"Sync", 0, 1000, "C"}});
    EngineBreakdown::Options o;
    o.buckets = 10;
    o.longestIdleGaps = 2;
    const EngineBreakdownResult r = EngineBreakdown::compute(trace, o);
    const EngineBreakdownRow *v = rowOf(r, NeuronEngine::Vector);
    QVERIFY(v);
    QCOMPARE(r.bucketNs, int64_t(100));
    QCOMPARE(v->idleGapCount, uint64_t(2)); // 100..300, 400..1000
    QCOMPARE(v->longestIdleGaps.size(), size_t(2));
    QCOMPARE(v->longestIdleGaps[0].startNs, int64_t(400));
    QCOMPARE(v->longestIdleGaps[0].durationNs, int64_t(600));
    QCOMPARE(v->longestIdleGaps[1].durationNs, int64_t(200));
    QCOMPARE(v->utilization.size(), size_t(10));
    const std::vector<float> expected = {1, 0, 0, 1, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < expected.size(); ++i)
        QCOMPARE(v->utilization[i], expected[i]);
    QCOMPARE(v->topOpcodes.size(), size_t(2));
    QCOMPARE(v->activePercent, 20.0);
    QCOMPARE(rowOf(r, NeuronEngine::Sync)->idleGapCount, uint64_t(0));
}

void TestEngineBreakdown::dmaQueue()
{
    // Two overlapping 1000-byte packets 0..100 and 50..150, one 200..300: 3000 bytes in 250 ns active.
    const Trace trace = buildTrace({{"Sync", 0, 400, "WRITE"}}, {{0, 100}, {50, 100}, {200, 100}}, 1000);
    EngineBreakdown::Options o;
    o.buckets = 4;
    const EngineBreakdownResult r = EngineBreakdown::compute(trace, o);
    QCOMPARE(r.dma.size(), size_t(1));
    const DmaQueueBreakdownRow &q = r.dma.front();
    QCOMPARE(q.queue, std::string("qTest-Q1-E0"));
    QCOMPARE(q.packetCount, uint64_t(3));
    QCOMPARE(q.bytes, uint64_t(3000));
    QCOMPARE(q.activeTimeNs, int64_t(250));
    QCOMPARE(q.throughputBytesPerSec, 3000.0 * 1e9 / 250.0);
    QCOMPARE(r.cores.front().dmaBytes, uint64_t(3000));
    double spread = 0;
    for (double b : r.cores.front().dmaBytesPerBucket)
        spread += b;
    QCOMPARE(spread, 3000.0);
    QCOMPARE(r.cores.front().dmaBytesPerBucket[0], 1500.0); // 0..100: all of packet 1, half of packet 2
    QVERIFY(!r.cores.front().mfuPercent); // no FLOP counts in this trace
}

void TestEngineBreakdown::noNeuronCore()
{
    TraceBuilder b;
    const GroupId p = b.addGroup(GroupKind::Process, b.intern("python"));
    const TrackId t = b.addTrack(p, TrackKind::Slices, b.intern("Vector")); // a thread named like an engine
    b.addSlice(t, 0, 10, b.intern("x"), b.intern("cpu_op"));
    const Trace trace = b.finish();
    const EngineBreakdownResult r = EngineBreakdown::compute(trace);
    QVERIFY(r.empty());
    QVERIFY(r.cores.empty());
}

// The trn2 NTFF v5 pair with `neuron-profile view --output-format summary-text` (profiler 2.25) beside it:
// a logical core of two physical cores. The text's per-engine counts are exact; its times (seconds) are
// picoseconds, ours whole ns floored per row: within 1 % (the target) and within the rows'
// rounding. Before the two physical cores were read, Tensor gave 30 instructions and 1,113 ns active.
void TestEngineBreakdown::trn2SummaryText()
{
    const QString ntff = QStringLiteral("neuron-trn2-v5/stream_256k_fd2k.ntff");
    LANESCOPE_REQUIRE_CORPUS_FILE(ntff);
    QFile text(test::corpusFile(QStringLiteral("neuron-trn2-v5/profile_2k.txt")));
    QVERIFY(text.open(QIODevice::ReadOnly | QIODevice::Text));
    std::map<QString, double> summary; // "    tensor_engine_instruction_count   69" lines
    for (const QByteArray &line : text.readAll().split('\n')) {
        const QList<QByteArray> parts = line.simplified().split(' ');
        bool ok = false;
        const double v = parts.size() == 2 ? parts[1].toDouble(&ok) : 0.0;
        if (ok)
            summary[QString::fromLatin1(parts[0])] = v;
    }
    QVERIFY2(summary.size() > 60, "profile_2k.txt: expected the summary-text's key / value lines");
    // independent: the counts as summary-text prints them
    QCOMPARE(summary.at(QStringLiteral("tensor_engine_instruction_count")), 69.0);

    const LoadResult loaded = TraceLoader::load(test::corpusFile(ntff).toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    QVERIFY2(!loaded.trace->diagnostics().hasWarnings(), "the trn2 NTFF v5 loads without warnings");
    const EngineBreakdownResult r = EngineBreakdown::compute(*loaded.trace);
    QCOMPARE(r.cores.size(), size_t(1)); // one logical core
    QCOMPARE(r.denominatorNs, std::llround(summary.at(QStringLiteral("total_time")) * 1e9));
    for (int ei = 0; ei < kNeuronEngineCount; ++ei) {
        const NeuronEngine e = NeuronEngine(ei);
        const EngineBreakdownRow *row = rowOf(r, e);
        QVERIFY(row);
        const QByteArray what = QByteArray(EngineBreakdown::engineName(e).data());
        QCOMPARE(double(row->instructionCount), summary.at(key(e, "instruction_count")));
        const double active = summary.at(key(e, "active_time")) * 1e9, instr = summary.at(key(e, "instruction_time")) * 1e9;
        QVERIFY2(std::abs(double(row->activeTimeNs) - active) <= 0.01 * active,
                 what + " active " + QByteArray::number(qint64(row->activeTimeNs)) + " vs " + QByteArray::number(active));
        QVERIFY2(std::abs(double(row->instructionTimeNs) - instr) <= 0.01 * instr,
                 what + " instruction time " + QByteArray::number(qint64(row->instructionTimeNs)) + " vs " + QByteArray::number(instr));
        const double m = double(row->activeIntervalCount);
        QVERIFY2(active - double(row->activeTimeNs) > -m && active - double(row->activeTimeNs) < 2 * m, what);
    }
}

QTEST_GUILESS_MAIN(TestEngineBreakdown)
#include "tst_enginebreakdown.moc"
