// NtffReader against ground truth: every real NTFF in corpus/neuron-profile-json/ (v5, inf2, profiler
// 2.27) and corpus/neuron-trn2-v6/ (v6, trn2: two physical cores, profiler 2.28) is decoded and its
// instruction, DMA packet, semaphore and throttle rows compared row for row (every field, and the
// physical core each ran on) with the JSON that AWS's neuron-profile exported from the same file. Plus v4 total-time checks, error cases
// built in memory from a real file, and a write -> read round trip through NtffWriter.
#include "corpus.h"
#include "filebytes.h"
#include "ntffpatch.h"
#include "ntffrowkeys.h"

#include "io/ntff/ntffreader.h"
#include "io/protobuf/protobufreader.h"
#include "io/synthetic/ntffwriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <tuple>

using namespace lanescope;
using lanescope::test::patchVarint;
using lanescope::test::sectionField;
using namespace lanescope::test;

namespace {

NtffProfile mustRead(const std::string &bytes, const char *name = "test.ntff")
{
    return NtffReader::read(bytes, name);
}

} // namespace

class TestNtffReader : public QObject
{
    Q_OBJECT

private slots:
    void groundTruth_data();
    void groundTruth();
    void v4TotalTime_data();
    void v4TotalTime();
    void unsupportedVersion();
    void truncatedPayload();
    void sectionPastEnd();
    void inconsistentSizes();
    void metadataPastEnd();
    void garbage();
    void mutatedFilesNeverCrash();
    void protobufReader();
    void roundTrip();
    void longCaptureNeeds128Bits();
    void cancel();
};

// The warnings (not the notes) of a decoded file, one per line: empty for a file that is fine.
static std::string warningLines(const Diagnostics &d)
{
    std::string out;
    for (const Warning &w : d.warnings())
        if (!w.isNote())
            out += Diagnostics::format(w) + "\n";
    return out;
}

void TestNtffReader::groundTruth_data()
{
    QTest::addColumn<QString>("ntff");
    QTest::addColumn<QString>("json");
    const QDir dir(lanescope::test::corpusFile(QStringLiteral("neuron-profile-json")));
    const QStringList files = dir.entryList({QStringLiteral("*.ntff")}, QDir::Files, QDir::Name);
    for (const QString &f : files) {
        const QString json = dir.filePath(f.chopped(5) + QStringLiteral(".json"));
        QVERIFY2(QFile::exists(json), qPrintable(json));
        QTest::newRow(qPrintable(f)) << dir.filePath(f) << json;
    }
    // trn2, NTFF v6: <kernel>/<name>_exec_2.ntff beside <name>_exec_2_profile_full.json (profiler 2.28)
    const QDir v6(lanescope::test::corpusFile(QStringLiteral("neuron-trn2-v6")));
    int v6Rows = 0;
    for (const QString &kernel : v6.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QDir k(v6.filePath(kernel));
        for (const QString &f : k.entryList({QStringLiteral("*.ntff")}, QDir::Files, QDir::Name)) {
            const QString json = k.filePath(f.chopped(5) + QStringLiteral("_profile_full.json"));
            QVERIFY2(QFile::exists(json), qPrintable(json));
            QTest::newRow(qPrintable(kernel + QLatin1Char('/') + f)) << k.filePath(f) << json;
            ++v6Rows;
        }
    }
    if (!lanescope::test::corpusDir().isEmpty())
        QCOMPARE(v6Rows, 3); // baseline_attention, baseline_bf16_s512, fused_bf16_s512
}

void TestNtffReader::groundTruth()
{
    LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-profile-json"));
    QFETCH(QString, ntff);
    QFETCH(QString, json);
    const std::string bytes = test::readFile(ntff);
    QVERIFY(!bytes.empty());
    const NtffProfile p = NtffReader::read(bytes, ntff.toStdString());
    QFile jf(json);
    QVERIFY(jf.open(QIODevice::ReadOnly));
    QJsonParseError err;
    const QJsonObject doc = QJsonDocument::fromJson(jf.readAll(), &err).object();
    QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));

    // The JSON's physical core of a row: "subgraph" (2.28), else the one subgraph model_info names (2.27).
    const QJsonArray modelInfos = doc.value(QStringLiteral("model_info")).toArray();
    const std::string onlySubgraph = jsonStr(modelInfos.first().toObject(), "sg_name");
    const auto subgraph = [&](const QJsonObject &o) {
        return o.contains(QStringLiteral("subgraph")) ? jsonStr(o, "subgraph") : onlySubgraph;
    };
    std::vector<InstrKey> instr;
    for (const auto &v : doc.value(QStringLiteral("instruction")).toArray()) {
        const QJsonObject o = v.toObject();
        instr.push_back({subgraph(o), jsonStr(o, "subgroup"), jsonInt(o, "pc"), jsonInt(o, "timestamp"), jsonStr(o, "label"),
                         jsonInt(o, "duration"), jsonStr(o, "opcode"), jsonInt(o, "evt_wait_time"), jsonInt(o, "crc_in"),
                         jsonInt(o, "crc_out"), o.contains(QStringLiteral("compiler_pc")) ? jsonInt(o, "compiler_pc") : -1});
    }
    std::vector<DmaKey> dma;
    for (const auto &v : doc.value(QStringLiteral("dma")).toArray()) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("aggregated")).toString() != QStringLiteral("no"))
            continue; // block-level rows need the NEFF
        dma.push_back({jsonInt(o, "dma_engine"), jsonInt(o, "dma_queue"), jsonInt(o, "timestamp"),
                       jsonInt(o, "duration"), jsonInt(o, "transfer_size"), jsonInt(o, "crc"), subgraph(o)});
    }
    std::vector<SemKey> sem;
    for (const auto &v : doc.value(QStringLiteral("semaphore_update")).toArray()) {
        const QJsonObject o = v.toObject();
        sem.push_back({semaphoreId(o.value(QStringLiteral("id")).toString()), jsonInt(o, "timestamp"), jsonInt(o, "value"),
                       subgraph(o)});
    }
    std::vector<HamKey> ham;
    for (const auto &v : doc.value(QStringLiteral("ham")).toArray()) {
        const QJsonObject o = v.toObject();
        ham.push_back({jsonInt(o, "timestamp"), jsonInt(o, "duration"), jsonInt(o, "k"), jsonInt(o, "n"), jsonInt(o, "type"),
                       subgraph(o)});
    }
    QVERIFY(!instr.empty());
    QVERIFY(!dma.empty());
    QVERIFY(!sem.empty());

    std::string diff = compareRows("instruction", instr, decodedInstructions(p, true));
    QVERIFY2(diff.empty(), diff.c_str());
    diff = compareRows("dma", dma, decodedDma(p, true));
    QVERIFY2(diff.empty(), diff.c_str());
    diff = compareRows("semaphore_update", sem, decodedSemaphores(p, true));
    QVERIFY2(diff.empty(), diff.c_str());
    diff = compareRows("ham", ham, decodedThrottle(p, true));
    QVERIFY2(diff.empty(), diff.c_str());

    const QJsonObject metadata = doc.value(QStringLiteral("metadata")).toArray().first().toObject();
    const QJsonObject summary = doc.value(QStringLiteral("summary")).toArray().first().toObject();
    const QJsonObject modelInfo = modelInfos.first().toObject();
    // model_info has one row per physical core; the counts below are the logical core's sums
    const auto modelInfoSum = [&](const char *key) {
        int64_t sum = 0;
        for (const auto &v : modelInfos)
            sum += jsonInt(v.toObject(), key);
        return sum;
    };
    QCOMPARE(qsizetype(p.cores.size()), modelInfos.size());
    for (qsizetype k = 0; k < modelInfos.size(); ++k) {
        QCOMPARE(p.cores[size_t(k)].subgraphName, jsonStr(modelInfos[k].toObject(), "sg_name"));
        if (modelInfos[k].toObject().contains(QStringLiteral("nc_idx")) && p.cores.size() > 1)
            QCOMPARE(int64_t(p.cores[size_t(k)].index.value_or(9999)), jsonInt(modelInfos[k].toObject(), "nc_idx"));
    }
    const QJsonObject header = doc.value(QStringLiteral("neff_header")).toArray().first().toObject();
    QCOMPARE(p.lastHwTimestamp, jsonInt(metadata, "last_hw_timestamp"));
    QCOMPARE(int64_t(p.version), jsonInt(metadata, "ntff_version"));
    QVERIFY(p.totalTimePs.has_value());
    const double totalS = summary.value(QStringLiteral("total_time")).toDouble();
    QCOMPARE(int64_t(*p.totalTimePs), std::llround(totalS * 1e12));
    QVERIFY(p.decodedTotalTimePs.has_value());
    QVERIFY2(std::llabs(*p.decodedTotalTimePs - int64_t(*p.totalTimePs)) <= 1,
             qPrintable(QStringLiteral("decoded %1 ps vs recorded %2 ps").arg(*p.decodedTotalTimePs).arg(*p.totalTimePs)));
    QVERIFY(p.originFromNotify);
    if (p.version >= 6) { // the window the file records is the export's total time
        QVERIFY(p.windowStartPs && p.windowEndPs);
        QCOMPARE(*p.windowEndPs - *p.windowStartPs, std::llround(totalS * 1e12));
    }
    QCOMPARE(int64_t(p.eventRecordCount), modelInfoSum("event_count"));
    QCOMPARE(int64_t(p.instructionCount(NtffEngine::Tensor)), modelInfoSum("tensor_engine_instruction_count"));
    QCOMPARE(int64_t(p.instructionCount(NtffEngine::Vector)), modelInfoSum("vector_engine_instruction_count"));
    QCOMPARE(int64_t(p.instructionCount(NtffEngine::Scalar)), modelInfoSum("scalar_engine_instruction_count"));
    QCOMPARE(int64_t(p.instructionCount(NtffEngine::GpSimd)), modelInfoSum("gpsimd_engine_instruction_count"));
    QCOMPARE(int64_t(p.instructionCount(NtffEngine::Sync)), modelInfoSum("sync_engine_instruction_count"));
    QCOMPARE(p.uuid, jsonStr(header, "uuid"));
    QCOMPARE(p.neffName, jsonStr(header, "network_name"));
    QCOMPARE(p.runtimeVersion, jsonStr(summary, "runtime_version"));
    QCOMPARE(p.driverVersion, jsonStr(summary, "driver_version"));
    QCOMPARE(p.collectivesVersion, jsonStr(summary, "collectives_version"));
    QCOMPARE(p.instanceType, jsonStr(summary, "instance_type"));
    QCOMPARE(int64_t(p.dmaQueues.size()), modelInfoSum("dma_queue_count"));
    QCOMPARE(p.subgraphName, jsonStr(modelInfo, "sg_name"));
    // every 16-byte record of the payload was read
    uint64_t payload = 0;
    for (const auto &s : p.sections)
        payload += s.size;
    QCOMPARE(p.recordsRead, payload / 16);
    // What neuron-profile drops as well (before the window, the previous execution) is a note, not a warning.
    QVERIFY2(warningLines(p.diagnostics).empty(), warningLines(p.diagnostics).c_str());
    qInfo("%s: matched %zu instruction, %zu dma, %zu semaphore_update, %zu ham rows (%zu physical core%s)",
          qPrintable(QFileInfo(ntff).fileName()), instr.size(), dma.size(), sem.size(), ham.size(), p.cores.size(),
          p.cores.size() == 1 ? "" : "s");
}

void TestNtffReader::v4TotalTime_data()
{
    QTest::addColumn<QString>("ntff");
    const QDir dir(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4")));
    const QStringList files = dir.entryList({QStringLiteral("*.ntff")}, QDir::Files, QDir::Name);
    for (const QString &f : files)
        QTest::newRow(qPrintable(f)) << dir.filePath(f);
}

void TestNtffReader::v4TotalTime()
{
    LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-cs149-asst4"));
    QFETCH(QString, ntff);
    const NtffProfile p = NtffReader::read(test::readFile(ntff), ntff.toStdString());
    QCOMPARE(int(p.version), 4);
    QVERIFY(p.originFromNotify);
    QVERIFY(p.totalTimePs.has_value());
    QVERIFY(p.decodedTotalTimePs.has_value());
    QVERIFY2(std::llabs(*p.decodedTotalTimePs - int64_t(*p.totalTimePs)) <= 1,
             qPrintable(QStringLiteral("decoded %1 ps vs recorded %2 ps").arg(*p.decodedTotalTimePs).arg(*p.totalTimePs)));
    QVERIFY(p.captureUnixTime.has_value());
    QCOMPARE(p.programs.size(), size_t(5));
    QVERIFY(!p.instructions.empty());
    QVERIFY(!p.dma.empty());
    // the window spans the execution: the last instruction ends after the recorded total time
    QVERIFY(p.lastHwTimestamp * 1000 >= int64_t(*p.totalTimePs) - 1000);
    QVERIFY2(warningLines(p.diagnostics).empty(), warningLines(p.diagnostics).c_str());
    QVERIFY(p.diagnostics.total(DiagnosticSeverity::Note) > 0); // the tail of the previous execution is in every capture
    // v4 DVE compute op 0x41 has no learned name: it is kept as "op 0x41", never dropped
    const bool hasUnnamed = std::any_of(p.instructions.begin(), p.instructions.end(),
                                        [](const NtffInstructionRow &r) { return r.opcode == 0x41; });
    if (hasUnnamed) {
        const auto it = std::find_if(p.instructions.begin(), p.instructions.end(),
                                     [](const NtffInstructionRow &r) { return r.opcode == 0x41; });
        QCOMPARE(std::string(it->opcodeName()), std::string("op 0x41"));
    }
    qInfo("%s: total_time %llu ps recorded, %lld ps decoded; %zu instructions, %zu dma, %zu semaphore rows",
          qPrintable(QFileInfo(ntff).fileName()), (unsigned long long)*p.totalTimePs, (long long)*p.decodedTotalTimePs,
          p.instructions.size(), p.dma.size(), p.semaphores.size());
}

static const QString kRealFile = QStringLiteral("neuron-profile-json/profile_128x128x256.ntff");

static std::string realFile()
{
    return test::readFile(lanescope::test::corpusFile(kRealFile));
}

void TestNtffReader::unsupportedVersion()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(kRealFile);
    std::string bytes = realFile();
    QVERIFY(!bytes.empty());
    bytes[0] = 7;
    try {
        mustRead(bytes);
        QFAIL("version 7 was accepted");
    } catch (const ImportError &e) {
        QVERIFY(e.hasOffset());
        QCOMPARE(e.offset(), uint64_t(0));
        QVERIFY2(std::string(e.what()).find("NTFF version 7 is not supported") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("4, 5 and 6") != std::string::npos, e.what()); // what this build reads
        QVERIFY2(std::string(e.what()).find("test.ntff") != std::string::npos, e.what());
    }
}

void TestNtffReader::truncatedPayload()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(kRealFile);
    const std::string bytes = realFile();
    const NtffProfile full = mustRead(bytes);
    const uint64_t payloadStart = bytes.size() - full.sections.back().offset - full.sections.back().size;
    const NtffSection *instr = nullptr, *dmaSection = nullptr;
    for (const auto &s : full.sections) {
        if (s.kind == 0)
            instr = &s;
        if (s.kind == 4)
            dmaSection = &s;
    }
    QVERIFY(instr && dmaSection);
    const char *msg = "NTFF payload truncated: records missing at the end of the file (loaded what is complete)";

    // Cut in the middle of the DMA section, not on a record boundary: instructions complete, fewer DMA rows.
    {
        const std::string cut = bytes.substr(0, payloadStart + dmaSection->offset + dmaSection->size / 2 + 7);
        const NtffProfile p = mustRead(cut);
        QVERIFY(p.diagnostics.count(msg) > 0);
        QCOMPARE(p.instructions.size(), full.instructions.size());
        QVERIFY(p.dma.size() < full.dma.size());
        QVERIFY(p.dma.size() > 0);
        QVERIFY(p.throttle.empty());
        QVERIFY(p.recordsRead < full.recordsRead);
    }
    // Cut in the middle of the instruction section: fewer instruction rows, nothing after.
    {
        const std::string cut = bytes.substr(0, payloadStart + instr->offset + instr->size * 3 / 4);
        const NtffProfile p = mustRead(cut);
        QVERIFY(p.diagnostics.count(msg) > 0);
        QVERIFY(p.instructions.size() < full.instructions.size());
        QVERIFY(p.semaphores.empty());
        QVERIFY(p.dma.empty());
    }
    // Cut right after the metadata: no records at all, still a (empty) profile with a warning.
    {
        const NtffProfile p = mustRead(bytes.substr(0, payloadStart));
        QCOMPARE(p.diagnostics.count(msg), full.recordsRead);
        QVERIFY(p.instructions.empty());
        QCOMPARE(p.recordsRead, uint64_t(0));
    }
}

void TestNtffReader::sectionPastEnd()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(kRealFile);
    std::string bytes = realFile();
    const NtffProfile full = mustRead(bytes);
    const size_t last = full.sections.size() - 1;
    const auto where = sectionField(bytes, last, 5);
    QVERIFY(where.second >= 3);
    const uint64_t huge = (uint64_t(1) << (7 * where.second)) - 1;
    QVERIFY(huge > bytes.size());
    patchVarint(bytes, where, huge);
    try {
        mustRead(bytes);
        QFAIL("a section offset past the end was accepted");
    } catch (const ImportError &e) {
        QVERIFY(e.hasOffset());
        QCOMPARE(e.offset(), full.sections[last].descriptorOffset);
        QVERIFY2(std::string(e.what()).find("past the end of the file") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find(std::to_string(huge)) != std::string::npos, e.what());
    }
}

void TestNtffReader::inconsistentSizes()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(kRealFile);
    const std::string bytes = realFile();
    const NtffProfile full = mustRead(bytes);
    // a size that is not whole records
    {
        std::string b = bytes;
        const auto where = sectionField(b, 1, 6);
        patchVarint(b, where, full.sections[1].size + 1);
        try {
            mustRead(b);
            QFAIL("a section size of partial records was accepted");
        } catch (const ImportError &e) {
            QCOMPARE(e.offset(), full.sections[1].descriptorOffset);
            QVERIFY2(std::string(e.what()).find("not a multiple of 16") != std::string::npos, e.what());
        }
    }
    // a size that runs into the next section
    {
        std::string b = bytes;
        const auto where = sectionField(b, 0, 6);
        patchVarint(b, where, full.sections[0].size + 16);
        try {
            mustRead(b);
            QFAIL("overlapping sections were accepted");
        } catch (const ImportError &e) {
            QVERIFY(e.hasOffset());
            QVERIFY2(std::string(e.what()).find("overlaps") != std::string::npos, e.what());
        }
    }
}

void TestNtffReader::metadataPastEnd()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(kRealFile);
    std::string bytes = realFile();
    bytes[4] = char(0x7f); // metadata length ~2 GB
    try {
        mustRead(bytes);
        QFAIL("metadata past the end was accepted");
    } catch (const ImportError &e) {
        QCOMPARE(e.offset(), uint64_t(1));
        QVERIFY2(std::string(e.what()).find("metadata length") != std::string::npos, e.what());
    }
    try {
        mustRead(bytes.substr(0, 100));
        QFAIL("a file shorter than the header was accepted");
    } catch (const ImportError &e) {
        QVERIFY2(std::string(e.what()).find("header") != std::string::npos, e.what());
    }
    try {
        mustRead(std::string());
        QFAIL("an empty file was accepted");
    } catch (const ImportError &e) {
        QCOMPARE(e.offset(), uint64_t(0));
    }
}

void TestNtffReader::garbage()
{
    std::mt19937_64 rng(20240611);
    for (int round = 0; round < 300; ++round) {
        std::string b(size_t(rng() % 4096), '\0');
        for (auto &c : b)
            c = char(rng());
        if (round % 2 && b.size() >= 0x80) { // get past the version and length checks into the protobuf
            b[0] = 5;
            const uint32_t n = uint32_t(std::min<uint64_t>(b.size() - 0x80, rng() % 2048));
            b[1] = char(n & 0xff);
            b[2] = char(n >> 8);
            b[3] = b[4] = 0;
        }
        bool threw = false;
        try {
            mustRead(b);
        } catch (const ImportError &e) {
            threw = true;
            QVERIFY(std::string(e.what()).find("test.ntff") == 0);
        }
        QVERIFY2(threw, qPrintable(QStringLiteral("random garbage of %1 bytes (round %2) was accepted").arg(b.size()).arg(round)));
    }
}

void TestNtffReader::mutatedFilesNeverCrash()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(kRealFile);
    const std::string bytes = realFile();
    std::mt19937_64 rng(7);
    int errors = 0, loads = 0;
    for (int round = 0; round < 400; ++round) {
        std::string b = bytes;
        const int flips = 1 + int(rng() % 8);
        for (int i = 0; i < flips; ++i) {
            // mostly in the header + metadata, where structure lives
            const size_t at = (rng() % 4) ? size_t(rng() % std::min<size_t>(b.size(), 24000)) : size_t(rng() % b.size());
            b[at] = char(rng());
        }
        if (round % 5 == 0)
            b.resize(size_t(rng() % b.size()));
        try {
            const NtffProfile p = mustRead(b);
            ++loads;
            for (const auto &r : p.instructions)
                QVERIFY(r.timestamp >= 0);
        } catch (const ImportError &) {
            ++errors;
        }
    }
    QVERIFY(errors > 0);
    QVERIFY(loads > 0);
}

void TestNtffReader::protobufReader()
{
    // field 1 varint 150, field 2 bytes "hi", field 3 fixed32, field 4 nested {1: 7}
    const std::string msg("\x08\x96\x01\x12\x02hi\x1d\x01\x00\x00\x00\x22\x02\x08\x07", 16);
    ProtobufReader r(msg, "pb", 1000);
    QCOMPARE(r.integer(1), uint64_t(150));
    QCOMPARE(std::string(r.bytes(2)), std::string("hi"));
    QCOMPARE(r.integer(3), uint64_t(1));
    QCOMPARE(r.message(4)->integer(1), uint64_t(7));
    QCOMPARE(r.message(4)->baseOffset(), uint64_t(1000 + 14));
    QCOMPARE(r.integer(9, 42), uint64_t(42));
    auto expectError = [](std::string_view bytes, const char *needle, uint64_t offset) {
        ProtobufReader bad(bytes, "pb", 100);
        ProtobufReader::Field f;
        try {
            while (bad.next(f)) {
            }
            return std::string("accepted");
        } catch (const ImportError &e) {
            if (std::string(e.what()).find(needle) == std::string::npos)
                return std::string("message: ") + e.what();
            if (e.offset() != offset)
                return "offset " + std::to_string(e.offset()) + ": " + e.what();
        }
        return std::string();
    };
    QCOMPARE(expectError(std::string_view("\x08\x96", 2), "runs past the end", 101), std::string());
    QCOMPARE(expectError(std::string_view("\x12\x05hi", 4), "declares 5 bytes", 100), std::string());
    QCOMPARE(expectError(std::string_view("\x0b", 1), "wire type 3", 100), std::string());
    QCOMPARE(expectError(std::string_view("\x00\x01", 2), "field number 0", 100), std::string());
    QCOMPARE(expectError(std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 11), "overflows 64 bits", 101),
             std::string());
    QCOMPARE(expectError(std::string_view("\x1d\x01\x00", 3), "fixed32", 101), std::string());
    try {
        (void)r.bytes(1);
        QFAIL("varint read as bytes");
    } catch (const ImportError &e) {
        QVERIFY2(std::string(e.what()).find("expected length-delimited") != std::string::npos, e.what());
    }
}

// Builds a small synthetic profile with known answers and checks write -> read reproduces them.
void TestNtffReader::roundTrip()
{
    NtffProfile layout;
    layout.uuid = "00112233445566778899aabbccddeeff";
    layout.neffName = "/tmp/x/graph.neff";
    layout.runtimeVersion = "2.29.40 (f954c)";
    layout.driverVersion = "2.25.0 ()";
    layout.collectivesVersion = "2.29.41 ()";
    layout.instanceType = "trn1.2xlarge";
    layout.subgraphName = "sg00";
    layout.totalTimePs = 9000000;
    // Tensor: NOTIFY start, LDWEIGHTS, MATMUL, unknown 0x41, NOTIFY end; pc 0 runtime-inserted and
    // two NEFF instructions elided before pc 2.
    NtffProgram tensor = NtffWriter::makeProgram(NtffEngine::Tensor, {0xa6, 0x01, 0x02, 0x41, 0xa6}, {2, 0, 0, 0, 3});
    tensor.runtimeBlocks = {{0, 1, 0}, {2, 2, 2}};
    layout.programs.push_back(tensor);
    for (NtffEngine e : {NtffEngine::Scalar, NtffEngine::GpSimd, NtffEngine::Vector, NtffEngine::Sync})
        layout.programs.push_back(NtffWriter::makeProgram(e, {0xa6, 0xa0, 0xa6}, {2, 0, 3}));
    layout.dmaQueues.push_back({0, 1, 2, "qSPSpillReload0", {}});

    NtffWriter w(layout);
    const int64_t C = 2000700; // origin: end of Tensor's start NOTIFY (the latest)
    w.addInstruction(NtffEngine::Tensor, 0, 1000500, C);
    for (NtffEngine e : {NtffEngine::Scalar, NtffEngine::GpSimd, NtffEngine::Vector, NtffEngine::Sync})
        w.addInstruction(e, 0, 900000, 1500000);
    struct In { NtffEngine e; uint32_t pc; int64_t b, end; uint32_t wait; uint16_t ci, co; };
    const std::vector<In> ins = {
        {NtffEngine::Tensor, 1, C + 1999, C + 12345, 14, 0x1234, 0xffff},
        {NtffEngine::Tensor, 2, C + 13000, C + 20999, 0, 1, 2},
        {NtffEngine::Tensor, 3, C + 21000, C + 21000, 7000, 3, 4},
        {NtffEngine::Vector, 1, C + 5, C + 1004, 65535, 5, 6},
        {NtffEngine::Sync, 1, C, C + 999, 0, 7, 8},
        {NtffEngine::Tensor, 4, C + 30000, C + 31000, 0, 0xffff, 0xffff},
        {NtffEngine::Scalar, 2, C + 30500, C + 40000, 0, 0xffff, 0xffff},
    };
    for (const In &i : ins)
        w.addInstruction(i.e, i.pc, i.b, i.end, i.wait, i.ci, i.co);
    w.addInstruction(NtffEngine::GpSimd, 1, C - 10, C + 5000); // starts before the window: skipped
    w.addInstructionRecord(NtffEngine::GpSimd, 2, true, C + 100); // end without begin
    w.addInstructionRecord(NtffEngine::Vector, 2, false, C + 200); // begin without end
    w.addInstruction(NtffEngine::Scalar, 7, C + 10, C + 20); // outside the program: skipped

    // DMA times exactly on the 1024/1204672 tick: ps = floor(k * mul / div)
    const auto dmaPs = [](int64_t k) { return (k * 1204672) / 1024; };
    const int64_t k0 = C * 1024 / 1204672 + 3;
    w.addDmaRecord(0, 1, 1, dmaPs(k0));      // pipelined: two starts, then two completions (FIFO)
    w.addDmaRecord(0, 1, 1, dmaPs(k0 + 2));
    w.addDmaRecord(0, 1, 5, dmaPs(k0 + 5), 2048, 0xabcd);
    w.addDmaRecord(0, 1, 6, dmaPs(k0 + 6));
    w.addDmaRecord(0, 1, 5, dmaPs(k0 + 9), 4, 0x1111);
    w.addDmaPacket(9, 14, dmaPs(k0 + 1), dmaPs(k0 + 4), 8, 77);
    w.addDmaPacket(3, 0, dmaPs(k0 - 10), dmaPs(k0 + 1), 64, 1); // starts before the window: skipped
    w.addSemaphoreUpdate(12, C + 3000, 1);
    w.addSemaphoreUpdate(12, C + 4999, 2, 6);
    w.addSemaphoreUpdate(200, C + 10, 0xffffffff);
    w.addSemaphoreUpdate(3, C - 1, 5); // before the window
    w.addOtherEvent(1, C + 50);
    const auto thPs = [](int64_t k) { return (k * 731408) / 1024; };
    const int64_t t0 = C * 1024 / 731408 + 1;
    w.addThrottle(thPs(t0), 1, 1, 99);
    w.addThrottle(thPs(t0 + 10), 7, 8);
    w.addInstruction(NtffEngine::Tensor, 4, C + 45000, C + 46000); // hint-3 NOTIFY again (begin counts)

    const std::string bytes = w.bytes();
    QCOMPARE(uint64_t(bytes.size()), w.fileSize());
    const NtffProfile p = mustRead(bytes);
    QCOMPARE(int(p.version), 5);
    QCOMPARE(p.uuid, layout.uuid);
    QCOMPARE(p.neffName, layout.neffName);
    QCOMPARE(p.runtimeVersion, layout.runtimeVersion);
    QCOMPARE(p.driverVersion, layout.driverVersion);
    QCOMPARE(p.collectivesVersion, layout.collectivesVersion);
    QCOMPARE(p.instanceType, layout.instanceType);
    QCOMPARE(p.subgraphName, layout.subgraphName);
    QCOMPARE(p.totalTimePs.value_or(0), layout.totalTimePs.value_or(1));
    QVERIFY(p.originFromNotify);
    QCOMPARE(p.originPs, C);
    QCOMPARE(p.decodedTotalTimePs.value_or(-1), int64_t(C + 45000 - 900000));
    QCOMPARE(p.recordsRead, w.recordCount());
    QCOMPARE(p.dmaQueues.size(), size_t(1));
    QCOMPARE(p.dmaQueues[0].displayName, std::string("qSyncSpillReload0"));

    auto fl = [](int64_t ps) { return ps >= 0 ? ps / 1000 : -((-ps + 999) / 1000); };
    const std::vector<int64_t> neffIndexOfTensorPc = {-1, 0, 3, 4, 5};
    std::vector<InstrKey> expected;
    for (const In &i : ins) {
        const std::string engine(ntffEngineName(i.e));
        const NtffProgram &prog = *layout.program(i.e);
        const uint8_t op = prog.opcodes[i.pc];
        const std::string label = i.e == NtffEngine::Tensor && op == 0x02 ? "TensorMatrix" : engine;
        const int64_t cpc = i.e == NtffEngine::Tensor ? neffIndexOfTensorPc[i.pc] : int64_t(i.pc == 0 ? 0 : i.pc);
        expected.push_back({"", engine, i.pc, fl(i.b - C), label, fl(i.end - i.b), std::string(ntffOpcodeName(op)),
                            int64_t(i.wait) * 5 / 7, i.ci, i.co, cpc});
    }
    expected.push_back({"", "Tensor", 4, fl(45000), "Tensor", 1, "NOTIFY", 0, 0xffff, 0xffff, 5});
    std::string diff = compareRows("instruction", expected, decodedInstructions(p));
    QVERIFY2(diff.empty(), diff.c_str());
    QCOMPARE(std::string(ntffOpcodeName(0x41)), std::string("op 0x41"));
    QCOMPARE(p.lastHwTimestamp, fl(C + 46000 - C));

    const std::vector<DmaKey> dma = {
        {0, 1, fl(dmaPs(k0) - C), fl(dmaPs(k0 + 5) - dmaPs(k0)), 2048, 0xabcd},
        {0, 1, fl(dmaPs(k0 + 2) - C), fl(dmaPs(k0 + 9) - dmaPs(k0 + 2)), 4, 0x1111},
        {9, 14, fl(dmaPs(k0 + 1) - C), fl(dmaPs(k0 + 4) - dmaPs(k0 + 1)), 8, 77},
    };
    diff = compareRows("dma", dma, decodedDma(p));
    QVERIFY2(diff.empty(), diff.c_str());
    const std::vector<SemKey> sem = {{12, 3, 1}, {12, 4, 2}, {200, 0, 0xffffffff}};
    diff = compareRows("semaphore", sem, decodedSemaphores(p));
    QVERIFY2(diff.empty(), diff.c_str());
    QCOMPARE(p.otherEventCount, uint64_t(1));
    QCOMPARE(p.eventRecordCount, uint64_t(5));
    const std::vector<HamKey> ham = {{fl(thPs(t0) - C), fl(thPs(t0 + 10) - thPs(t0)), 1, 1, 99},
                                     {fl(thPs(t0 + 10) - C), fl(C + 46000 - C - (thPs(t0 + 10) - C)), 7, 8, 0}};
    diff = compareRows("ham", ham, decodedThrottle(p));
    QVERIFY2(diff.empty(), diff.c_str());

    const auto &d = p.diagnostics;
    QCOMPARE(d.count("instruction ends without a begin (skipped)"), uint64_t(1));
    QCOMPARE(d.count("instruction begins without an end (dropped)"), uint64_t(1));
    QCOMPARE(d.count("instructions starting before the trace window (skipped)"), uint64_t(6)); // 5 NOTIFYs + GpSimd
    QCOMPARE(d.count("instructions outside the current program, from a previous execution (skipped)"), uint64_t(1));
    QCOMPARE(d.count("DMA packets starting before the trace window (skipped)"), uint64_t(1));
    // its completion lies inside the window: records before the window are dropped before pairing
    QCOMPARE(d.count("DMA completions left over after the records before the window were dropped (skipped)"), uint64_t(1));
    QCOMPARE(d.count("events before the trace window (skipped)"), uint64_t(1));
    // Expected filtering is a note; an instruction without its other half is a warning.
    QCOMPARE(d.total(DiagnosticSeverity::Note), uint64_t(6 + 1 + 1 + 1 + 1));
    for (const Warning &w : d.warnings()) {
        const bool expected = w.message.find("before the trace window") != std::string::npos ||
                              w.message.find("before the window were dropped") != std::string::npos ||
                              w.message.find("previous execution") != std::string::npos;
        QVERIFY2(w.isNote() == expected, w.message.c_str());
    }
    QVERIFY(d.hasWarnings());

    // the same bytes through save() and a file
    const QString path = QDir::temp().filePath(QStringLiteral("tst_ntffreader_roundtrip.ntff"));
    w.save(path.toStdString());
    QCOMPARE(test::readFile(path), bytes);
    QFile::remove(path);
}

// A capture hours long: (raw - base) * mul overflows 64 bits; the 128-bit path must stay exact.
void TestNtffReader::longCaptureNeeds128Bits()
{
    NtffProfile layout;
    layout.subgraphName = "sg00";
    layout.programs.push_back(NtffWriter::makeProgram(NtffEngine::Tensor, {0xa6, 0xa4, 0xa6}, {2, 0, 3}));
    layout.clocks = NtffWriter::defaultClocks();
    for (auto &c : layout.clocks)
        c.base = 0; // every raw tick is ~1e16 away from the base
    NtffWriter w(layout);
    const int64_t C = int64_t(10) * 1000 * 1000 * 1000 * 1000 * 1000 + 123456; // ~2.8 hours in ps
    w.addInstruction(NtffEngine::Tensor, 0, C - 5000, C);
    w.addInstruction(NtffEngine::Tensor, 1, C + 1234567, C + 2345678);
    w.addInstruction(NtffEngine::Tensor, 2, C + 3000000, C + 3000500);
    w.addSemaphoreUpdate(4, C + 999999, 9);
    const NtffProfile p = mustRead(w.bytes());
    QCOMPARE(p.originPs, C);
    QCOMPARE(p.instructions.size(), size_t(2));
    std::vector<InstrKey> expected = {{"", "Tensor", 1, 1234, "Tensor", 1111, "NOP", 0, 0xffff, 0xffff, 1},
                                      {"", "Tensor", 2, 3000, "Tensor", 0, "NOTIFY", 0, 0xffff, 0xffff, 2}};
    const std::string diff = compareRows("instruction", expected, decodedInstructions(p));
    QVERIFY2(diff.empty(), diff.c_str());
    QCOMPARE(p.semaphores.size(), size_t(1));
    QCOMPARE(p.semaphores[0].timestamp, int64_t(999));
}

void TestNtffReader::cancel()
{
    NtffProfile layout;
    layout.programs.push_back(NtffWriter::makeProgram(NtffEngine::Tensor, {0xa6, 0xa4}, {2, 0}));
    NtffWriter w(layout);
    for (int i = 0; i < 200000; ++i)
        w.addInstruction(NtffEngine::Tensor, 1, int64_t(i) * 1000, int64_t(i) * 1000 + 500);
    const std::string bytes = w.bytes();
    std::atomic<bool> stop{false};
    LoadOptions options;
    options.cancel = &stop;
    std::vector<int> progress;
    options.progress = [&](int p) {
        progress.push_back(p);
        if (p > 300)
            stop = true;
    };
    bool cancelled = false;
    try {
        NtffReader::read(bytes, "big.ntff", options);
    } catch (const LoadCancelled &) {
        cancelled = true;
    }
    QVERIFY(cancelled);
    QVERIFY(progress.size() > 2);
    QVERIFY(std::is_sorted(progress.begin(), progress.end()));
    // without cancelling: progress runs to 1000
    progress.clear();
    LoadOptions plain;
    plain.progress = [&](int p) { progress.push_back(p); };
    const NtffProfile p = NtffReader::read(bytes, "big.ntff", plain);
    QCOMPARE(progress.back(), 1000);
    QVERIFY(std::is_sorted(progress.begin(), progress.end()));
    QVERIFY(!p.originFromNotify); // no start NOTIFY ever ended: time 0 is the first instruction
    QCOMPARE(p.instructions.size(), size_t(200000));
}

QTEST_GUILESS_MAIN(TestNtffReader)
#include "tst_ntffreader.moc"
