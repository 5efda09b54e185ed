// NtffImporter: the trace model built from real NTFFs has the expected groups, engine and DMA tracks,
// slices equal to the ground-truth rows of neuron-profile's JSON export, semaphore counter tracks and
// args. Plus cancel/progress and a synthetic file through NtffWriter.
#include "corpus.h"

#include "io/input/inputbuffer.h"
#include "io/ntff/ntffimporter.h"
#include "io/ntff/ntffreader.h"
#include "io/synthetic/ntffwriter.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace lanescope;

namespace {

QJsonObject loadJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

const Arg *findArg(const Trace &t, const Slice &s, std::string_view key)
{
    for (const Arg &a : t.args().args(s.args))
        if (t.str(a.key) == key)
            return &a;
    return nullptr;
}

TrackId trackByName(const Trace &t, std::string_view name)
{
    for (uint32_t i = 0; i < t.tracks().size(); ++i)
        if (t.str(t.tracks()[i].name) == name)
            return TrackId(i);
    return {};
}

} // namespace

class TestNtffImporter : public QObject
{
    Q_OBJECT

private slots:
    void realFiles_data();
    void realFiles();
    void v4Files_data();
    void v4Files();
    void synthetic();
    void cancelAndProgress();
};

void TestNtffImporter::realFiles_data()
{
    QTest::addColumn<QString>("ntff");
    const QDir dir(lanescope::test::corpusFile(QStringLiteral("neuron-profile-json")));
    const QStringList files = dir.entryList({QStringLiteral("*.ntff")}, QDir::Files, QDir::Name);
    for (const QString &f : files)
        QTest::newRow(qPrintable(f)) << dir.filePath(f);
}

void TestNtffImporter::realFiles()
{
    LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-profile-json"));
    QFETCH(QString, ntff);
    const std::string path = ntff.toStdString();
    const InputBuffer input = InputBuffer::read(path, {});
    const Trace t = NtffImporter::import(input, path, {});
    const QJsonObject doc = loadJson(ntff.chopped(5) + QStringLiteral(".json"));
    QVERIFY(!doc.isEmpty());

    // groups: device > NeuronCore 0 (sg00)
    QVERIFY(t.groups().size() >= 2);
    GroupId core;
    for (uint32_t i = 0; i < t.groups().size(); ++i)
        if (t.groups()[i].kind == GroupKind::NeuronCore)
            core = GroupId(i);
    QVERIFY(core.isValid());
    QCOMPARE(std::string(t.str(t.group(core).name)), std::string("NeuronCore 0 (sg00)"));
    QVERIFY(t.group(core).parent.isValid());
    QCOMPARE(t.group(t.group(core).parent).kind, GroupKind::Device);

    // engine lanes in display order; slices equal the JSON instruction rows (label, time, opcode, pc, args)
    using Row = std::tuple<std::string, int64_t, int64_t, std::string, int64_t, int64_t, int64_t, int64_t, int64_t>;
    std::vector<Row> expected, actual;
    std::map<std::string, int64_t> perLabel;
    for (const auto &v : doc.value(QStringLiteral("instruction")).toArray()) {
        const QJsonObject o = v.toObject();
        const std::string label = o.value(QStringLiteral("label")).toString().toStdString();
        ++perLabel[label];
        expected.emplace_back(label, o.value(QStringLiteral("timestamp")).toInteger(),
                              o.value(QStringLiteral("duration")).toInteger(),
                              o.value(QStringLiteral("opcode")).toString().toStdString(),
                              o.value(QStringLiteral("pc")).toInteger(), o.value(QStringLiteral("evt_wait_time")).toInteger(),
                              o.value(QStringLiteral("crc_in")).toInteger(), o.value(QStringLiteral("crc_out")).toInteger(),
                              o.contains(QStringLiteral("compiler_pc")) ? o.value(QStringLiteral("compiler_pc")).toInteger() : -1);
    }
    const std::vector<std::string> lanes = {"Tensor", "TensorMatrix", "Vector", "Scalar", "GpSimd", "Sync"};
    int64_t lastSort = -1;
    for (const std::string &lane : lanes) {
        const TrackId id = trackByName(t, lane);
        QVERIFY2(id.isValid(), lane.c_str());
        const Track &tr = t.track(id);
        QCOMPARE(tr.kind, TrackKind::Async); // instructions overlap (LDWEIGHTS/MATMUL): packed, not nested
        QCOMPARE(tr.group, core);
        QVERIFY(tr.sortIndex > lastSort);
        lastSort = tr.sortIndex;
        QCOMPARE(int64_t(tr.sliceCount), perLabel[lane]);
        for (const Slice &s : t.slices(id)) {
            const Arg *pc = findArg(t, s, "pc");
            const Arg *wait = findArg(t, s, "evt_wait_time");
            const Arg *crcIn = findArg(t, s, "crc_in");
            const Arg *crcOut = findArg(t, s, "crc_out");
            const Arg *neff = findArg(t, s, "neff_instruction_index");
            QVERIFY(pc && wait && crcIn && crcOut);
            QCOMPARE(std::string(t.str(s.category)), std::string("instruction"));
            actual.emplace_back(lane, s.start, s.duration, std::string(t.str(s.name)), pc->value.i, wait->value.i,
                                crcIn->value.i, crcOut->value.i, neff ? neff->value.i : -1);
        }
    }
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
    QCOMPARE(actual.size(), expected.size());
    QVERIFY(actual == expected);

    // DMA queue tracks: one per (engine, queue) with packets, named from the descriptors
    std::map<std::pair<int64_t, int64_t>, int64_t> perQueue;
    std::multiset<std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>> dmaExpected, dmaActual;
    for (const auto &v : doc.value(QStringLiteral("dma")).toArray()) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("aggregated")).toString() != QStringLiteral("no"))
            continue;
        const int64_t e = o.value(QStringLiteral("dma_engine")).toString().toLongLong();
        const int64_t q = o.value(QStringLiteral("dma_queue")).toString().toLongLong();
        ++perQueue[{e, q}];
        dmaExpected.emplace(e * 16 + q, o.value(QStringLiteral("timestamp")).toInteger(),
                            o.value(QStringLiteral("duration")).toInteger(),
                            o.value(QStringLiteral("transfer_size")).toInteger(), o.value(QStringLiteral("crc")).toInteger());
    }
    int dmaTracks = 0;
    for (uint32_t i = 0; i < t.tracks().size(); ++i) {
        const Track &tr = t.tracks()[i];
        for (const Slice &s : t.slices(TrackId(i))) {
            if (t.str(s.category) != "dma")
                continue;
            const Arg *size = findArg(t, s, "transfer_size");
            const Arg *e = findArg(t, s, "dma_engine");
            const Arg *q = findArg(t, s, "dma_queue");
            const Arg *crc = findArg(t, s, "crc");
            QVERIFY(size && e && q && crc);
            QCOMPARE(tr.externalId, e->value.i * 16 + q->value.i);
            dmaActual.emplace(e->value.i * 16 + q->value.i, s.start, s.duration, size->value.i, crc->value.i);
        }
        if (tr.sliceCount && t.str(t.slices(TrackId(i))[0].category) == "dma")
            ++dmaTracks;
    }
    QCOMPARE(size_t(dmaTracks), perQueue.size());
    QVERIFY(dmaActual == dmaExpected);
    const TrackId spill = trackByName(t, "qSyncSpillReload0-Q1-E0");
    QVERIFY(spill.isValid());
    QCOMPARE(int64_t(t.track(spill).sliceCount), (perQueue[{0, 1}]));
    const TrackId anonymous = trackByName(t, "Q14-E2"); // no descriptor for the instruction queue
    QVERIFY(anonymous.isValid());
    QCOMPARE(int64_t(t.track(anonymous).sliceCount), (perQueue[{2, 14}]));

    // semaphore counter tracks: samples equal the JSON semaphore_update rows per id
    static const QRegularExpression re(QStringLiteral("^S\\[(\\d+)\\]"));
    std::map<int64_t, std::multiset<std::pair<int64_t, int64_t>>> semExpected;
    for (const auto &v : doc.value(QStringLiteral("semaphore_update")).toArray()) {
        const QJsonObject o = v.toObject();
        const QString id = o.value(QStringLiteral("id")).toString();
        const auto m = re.match(id);
        semExpected[m.hasMatch() ? m.captured(1).toLongLong() : id.toLongLong()].emplace(
            o.value(QStringLiteral("timestamp")).toInteger(), o.value(QStringLiteral("value")).toInteger());
    }
    QVERIFY(!semExpected.empty());
    for (const auto &[id, samples] : semExpected) {
        const TrackId tid = trackByName(t, "semaphore " + std::to_string(id));
        QVERIFY2(tid.isValid(), qPrintable(QStringLiteral("semaphore %1").arg(id)));
        QCOMPARE(t.track(tid).kind, TrackKind::Counter);
        QCOMPARE(t.group(t.track(tid).group).kind, GroupKind::Counters);
        std::multiset<std::pair<int64_t, int64_t>> got;
        for (const CounterSample &c : t.counterSamples(tid))
            got.emplace(c.ts, int64_t(c.value));
        QVERIFY(got == samples);
    }

    // pending DMAs: never negative, back to 0 at the end; throttling present (v5 has ham rows)
    const TrackId pending = trackByName(t, "pending DMAs");
    QVERIFY(pending.isValid());
    const auto ps = t.counterSamples(pending);
    QVERIFY(!ps.empty());
    QVERIFY(std::all_of(ps.begin(), ps.end(), [](const CounterSample &c) { return c.value >= 0; }));
    QCOMPARE(ps.back().value, 0.0);
    QVERIFY(trackByName(t, "throttling (utilization limit k/n)").isValid());

    // metadata and stats
    const QJsonObject header = doc.value(QStringLiteral("neff_header")).toArray().first().toObject();
    QCOMPARE(t.metadata().format, std::string("ntff"));
    QVERIFY(t.metadata().find("uuid"));
    QCOMPARE(*t.metadata().find("uuid"), header.value(QStringLiteral("uuid")).toString().toStdString());
    QVERIFY(t.metadata().find("total_time_ps"));
    QCOMPARE(*t.metadata().find("ntff_version"), std::string("5"));
    for (const char *key : {"neff_name", "runtime_version", "driver_version", "collectives_version", "instance_type"})
        QVERIFY2(t.metadata().find(key) && !t.metadata().find(key)->empty(), key);
    const NtffProfile p = NtffReader::read(input.view(), path);
    QCOMPARE(t.stats().eventsRead, p.recordsRead);
    const uint32_t metadataSize = uint32_t(uint8_t(input.data()[1])) | uint32_t(uint8_t(input.data()[2])) << 8
        | uint32_t(uint8_t(input.data()[3])) << 16 | uint32_t(uint8_t(input.data()[4])) << 24;
    QCOMPARE(t.stats().eventsRead, (input.size() - 0x80 - metadataSize) / 16);
    QVERIFY(t.diagnostics().count("instructions outside the current program, from a previous execution (skipped)") > 0);
    // the trace starts at the earliest row (time 0 is the origin, the end of the start NOTIFY)
    int64_t earliest = INT64_MAX;
    for (const char *table : {"instruction", "dma", "semaphore_update"})
        for (const auto &v : doc.value(QLatin1String(table)).toArray())
            earliest = std::min<int64_t>(earliest, v.toObject().value(QStringLiteral("timestamp")).toInteger());
    QCOMPARE(t.startNs(), earliest);
    const QJsonObject metadata = doc.value(QStringLiteral("metadata")).toArray().first().toObject();
    // floor(start) + floor(duration) is at most 1 ns short of floor(end)
    QVERIFY(t.endNs() >= metadata.value(QStringLiteral("last_hw_timestamp")).toInteger() - 1);
}

void TestNtffImporter::v4Files_data()
{
    QTest::addColumn<QString>("ntff");
    const QDir dir(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4")));
    const QStringList files = dir.entryList({QStringLiteral("*.ntff")}, QDir::Files, QDir::Name);
    for (const QString &f : files)
        QTest::newRow(qPrintable(f)) << dir.filePath(f);
}

// v4 has no JSON: the model must hold exactly the decoded rows, one lane per engine.
void TestNtffImporter::v4Files()
{
    LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-cs149-asst4"));
    QFETCH(QString, ntff);
    const std::string path = ntff.toStdString();
    const InputBuffer input = InputBuffer::read(path, {});
    const NtffProfile p = NtffReader::read(input.view(), path);
    const Trace t = NtffImporter::import(input, path, {});
    QCOMPARE(*t.metadata().find("ntff_version"), std::string("4"));
    for (NtffEngine e : {NtffEngine::Tensor, NtffEngine::Vector, NtffEngine::Scalar, NtffEngine::GpSimd, NtffEngine::Sync}) {
        const TrackId id = trackByName(t, ntffEngineName(e));
        QVERIFY(id.isValid());
        QCOMPARE(uint64_t(t.track(id).sliceCount), p.instructionCount(e)); // no MATMUL in these kernels
    }
    QVERIFY(!trackByName(t, "TensorMatrix").isValid());
    uint64_t dmaSlices = 0, semSamples = 0;
    for (uint32_t i = 0; i < t.tracks().size(); ++i) {
        for (const Slice &s : t.slices(TrackId(i)))
            dmaSlices += t.str(s.category) == "dma";
        if (t.str(t.tracks()[i].name).substr(0, 10) == "semaphore ")
            semSamples += t.tracks()[i].counterCount;
    }
    QCOMPARE(dmaSlices, uint64_t(p.dma.size()));
    QCOMPARE(semSamples, uint64_t(p.semaphores.size()));
    // descriptors qPoolIO0 (queue 0) and qSPIO0 (queue 1) on every DMA engine, renamed as neuron-profile does
    for (int e = 0; e < 16; ++e) {
        QVERIFY(trackByName(t, "qGpSimdIO0-Q0-E" + std::to_string(e)).isValid());
        QVERIFY(trackByName(t, "qSyncIO0-Q1-E" + std::to_string(e)).isValid());
    }
    QCOMPARE(t.stats().eventsRead, p.recordsRead);
}

void TestNtffImporter::synthetic()
{
    NtffProfile layout;
    layout.subgraphName = "sg03";
    layout.instanceType = "trn1.32xlarge";
    layout.programs.push_back(NtffWriter::makeProgram(NtffEngine::Tensor, {0xa6, 0x02, 0x41}, {2, 0, 0}));
    layout.programs.push_back(NtffWriter::makeProgram(NtffEngine::Sync, {0xa6, 0xa5}, {2, 0}));
    NtffWriter w(layout);
    w.addInstruction(NtffEngine::Tensor, 0, 0, 1000000);
    w.addInstruction(NtffEngine::Tensor, 1, 1000000, 1005000); // MATMUL -> TensorMatrix
    w.addInstruction(NtffEngine::Tensor, 2, 1002000, 1003000); // unknown opcode -> "op 0x41"
    w.addInstruction(NtffEngine::Sync, 1, 1001000, 1009000);
    w.addSemaphoreUpdate(7, 1004000, 3);
    const std::string bytes = w.bytes();
    const InputBuffer input = InputBuffer::fromBytes(bytes, "synthetic.ntff", {});
    const Trace t = NtffImporter::import(input, "synthetic.ntff", {});
    const TrackId tm = trackByName(t, "TensorMatrix");
    const TrackId tensor = trackByName(t, "Tensor");
    const TrackId sync = trackByName(t, "Sync");
    QVERIFY(tm.isValid() && tensor.isValid() && sync.isValid());
    QVERIFY(!trackByName(t, "Vector").isValid()); // no program, no rows: no lane
    QCOMPARE(t.track(tm).sliceCount, 1u);
    QCOMPARE(std::string(t.str(t.slices(tm)[0].name)), std::string("MATMUL"));
    QCOMPARE(t.slices(tm)[0].start, int64_t(0));
    QCOMPARE(t.slices(tm)[0].duration, int64_t(5));
    QCOMPARE(t.track(tensor).sliceCount, 1u);
    QCOMPARE(std::string(t.str(t.slices(tensor)[0].name)), std::string("op 0x41"));
    QCOMPARE(t.slices(tensor)[0].start, int64_t(2));
    const Arg *neff = findArg(t, t.slices(tensor)[0], "neff_instruction_index");
    QVERIFY(neff);
    QCOMPARE(neff->value.i, int64_t(2));
    QCOMPARE(std::string(t.str(t.slices(sync)[0].name)), std::string("WRITE"));
    const TrackId sem = trackByName(t, "semaphore 7");
    QVERIFY(sem.isValid());
    QCOMPARE(t.counterSamples(sem).size(), size_t(1));
    QCOMPARE(t.counterSamples(sem)[0].ts, int64_t(4));
    QCOMPARE(t.counterSamples(sem)[0].value, 3.0);
    QVERIFY(!trackByName(t, "pending DMAs").isValid());
    bool found = false;
    for (const auto &g : t.groups())
        found |= g.kind == GroupKind::NeuronCore && t.str(g.name) == "NeuronCore 0 (sg03)";
    QVERIFY(found);
    QCOMPARE(t.stats().eventsRead, w.recordCount());
}

void TestNtffImporter::cancelAndProgress()
{
    NtffProfile layout;
    layout.programs.push_back(NtffWriter::makeProgram(NtffEngine::Vector, {0xa6, 0xa4}, {2, 0}));
    NtffWriter w(layout);
    w.addInstruction(NtffEngine::Vector, 0, 0, 100);
    for (int i = 0; i < 100000; ++i)
        w.addInstruction(NtffEngine::Vector, 1, 1000 + int64_t(i) * 2000, 2000 + int64_t(i) * 2000);
    const std::string bytes = w.bytes();
    const InputBuffer input = InputBuffer::fromBytes(bytes, "v.ntff", {});
    std::vector<int> progress;
    LoadOptions options;
    options.progress = [&](int p) { progress.push_back(p); };
    const Trace t = NtffImporter::import(input, "v.ntff", options);
    QCOMPARE(t.track(trackByName(t, "Vector")).sliceCount, 100000u);
    QVERIFY(std::is_sorted(progress.begin(), progress.end()));
    QCOMPARE(progress.back(), 1000);

    std::atomic<bool> stop{true};
    LoadOptions cancelled;
    cancelled.cancel = &stop;
    QVERIFY_THROWS_EXCEPTION(LoadCancelled, NtffImporter::import(input, "v.ntff", cancelled));
}

QTEST_GUILESS_MAIN(TestNtffImporter)
#include "tst_ntffimporter.moc"
