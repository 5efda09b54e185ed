// NeuronProfileJsonReader / NeuronProfileJsonImporter against the NTFF each real export came from:
// for every JSON in corpus/neuron-profile-json/ (profiler 2.27, inf2, one core) and
// corpus/neuron-trn2-v6/ (profiler 2.28, trn2, two physical cores) the rows read from the JSON equal,
// field by field and with the physical core each ran on, the rows NtffReader decodes from the .ntff
// beside it (NtffReader is itself proven row-for-row equal to the JSON by tst_ntffreader, so a
// difference here is a reader bug), and the traces built from both have the same tracks, slices and
// counter samples. Plus metadata kept as reported by neuron-profile (warnings, terminology), the cores
// of model_info, sniffing, missing fields, unknown opcode names, error cases (not an export,
// truncated) and cancel.
#include "compress.h"
#include "corpus.h"
#include "filebytes.h"
#include "profilerowtexts.h"

#include "io/input/inputbuffer.h"
#include "io/neuronprofile/neuronprofilejsonimporter.h"
#include "io/neuronprofile/neuronprofilejsonreader.h"
#include "io/ntff/ntffimporter.h"
#include "io/ntff/ntffreader.h"
#include "io/traceloader.h"
#include "analysis/memoryreport.h"
#include "model/hierarchynames.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

using namespace lanescope;
using namespace lanescope::test;

namespace {

NtffProfile readJson(const std::string &bytes, const std::string &name = "test.json", const LoadOptions &options = {})
{
    InputBuffer input = InputBuffer::fromBytes(bytes, name, options);
    return NeuronProfileJsonReader::read(input, name, options);
}


// Everything a view sees of one track: path, kind, slices (time, name, category) and counter samples.
std::string describeTrack(const Trace &t, uint32_t i, std::string name)
{
    const Track &tr = t.tracks()[i];
    std::ostringstream s;
    s << t.groupPath(tr.group) << " / " << name << " kind=" << int(tr.kind) << " sort=" << tr.sortIndex
      << " slices=" << tr.sliceCount << " counters=" << tr.counterCount << " instants=" << tr.instantCount;
    for (const Slice &sl : t.slices(TrackId(i)))
        s << "\n  " << sl.start << "+" << sl.duration << " " << t.str(sl.name) << " [" << t.str(sl.category)
          << "] depth " << sl.depth;
    for (const CounterSample &c : t.counterSamples(TrackId(i)))
        s << "\n  " << c.ts << " = " << c.value;
    return s.str();
}

std::string firstLineDiff(const std::string &a, const std::string &b)
{
    std::istringstream x(a), y(b);
    std::string la, lb;
    int line = 0;
    while (true) {
        const bool ga = bool(std::getline(x, la)), gb = bool(std::getline(y, lb));
        if (!ga && !gb)
            return {};
        if (!ga || !gb || la != lb)
            return "line " + std::to_string(line) + ":\n  ntff: " + (ga ? la : "(end)") +
                   "\n  json: " + (gb ? lb : "(end)");
        ++line;
    }
}

const std::string *entry(const Trace &t, const std::string &key)
{
    return t.metadata().find(key);
}

// The physical core of a track: the position of its "pcore N" group, 0 on a one-core profile.
int64_t coreOfTrack(const Trace &t, const Track &tr)
{
    for (GroupId g = tr.group; g.isValid(); g = t.group(g).parent)
        if (t.group(g).kind == GroupKind::PhysicalCore)
            return t.group(g).externalId;
    return 0;
}

// A neuron-profile-like export with `n` instruction rows (22 keys each, as the real export writes).
std::string syntheticJson(int n)
{
    std::string s = R"({"metadata":[{"ntff_version":5,"last_hw_timestamp":)" + std::to_string(n * 10 + 5) +
                    R"(,"first_hw_timestamp":0}],"instruction":[)";
    static const char *ops[] = {"DRAIN", "EVENT_SEMAPHORE", "MATMUL", "NOP"};
    for (int i = 0; i < n; ++i) {
        const char *op = ops[i % 4];
        const bool matmul = i % 4 == 2;
        s += (i ? "," : "");
        s += R"({"crc_in":65535,"hlo_attrs":"","activation_fn":"","bir_id":"","evt_wait_time":0,"duration":5,)"
             R"("penguin_id":"","fully_qualified_subgraph":"/sg00","pc":)" +
             std::to_string(i % 1000) + R"(,"layer":"","instruction_type":"","crc_out":65535,"hlo_name":"",)" +
             R"("bir_instruction_name":"","timestamp":)" + std::to_string(i * 10) + R"(,"raw_bir_id":0,"id":)" +
             std::to_string(7074752707989819081ull + uint64_t(i)) +
             R"(,"raw_penguin_id":0,"subgroup":"Tensor","operands":" ",)" + R"("label":")" +
             (matmul ? "TensorMatrix" : "Tensor") + R"(","opcode":")" + op + R"("})";
    }
    s += "]}";
    return s;
}

} // namespace

class TestNeuronProfileJsonReader : public QObject
{
    Q_OBJECT

private slots:
    void groundTruth_data();
    void groundTruth();
    void missingFields();
    void physicalCores();
    void unknownOpcodeNames();
    void notAnExport_data();
    void notAnExport();
    void truncated();
    void cancel();
};

void TestNeuronProfileJsonReader::groundTruth_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("ntff");
    const QDir dir(lanescope::test::corpusFile(QStringLiteral("neuron-profile-json")));
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString &f : files) {
        const QString ntff = dir.filePath(f.chopped(5) + QStringLiteral(".ntff"));
        QVERIFY2(QFile::exists(ntff), qPrintable(ntff));
        QTest::newRow(qPrintable(f)) << dir.filePath(f) << ntff;
    }
    // trn2, NTFF v6: <kernel>/<name>_exec_2_profile_full.json beside <name>_exec_2.ntff (profiler 2.28)
    const QDir v6(lanescope::test::corpusFile(QStringLiteral("neuron-trn2-v6")));
    for (const QString &kernel : v6.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QDir k(v6.filePath(kernel));
        for (const QString &f : k.entryList({QStringLiteral("*_profile_full.json")}, QDir::Files, QDir::Name)) {
            const QString ntff = k.filePath(f.chopped(int(strlen("_profile_full.json"))) + QStringLiteral(".ntff"));
            QVERIFY2(QFile::exists(ntff), qPrintable(ntff));
            QTest::newRow(qPrintable(kernel + QLatin1Char('/') + f)) << k.filePath(f) << ntff;
        }
    }
}

void TestNeuronProfileJsonReader::groundTruth()
{
    LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-profile-json"));
    QFETCH(QString, json);
    QFETCH(QString, ntff);
    const std::string jsonPath = json.toStdString(), ntffPath = ntff.toStdString();
    InputBuffer jsonInput = InputBuffer::read(jsonPath, {});
    const InputBuffer ntffInput = InputBuffer::read(ntffPath, {});
    QCOMPARE(TraceLoader::sniff(jsonInput.view().substr(0, 4096), jsonInput.size()), FileFormat::NeuronProfileJson);

    const NtffProfile fromNtff = NtffReader::read(ntffInput.view(), ntffPath);
    const NtffProfile p = NeuronProfileJsonReader::read(jsonInput, jsonPath);

    // rows: every field the JSON carries
    std::string diff = compareRows("instruction", instructionRows(fromNtff), instructionRows(p));
    QVERIFY2(diff.empty(), diff.c_str());
    diff = compareRows("dma", dmaRows(fromNtff), dmaRows(p));
    QVERIFY2(diff.empty(), diff.c_str());
    diff = compareRows("semaphore_update", semaphoreRows(fromNtff), semaphoreRows(p));
    QVERIFY2(diff.empty(), diff.c_str());
    diff = compareRows("ham", throttleRows(fromNtff), throttleRows(p));
    QVERIFY2(diff.empty(), diff.c_str());
    QVERIFY(!p.instructions.empty() && !p.dma.empty() && !p.semaphores.empty());
    QVERIFY(p.extraOpcodeNames.empty()); // every opcode of the corpus is in the table
    // the physical cores: model_info's sg_name and nc_idx (trn2: sg00 = 4, sg01 = 5), the NTFF's subgraphs
    QCOMPARE(p.cores.size(), fromNtff.cores.size());
    for (size_t k = 0; k < p.cores.size(); ++k) {
        QCOMPARE(p.cores[k].subgraphName, fromNtff.cores[k].subgraphName);
        QCOMPARE(p.cores[k].index.has_value(), fromNtff.cores[k].index.has_value());
        QCOMPARE(p.cores[k].index.value_or(0), fromNtff.cores[k].index.value_or(0));
    }
    const bool v6 = p.version >= 6;
    QCOMPARE(p.cores.size(), size_t(v6 ? 2 : 1));

    // header and metadata
    QCOMPARE(int(p.version), int(fromNtff.version));
    QCOMPARE(p.uuid, fromNtff.uuid);
    QCOMPARE(p.neffName, fromNtff.neffName);
    QCOMPARE(p.runtimeVersion, fromNtff.runtimeVersion);
    QCOMPARE(p.driverVersion, fromNtff.driverVersion);
    QCOMPARE(p.collectivesVersion, fromNtff.collectivesVersion);
    QCOMPARE(p.instanceType, fromNtff.instanceType);
    QCOMPARE(p.subgraphName, fromNtff.subgraphName);
    QVERIFY(p.totalTimePs.has_value() && fromNtff.totalTimePs.has_value());
    QCOMPARE(*p.totalTimePs, *fromNtff.totalTimePs);
    QCOMPARE(p.lastHwTimestamp, fromNtff.lastHwTimestamp);
    QCOMPARE(p.eventRecordCount, fromNtff.eventRecordCount);
    QCOMPARE(p.sourceFormat, std::string("neuron-profile-json"));
    QCOMPARE(p.fileSize, uint64_t(jsonInput.size()));
    // every queue the JSON names is a descriptor of the NTFF under the same display name, on the same core
    QVERIFY(!p.dmaQueues.empty());
    for (const auto &q : p.dmaQueues) {
        const NtffDmaQueue *n = fromNtff.dmaQueue(q.engine, q.queue);
        QVERIFY2(n, qPrintable(QStringLiteral("queue E%1 Q%2 not in the NTFF").arg(q.engine).arg(q.queue)));
        QCOMPARE(q.displayName, n->displayName);
        QCOMPARE(int(q.core), int(n->core));
    }
    // static memory per physical core (nc_mem_usage "nc" = model_info nc_idx)
    QVERIFY(!p.memoryUsage.empty());
    for (size_t k = 0; k < p.cores.size(); ++k)
        QVERIFY(std::any_of(p.memoryUsage.begin(), p.memoryUsage.end(), [k](const NtffMemoryUsage &m) { return m.core == k; }));

    // independently of the reader (QJsonDocument): what the reader skipped and the names it kept
    QFile jf(json);
    QVERIFY(jf.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(jf.readAll()).object();
    QVERIFY(!doc.isEmpty());
    // Block-level rows ("aggregated" not "no") are the DMA transfers, kept in file order with their
    // tensor and memories; every other row is a packet, tagged the same way.
    qsizetype aggregated = 0, packet = 0;
    for (const auto &v : doc.value(QStringLiteral("dma")).toArray()) {
        const QJsonObject row = v.toObject();
        const auto name = [](const QString &n) { return n == QLatin1String("unknown") ? QString() : n; };
        const QString variable = name(row.value(QStringLiteral("variable")).toString());
        const QString source = name(row.value(QStringLiteral("source")).toArray().at(0).toArray().at(0).toString());
        const QString dest = name(row.value(QStringLiteral("dest")).toArray().at(0).toString());
        NtffDmaTag tag;
        if (row.value(QStringLiteral("aggregated")).toString() != QStringLiteral("no")) {
            QVERIFY(aggregated < qsizetype(p.dmaBlocks.size()));
            const NtffDmaBlock &b = p.dmaBlocks[size_t(aggregated++)];
            QCOMPARE(qint64(b.timestamp), row.value(QStringLiteral("timestamp")).toInteger());
            QCOMPARE(qint64(b.transferSize), row.value(QStringLiteral("transfer_size")).toInteger());
            QCOMPARE(QString::fromStdString(b.queue), row.value(QStringLiteral("subgroup")).toString());
            tag = b.tag;
        } else {
            QVERIFY(packet < qsizetype(p.dmaTags.size()));
            tag = p.dmaTags[size_t(packet++)];
        }
        QCOMPARE(QString::fromUtf8(p.name(tag.variable)), variable);
        QCOMPARE(QString::fromUtf8(p.name(tag.source)), source);
        QCOMPARE(QString::fromUtf8(p.name(tag.dest)), dest);
        QCOMPARE(QString::fromUtf8(p.name(tag.queueType)), name(row.value(QStringLiteral("queue_type")).toString()));
    }
    QVERIFY(v6 ? aggregated == 0 : aggregated > 0); // 2.28 writes no block-level rows
    QCOMPARE(qsizetype(p.dmaBlocks.size()), aggregated);
    QCOMPARE(qsizetype(p.dma.size()), packet);
    QCOMPARE(qsizetype(p.instructions.size()), doc.value(QStringLiteral("instruction")).toArray().size());
    QCOMPARE(p.diagnostics.total(), uint64_t(0)); // nothing was skipped or defaulted
    static const QRegularExpression named(QStringLiteral("^S\\[(\\d+)\\] \\((.*)\\)$"));
    std::map<uint32_t, std::string> names; // core * 256 + id (semaphores are per physical core)
    const auto coreNamed = [&p](const QJsonObject &row) {
        const std::string sg = row.value(QStringLiteral("subgraph")).toString().toStdString();
        for (uint32_t k = 0; k < p.cores.size(); ++k)
            if (p.cores[k].subgraphName == sg)
                return k;
        return 0u; // 2.27: no "subgraph", one core
    };
    for (const auto &v : doc.value(QStringLiteral("semaphore_update")).toArray()) {
        const auto m = named.match(v.toObject().value(QStringLiteral("id")).toString());
        if (m.hasMatch())
            names[coreNamed(v.toObject()) * 256 + m.captured(1).toUInt()] = m.captured(2).toStdString();
    }
    QVERIFY(!names.empty());
    QVERIFY(p.semaphoreNames == names);

    // kept as reported by neuron-profile
    auto reported = [&p](const std::string &key) -> const std::string * {
        for (const auto &[k, v] : p.reportedMetadata)
            if (k == key)
                return &v;
        return nullptr;
    };
    const QJsonObject summary = doc.value(QStringLiteral("summary")).toArray().first().toObject();
    const std::string *totalTime = reported("neuron_profile.summary.total_time");
    QVERIFY(totalTime);
    QCOMPARE(QByteArray::fromStdString(*totalTime).toDouble(), summary.value(QStringLiteral("total_time")).toDouble());
    QCOMPARE(qsizetype(std::count_if(p.reportedMetadata.begin(), p.reportedMetadata.end(),
                                     [](const auto &e) { return e.first.rfind("neuron_profile.summary.", 0) == 0; })),
             summary.size());
    const QJsonObject modelInfo = doc.value(QStringLiteral("model_info")).toArray().first().toObject();
    QVERIFY(reported("neuron_profile.model_info.trace_count"));
    QCOMPARE(*reported("neuron_profile.model_info.trace_count"),
             std::to_string(modelInfo.value(QStringLiteral("trace_count")).toInteger()));
    const QJsonArray layers = doc.value(QStringLiteral("layer_summary")).toArray();
    for (qsizetype i = 0; i < layers.size(); ++i) {
        const std::string *layerName = reported("neuron_profile.layer_summary[" + std::to_string(i) + "].name");
        QVERIFY(layerName);
        QCOMPARE(*layerName, layers[i].toObject().value(QStringLiteral("name")).toString().toStdString());
    }
    const QJsonArray queues = doc.value(QStringLiteral("dma_queues_info")).toArray();
    QVERIFY(!queues.isEmpty());
    for (qsizetype i = 0; i < queues.size(); ++i) {
        const std::string *queueName = reported("neuron_profile.dma_queues_info[" + std::to_string(i) + "].q_name");
        QVERIFY(queueName);
        QCOMPARE(*queueName, queues[i].toObject().value(QStringLiteral("q_name")).toString().toStdString());
    }
    QVERIFY(reported("neuron_profile.metadata.pe_clock_freq"));
    QVERIFY(reported("neuron_profile.profile_info.profiler_version"));
    // neuron-profile's warnings (capture findings read them) and its terminology (the definitions of
    // the summary metrics), verbatim
    const QJsonArray exportWarnings = doc.value(QStringLiteral("warnings")).toArray();
    QCOMPARE(exportWarnings.size(), qsizetype(v6 ? 3 : 2));
    for (qsizetype i = 0; i < exportWarnings.size(); ++i)
        for (const char *field : {"category", "message"}) {
            const std::string *kept = reported("neuron_profile.warnings[" + std::to_string(i) + "]." + field);
            QVERIFY2(kept, field);
            QCOMPARE(QString::fromStdString(*kept), exportWarnings[i].toObject().value(QLatin1String(field)).toString());
        }
    const QJsonObject terminology = doc.value(QStringLiteral("terminology")).toArray().first().toObject();
    QCOMPARE(terminology.size(), qsizetype(v6 ? 186 : 154));
    QCOMPARE(qsizetype(std::count_if(p.reportedMetadata.begin(), p.reportedMetadata.end(),
                                     [](const auto &e) { return e.first.rfind("neuron_profile.terminology.", 0) == 0; })),
             terminology.size());
    QCOMPARE(QString::fromStdString(*reported("neuron_profile.terminology.mfu_estimated_percent")),
             terminology.value(QStringLiteral("mfu_estimated_percent")).toString());

    // the traces: same tracks in the same order, same slices and counter samples. Names: semaphore
    // tracks additionally carry the name neuron-profile shows; DMA lanes are named exactly as
    // neuron-profile named them on the rows ("subgroup"), which the NTFF importer does not always do
    // (checked separately below).
    std::map<int64_t, std::string> laneOfQueue; // engine * 16 + queue -> subgroup of its packet rows
    for (const auto &v : doc.value(QStringLiteral("dma")).toArray()) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("aggregated")).toString() == QStringLiteral("no"))
            laneOfQueue[o.value(QStringLiteral("dma_engine")).toString().toLongLong() * 16 +
                        o.value(QStringLiteral("dma_queue")).toString().toLongLong()] =
                o.value(QStringLiteral("subgroup")).toString().toStdString();
    }
    const Trace fromJson = NeuronProfileJsonImporter::import(jsonInput, jsonPath, {});
    const Trace t = NtffImporter::import(ntffInput, ntffPath, {});
    // The JSON's own lanes, which the NTFF cannot have: DMA transfers and the usage / throughput
    // counters neuron-profile computed; every other track is the NTFF's, in its order. The layers and
    // HLO ops lanes are shared: the NTFF takes them from this export beside it (NtffExportOps).
    bool ntffHasLayers = false;
    for (const Track &tr : t.tracks())
        ntffHasLayers = ntffHasLayers || t.str(tr.name) == HierarchyNames::kLayer.lane.name;
    QVERIFY(ntffHasLayers);
    std::vector<uint32_t> shared;
    size_t jsonOnly = 0;
    for (uint32_t i = 0; i < fromJson.tracks().size(); ++i) {
        const std::string name(fromJson.str(fromJson.tracks()[i].name));
        if (name == HierarchyNames::kTransfers.name || MemoryReport::isMemoryCounter(name))
            ++jsonOnly;
        else
            shared.push_back(i);
    }
    // the 2.27 exports summarise transfers and carry counters; the 2.28 ones (NKI kernels) carry counters
    QVERIFY(jsonOnly >= 1u);
    QCOMPARE(shared.size(), t.tracks().size());
    QCOMPARE(fromJson.groups().size(), t.groups().size());
    size_t renamed = 0, dmaTracks = 0;
    QStringList ntffLaneNameDiffs;
    for (uint32_t i = 0; i < t.tracks().size(); ++i) {
        const Track &tr = t.tracks()[i];
        std::string expectedName(t.str(tr.name));
        static const QRegularExpression semaphore(QStringLiteral("^semaphore (\\d+)$"));
        const auto m = semaphore.match(QString::fromStdString(expectedName));
        const uint32_t semaphoreKey = uint32_t(coreOfTrack(t, tr)) * 256 + m.captured(1).toUInt();
        if (m.hasMatch() && names.count(semaphoreKey)) {
            expectedName += " (" + names[semaphoreKey] + ")";
            ++renamed;
        }
        if (tr.sliceCount && t.str(t.slices(TrackId(i))[0].category) == "dma") {
            ++dmaTracks;
            QVERIFY(laneOfQueue.count(tr.externalId));
            if (expectedName != laneOfQueue[tr.externalId])
                ntffLaneNameDiffs << QString::fromStdString(expectedName +
                                                            " (neuron-profile: " + laneOfQueue[tr.externalId] + ")");
            expectedName = laneOfQueue[tr.externalId];
        }
        const std::string a = describeTrack(t, i, expectedName);
        const std::string b = describeTrack(fromJson, shared[i], std::string(fromJson.str(fromJson.tracks()[shared[i]].name)));
        const std::string d = firstLineDiff(a, b);
        QVERIFY2(d.empty(), qPrintable(QStringLiteral("track %1: %2").arg(i).arg(QString::fromStdString(d))));
    }
    QCOMPARE(renamed, names.size());
    QCOMPARE(dmaTracks, laneOfQueue.size());
    // The NTFF has a descriptor (qPoolDynamic) for queue 0 of every DMA engine; neuron-profile leaves
    // those software-DGE lanes unnamed ("Q0-E<n>") and so must NtffImporter.
    if (!ntffLaneNameDiffs.isEmpty())
        qInfo("%lld NTFF importer lane names differ from neuron-profile's, e.g. %s",
              qlonglong(ntffLaneNameDiffs.size()), qPrintable(ntffLaneNameDiffs.first()));
    QCOMPARE(ntffLaneNameDiffs.size(), qsizetype(0));
    QCOMPARE(fromJson.metadata().format, std::string("neuron-profile-json"));
    QCOMPARE(fromJson.metadata().sourcePath, jsonPath);
    std::vector<std::string> keys = {"ntff_version", "uuid",          "neff_name", "runtime_version",  "driver_version",
                                     "collectives_version", "instance_type", "subgraph", "total_time_ps", "last_hw_timestamp"};
    if (v6) // per physical core (the NTFF's second core's total time is not in the JSON)
        for (const char *key : {"physical_cores", "pcore[0].subgraph", "pcore[0].index", "pcore[0].total_time_ps",
                                "pcore[1].subgraph", "pcore[1].index"})
            keys.emplace_back(key);
    for (const std::string &key : keys) {
        QVERIFY2(entry(fromJson, key) && entry(t, key), key.c_str());
        QCOMPARE(*entry(fromJson, key), *entry(t, key));
    }
    QVERIFY(entry(fromJson, "neuron_profile.summary.total_time"));
    QCOMPARE(*entry(fromJson, "neuron_profile.summary.total_time"), *totalTime);
    QCOMPARE(fromJson.startNs(), t.startNs());
    QCOMPARE(fromJson.endNs(), t.endNs());

    // through the loader, as the GUI and CLI open it
    const LoadResult r = TraceLoader::load(jsonPath);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.trace->metadata().format, std::string("neuron-profile-json"));
    QCOMPARE(r.trace->tracks().size(), fromJson.tracks().size());
    qInfo("%s: equal to the NTFF: %zu instruction, %zu dma, %zu semaphore_update, %zu ham rows; %zu tracks",
          qPrintable(QFileInfo(json).fileName()), p.instructions.size(), p.dma.size(), p.semaphores.size(),
          p.throttle.size(), size_t(t.tracks().size()));
}

// Rows with missing or invalid fields: required ones skip the row, optional ones take a default;
// both are counted, nothing is silently lost.
void TestNeuronProfileJsonReader::missingFields()
{
    const std::string json = R"json({"instruction":[
        {"timestamp":10,"duration":2,"pc":7,"opcode":"NOP","subgroup":"Vector","label":"Vector","evt_wait_time":3,"crc_in":1,"crc_out":2,"compiler_pc":4},
        {"duration":2,"pc":7,"opcode":"NOP","subgroup":"Vector","label":"Vector"},
        {"timestamp":"11","duration":2,"pc":8,"opcode":"MATMUL","subgroup":"Tensor"},
        {"timestamp":12,"duration":2,"pc":9,"opcode":"NOP","subgroup":"Nowhere","label":"Nowhere"},
        {"timestamp":13,"duration":-1,"pc":9,"opcode":"NOP","subgroup":"Sync","label":"Sync"},
        {"timestamp":14,"duration":1,"pc":9,"opcode":"NOP","label":"TensorMatrix","evt_wait_time":0,"crc_in":1,"crc_out":2},
        17],
      "dma":[{"timestamp":5,"duration":3,"dma_engine":"2","dma_queue":"14","transfer_size":64,"crc":9,"aggregated":"no","subgroup":"Q14-E2"},
             {"timestamp":5,"duration":3,"dma_engine":"256","dma_queue":"0","transfer_size":64,"aggregated":"no"},
             {"timestamp":6,"duration":3,"dma_engine":"1","dma_queue":"1","aggregated":"no","subgroup":"qSpill-Q1-E1"},
             {"timestamp":7,"duration":300,"dma_engine":"1","dma_queue":"1","transfer_size":64,"aggregated":"yes"}],
      "semaphore_update":[{"id":"S[3] (GpSimd)","timestamp":1,"value":1},{"id":12,"timestamp":2,"value":4},
                          {"id":"300","timestamp":3,"value":1},{"id":"S[x]","timestamp":3,"value":1},{"id":"4","timestamp":5}],
      "summary":[{"total_time":1.5e-3,"runtime_version":"2.29.40 (f954c)"}],
      "model_info":[{"sg_name":"sg07"}]})json";
    const NtffProfile p = readJson(json, "fields.json");
    const Diagnostics &d = p.diagnostics;
    QCOMPARE(p.instructions.size(), size_t(3));
    QCOMPARE(d.count("instruction rows without a valid \"timestamp\" (expected integer ns; skipped)"), uint64_t(1));
    QCOMPARE(d.count("instruction rows without a valid \"subgroup\" (expected an engine: Tensor, Vector, Scalar, GpSimd or Sync; skipped)"), uint64_t(1));
    QCOMPARE(d.count("instruction rows without a valid \"duration\" (expected integer ns >= 0; skipped)"), uint64_t(1));
    QCOMPARE(d.count("instruction rows without a valid \"subgroup\" (expected an engine: Tensor, Vector, Scalar, GpSimd or Sync; engine taken from \"label\")"), uint64_t(1));
    QCOMPARE(d.count("instruction rows without a valid \"label\" (expected a lane: Tensor, TensorMatrix, Vector, Scalar, GpSimd or Sync; lane taken from \"subgroup\")"), uint64_t(1));
    QCOMPARE(d.count("instruction rows without a valid \"evt_wait_time\" (expected an integer >= 0; 0 assumed)"), uint64_t(1));
    QCOMPARE(d.count("instruction rows without a valid \"crc_in\" (expected 0..65535; 65535 assumed)"), uint64_t(1));
    QCOMPARE(d.count("\"instruction\" entries that are not objects (skipped)"), uint64_t(1));
    const NtffInstructionRow &full = p.instructions[0];
    QCOMPARE(full.timestamp, int64_t(10));
    QCOMPARE(full.engine, NtffEngine::Vector);
    QCOMPARE(full.lane, NtffLane::Vector);
    QCOMPARE(full.opcode, uint8_t(0xa4));
    QCOMPARE(full.evtWaitTime, 3u);
    QCOMPARE(int(full.crcIn), 1);
    QCOMPARE(int(full.crcOut), 2);
    QCOMPARE(full.compilerPc, 4);
    const NtffInstructionRow &matmul = p.instructions[1]; // timestamp as a string; lane from MATMUL on Tensor
    QCOMPARE(matmul.timestamp, int64_t(11));
    QCOMPARE(matmul.lane, NtffLane::TensorMatrix);
    QCOMPARE(int(matmul.crcIn), 0xffff);
    QCOMPARE(matmul.compilerPc, -1);
    QCOMPARE(p.instructions[2].engine, NtffEngine::Tensor); // from the TensorMatrix label
    QCOMPARE(p.instructions[2].lane, NtffLane::TensorMatrix);

    QCOMPARE(p.dma.size(), size_t(2));
    QCOMPARE(d.count("dma rows without a valid \"dma_engine\" (expected 0..255, a number or decimal string; skipped)"), uint64_t(1));
    QCOMPARE(d.count("dma rows without a valid \"transfer_size\" (expected an integer >= 0; 0 assumed)"), uint64_t(1));
    QCOMPARE(p.dma[0].engine, uint8_t(2));
    QCOMPARE(p.dma[0].queue, uint8_t(14));
    QCOMPARE(p.dma[0].crc, uint16_t(9));
    QCOMPARE(p.dmaQueues.size(), size_t(1)); // a name from the lane "qSpill-Q1-E1"; "Q14-E2" has none
    QCOMPARE(p.dmaQueues[0].displayName, std::string("qSpill"));
    QCOMPARE(NtffImporter::dmaTrackName(p, 1, 1), std::string("qSpill-Q1-E1"));
    QCOMPARE(NtffImporter::dmaTrackName(p, 2, 14), std::string("Q14-E2"));

    QCOMPARE(p.semaphores.size(), size_t(2));
    QCOMPARE(int(p.semaphores[0].id), 3);
    QCOMPARE(int(p.semaphores[1].id), 12);
    QCOMPARE(p.semaphores[1].value, 4u);
    QCOMPARE(d.count("semaphore_update rows without a valid \"id\" (expected 0..255 or \"S[n] (name)\"; skipped)"), uint64_t(2));
    QCOMPARE(d.count("semaphore_update rows without a valid \"value\" (expected an integer >= 0; skipped)"), uint64_t(1));
    QCOMPARE(p.semaphoreNames.size(), size_t(1));
    QCOMPARE(p.semaphoreNames.at(3), std::string("GpSimd"));

    QVERIFY(p.totalTimePs.has_value());
    QCOMPARE(*p.totalTimePs, uint64_t(1500000000));
    QCOMPARE(p.runtimeVersion, std::string("2.29.40 (f954c)"));
    QCOMPARE(p.subgraphName, std::string("sg07"));
    QCOMPARE(p.lastHwTimestamp, int64_t(15)); // no metadata: the latest instruction end
    QCOMPARE(d.count("metadata without \"last_hw_timestamp\" (the latest instruction end used)"), uint64_t(1));

    // the trace: lanes from the rows, the semaphore's name on its track, warnings carried over
    InputBuffer input = InputBuffer::fromBytes(json, "fields.json", {});
    const Trace t = NeuronProfileJsonImporter::import(input, "fields.json", {});
    std::vector<std::string> names;
    for (const Track &tr : t.tracks())
        names.emplace_back(t.str(tr.name));
    for (const char *expected :
         {"TensorMatrix", "Vector", "Q14-E2", "qSpill-Q1-E1", "DMA transfers", "pending DMAs", "semaphore 3 (GpSimd)", "semaphore 12"})
        QVERIFY2(std::find(names.begin(), names.end(), expected) != names.end(), expected);
    QCOMPARE(names.size(), size_t(8)); // no Tensor lane: no row ran there (the JSON has no programs)
    QCOMPARE(t.diagnostics().total(), d.total());
    QCOMPARE(*t.metadata().find("total_time_ps"), std::string("1500000000"));
    QCOMPARE(*t.metadata().find("neuron_profile.summary.total_time"), std::string("1.5e-3"));
}

// Physical cores (2.28 on trn2): model_info names them (its order, nc_idx as the core number), each row
// says its own ("subgraph"), DMA engines are numbered from 64 and keep their queue type; model_info's
// per-core counts are checked against the rows; what does not fit is counted with where and what was
// expected. A 2.27-style export (no "subgraph") is one core without a number.
void TestNeuronProfileJsonReader::physicalCores()
{
    const std::string json = R"json({
      "instruction":[
        {"timestamp":1,"duration":2,"pc":0,"opcode":"NOP","subgroup":"Sync","label":"Sync","evt_wait_time":0,"crc_in":1,"crc_out":1,"subgraph":"sg00"},
        {"timestamp":2,"duration":2,"pc":0,"opcode":"NOP","subgroup":"Sync","label":"Sync","evt_wait_time":0,"crc_in":1,"crc_out":1,"subgraph":"sg01"},
        {"timestamp":3,"duration":2,"pc":1,"opcode":"NOP","subgroup":"Sync","label":"Sync","evt_wait_time":0,"crc_in":1,"crc_out":1,"subgraph":"sg01"},
        {"timestamp":4,"duration":2,"pc":2,"opcode":"NOP","subgroup":"Sync","label":"Sync","evt_wait_time":0,"crc_in":1,"crc_out":1}],
      "dma":[{"timestamp":5,"duration":3,"dma_engine":"79","dma_queue":"2","transfer_size":64,"crc":9,"aggregated":"no","queue_type":"hardware_dynamic","subgroup":"Q2-E79","subgraph":"sg00"},
             {"timestamp":6,"duration":3,"dma_engine":"90","dma_queue":"14","transfer_size":4,"crc":9,"aggregated":"no","queue_type":"instruction","subgroup":"qDveTable-Q14-E90","subgraph":"sg01"}],
      "semaphore_update":[{"id":"S[5] (Tensor)","timestamp":1,"value":1,"subgraph":"sg00"},{"id":"S[5] (qDveTable)","timestamp":2,"value":1,"subgraph":"sg01"}],
      "model_info":[{"sg_name":"sg00","nc_idx":4,"sync_engine_instruction_count":1,"event_count":10},
                    {"sg_name":"sg01","nc_idx":5,"sync_engine_instruction_count":2,"event_count":2}],
      "nc_mem_usage":[{"nc":5,"amount_bytes":7,"usage_type":"Generic"},{"nc":9,"amount_bytes":1,"usage_type":"Generic"}],
      "metadata":[{"last_hw_timestamp":10,"num_physical_cores":2}]})json";
    const NtffProfile p = readJson(json, "cores.json");
    const Diagnostics &d = p.diagnostics;
    QCOMPARE(p.cores.size(), size_t(2));
    QCOMPARE(p.cores[0].subgraphName, std::string("sg00"));
    QCOMPARE(p.cores[1].index.value_or(0), 5u);
    QCOMPARE(p.subgraphName, std::string("sg00"));
    QCOMPARE(p.eventRecordCount, uint64_t(12)); // model_info summed over the cores
    QCOMPARE(p.instructions.size(), size_t(4));
    QCOMPARE(int(p.instructions[1].core), 1);
    QCOMPARE(int(p.instructions[3].core), 0); // no "subgraph": the first core, counted
    QCOMPARE(d.count("instruction rows without a valid \"subgraph\" (expected the physical core's subgraph, \"sg00\", as the "
                     "export's other rows have; the first core assumed)"),
             uint64_t(1));
    // sg00: 1 Sync instruction in model_info, 2 rows (one of them the row without a subgraph)
    const std::string mismatch = "model_info instruction counts that differ from the instruction rows (expected equal: rows "
                                 "were skipped or the export is inconsistent; the rows are shown)";
    QCOMPARE(d.count(mismatch), uint64_t(1));
    for (const Warning &w : d.warnings())
        if (w.message == mismatch)
            QVERIFY2(w.firstSeen.find("byte ") == 0 && w.firstSeen.find("sg00 Sync 1 in model_info, 2 rows") != std::string::npos,
                     w.firstSeen.c_str());
    QCOMPARE(p.dma.size(), size_t(2));
    QCOMPARE(int(p.dma[0].engine), 79);
    QCOMPARE(int(p.dma[1].core), 1);
    QCOMPARE(std::string(p.name(p.dmaTags[0].queueType)), std::string("hardware_dynamic"));
    QCOMPARE(p.dmaQueues.size(), size_t(1)); // named from the lane
    QCOMPARE(p.dmaQueues[0].displayName, std::string("qDveTable"));
    QCOMPARE(int(p.dmaQueues[0].core), 1);
    QCOMPARE(p.semaphoreName(0, 5), std::string_view("Tensor")); // per core: no "two names"
    QCOMPARE(p.semaphoreName(1, 5), std::string_view("qDveTable"));
    QCOMPARE(d.count("semaphores shown under two names (the first kept)"), uint64_t(0));
    QCOMPARE(p.memoryUsage.size(), size_t(2));
    QCOMPARE(int(p.memoryUsage[0].core), 1);
    QCOMPARE(d.count("nc_mem_usage rows whose \"nc\" is no model_info nc_idx (expected a physical core number of this "
                     "logical core; the first core assumed)"),
             uint64_t(1));
    QCOMPARE(d.total(DiagnosticSeverity::Warning), uint64_t(3));

    // the lanes: one set per physical core, DMA engines on the core whose rows they carry
    InputBuffer input = InputBuffer::fromBytes(json, "cores.json", {});
    const Trace t = NeuronProfileJsonImporter::import(input, "cores.json", {});
    std::vector<std::string> paths;
    for (const Track &tr : t.tracks())
        paths.push_back(t.groupPath(tr.group) + " / " + std::string(t.str(tr.name)));
    for (const char *expected : {"pcore 4 / Sync", "pcore 5 / Sync", "pcore 4 / Q2-E79", "pcore 5 / qDveTable-Q14-E90",
                                 "pcore 4 / semaphores / semaphore 5 (Tensor)", "pcore 5 / semaphores / semaphore 5 (qDveTable)"})
        QVERIFY2(std::any_of(paths.begin(), paths.end(), [&](const std::string &path) { return path.ends_with(expected); }), expected);
    bool queueTypeArg = false;
    for (const Slice &sl : t.allSlices())
        for (const Arg &a : t.args().args(sl.args))
            queueTypeArg |= t.str(a.key) == "queue_type" && a.type == ArgType::String && t.str(a.stringValue()) == "hardware_dynamic";
    QVERIFY(queueTypeArg);
    QCOMPARE(*t.metadata().find("pcore[1].index"), std::string("5"));

    // 2.27: no "subgraph", one model_info row with nc_idx 0: one core without a number (as the NTFF)
    const NtffProfile old = readJson(R"json({"instruction":[{"timestamp":1,"duration":2,"pc":0,"opcode":"NOP","subgroup":"Sync",
        "label":"Sync","evt_wait_time":0,"crc_in":1,"crc_out":1}],"model_info":[{"sg_name":"sg00","nc_idx":0,
        "sync_engine_instruction_count":1}],"metadata":[{"last_hw_timestamp":3,"num_physical_cores":1}]})json");
    QCOMPARE(old.cores.size(), size_t(1));
    QCOMPARE(old.cores[0].subgraphName, std::string("sg00"));
    QVERIFY(!old.cores[0].index);
    QVERIFY(!old.isNeuronCoreV3());
    QVERIFY(!old.diagnostics.hasWarnings());
}

// Names the byte table does not know stay names (never "op 0x00"); our own "op 0x41" names map back.
void TestNeuronProfileJsonReader::unknownOpcodeNames()
{
    const std::string json = R"json({"instruction":[
        {"timestamp":1,"duration":1,"pc":1,"opcode":"TENSOR_TENSOR_SCAN","subgroup":"Vector","label":"Vector","evt_wait_time":0,"crc_in":1,"crc_out":1},
        {"timestamp":2,"duration":1,"pc":2,"opcode":"IOTA","subgroup":"GpSimd","label":"GpSimd","evt_wait_time":0,"crc_in":1,"crc_out":1},
        {"timestamp":3,"duration":1,"pc":3,"opcode":"TENSOR_TENSOR_SCAN","subgroup":"Vector","label":"Vector","evt_wait_time":0,"crc_in":1,"crc_out":1},
        {"timestamp":4,"duration":1,"pc":4,"opcode":"op 0x41","subgroup":"Vector","label":"Vector","evt_wait_time":0,"crc_in":1,"crc_out":1},
        {"timestamp":5,"duration":1,"pc":5,"opcode":"ACTIVATE","subgroup":"Scalar","label":"Scalar","evt_wait_time":0,"crc_in":1,"crc_out":1}],
        "metadata":[{"last_hw_timestamp":6}]})json";
    const NtffProfile p = readJson(json);
    // no warning; the notes say which small tables this hand-written export lacks
    QVERIFY2(!p.diagnostics.hasWarnings(), p.diagnostics.empty() ? "" : Diagnostics::format(p.diagnostics.warnings()[0]).c_str());
    QCOMPARE(p.diagnostics.total(DiagnosticSeverity::Note), uint64_t(6));
    QCOMPARE(p.diagnostics.count("neuron-profile JSON without \"neff_node\" (no tensor types, shapes or sizes)"), uint64_t(1));
    QCOMPARE(p.extraOpcodeNames, (std::vector<std::string>{"TENSOR_TENSOR_SCAN", "IOTA"}));
    QCOMPARE(p.instructions.size(), size_t(5));
    QCOMPARE(std::string(p.opcodeName(p.instructions[0])), std::string("TENSOR_TENSOR_SCAN"));
    QCOMPARE(std::string(p.opcodeName(p.instructions[1])), std::string("IOTA"));
    QCOMPARE(p.instructions[2].extraOpcode, p.instructions[0].extraOpcode);
    QCOMPARE(p.instructions[3].opcode, uint8_t(0x41));
    QCOMPARE(p.instructions[3].extraOpcode, uint16_t(0));
    QCOMPARE(p.instructions[4].opcode, uint8_t(0x21));

    InputBuffer input = InputBuffer::fromBytes(json, "ops.json", {});
    const Trace t = NeuronProfileJsonImporter::import(input, "ops.json", {});
    std::vector<std::string> sliceNames;
    for (const Slice &s : t.allSlices())
        sliceNames.emplace_back(t.str(s.name));
    std::sort(sliceNames.begin(), sliceNames.end());
    QCOMPARE(sliceNames,
             (std::vector<std::string>{"ACTIVATE", "IOTA", "TENSOR_TENSOR_SCAN", "TENSOR_TENSOR_SCAN", "op 0x41"}));
}

void TestNeuronProfileJsonReader::notAnExport_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<qint64>("offset");
    QTest::addColumn<QString>("expected");
    QTest::newRow("chrome trace") << QByteArray(
                                         R"(  {"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1}]})")
                                  << qint64(2) << QStringLiteral("has no \"instruction\" array");
    QTest::newRow("object without instruction") << QByteArray(R"({"dma":[],"summary":[{"total_time":1}]})") << qint64(0)
                                                << QStringLiteral("has no \"instruction\" array");
    QTest::newRow("array") << QByteArray("[1,2,3]") << qint64(0) << QStringLiteral("expected '{'");
    QTest::newRow("empty") << QByteArray("  \n") << qint64(0) << QStringLiteral("file is empty");
    QTest::newRow("instruction not an array") << QByteArray(R"({"ham":[],"instruction":7})") << qint64(24)
                                              << QStringLiteral("\"instruction\" is not an array");
    QTest::newRow("trailing content") << QByteArray(R"({"instruction":[]} {"instruction":[]})") << qint64(19)
                                      << QStringLiteral("unexpected content after the top-level object");
    QTest::newRow("invalid json") << QByteArray(R"({"instruction":[{"timestamp":1,,}]})") << qint64(-1)
                                  << QStringLiteral("invalid JSON");
}

void TestNeuronProfileJsonReader::notAnExport()
{
    QFETCH(QByteArray, bytes);
    QFETCH(qint64, offset);
    QFETCH(QString, expected);
    try {
        readJson(bytes.toStdString(), "input.json");
        QFAIL("expected an ImportError");
    } catch (const ImportError &e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.startsWith(QStringLiteral("input.json: at byte ")), qPrintable(what));
        QVERIFY2(what.contains(expected), qPrintable(what));
        QVERIFY(e.hasOffset());
        if (offset >= 0)
            QCOMPARE(qint64(e.offset()), offset);
        if (bytes.contains("traceEvents"))
            QVERIFY2(what.contains(QStringLiteral("Chrome/Kineto")), qPrintable(what));
    }
}

// Every prefix of a real export (a crashed export, a partial copy) either loads every row that is
// complete before the cut with one warning naming the byte where the text ends (the cut falls inside
// one of the windowed arrays: "instruction", "dma", ...), or is an error naming the file and an offset
// within the prefix (the cut falls in the text around them). What loads is the full file's rows up to
// the cut: each table a prefix of the full file's, in file order. Through a file on disk, plain and
// compressed, the same.
namespace {
template<typename Rows, typename Same>
bool isPrefix(const Rows &part, const Rows &full, Same same)
{
    if (part.size() > full.size())
        return false;
    for (size_t i = 0; i < part.size(); ++i)
        if (!same(part[i], full[i]))
            return false;
    return true;
}
} // namespace

void TestNeuronProfileJsonReader::truncated()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json/profile_128x128x256.json"));
    const QString path = lanescope::test::corpusFile(QStringLiteral("neuron-profile-json/profile_128x128x256.json"));
    const std::string bytes = test::readFile(path);
    QVERIFY2(!bytes.empty(), qPrintable(path));
    const NtffProfile full = readJson(bytes, "full.json");
    const size_t end = bytes.find_last_of('}'); // a prefix up to here misses the closing brace
    QVERIFY(end != std::string::npos && end > 1000);
    std::vector<size_t> cuts = {1, 2, 10, end, end - 1, end - 2};
    for (size_t i = 1; i < 400; ++i)
        cuts.push_back(end * i / 400 + i % 7);
    size_t loaded = 0, failed = 0;
    for (const size_t cut : cuts) {
        QVERIFY(cut <= end);
        try {
            const NtffProfile p = readJson(bytes.substr(0, cut), "cut.json");
            ++loaded;
            const std::string where = "byte " + std::to_string(cut);
            QCOMPARE(p.diagnostics.total(DiagnosticSeverity::Warning), uint64_t(1));
            bool named = false;
            for (const Warning &w : p.diagnostics.warnings())
                named |= !w.isNote() && w.message.find("(truncated: a cut or partial file)") != std::string::npos &&
                         w.firstSeen.starts_with(where);
            QVERIFY2(named, qPrintable(QStringLiteral("cut at %1").arg(cut)));
            QVERIFY(isPrefix(p.instructions, full.instructions, [](const auto &a, const auto &b) {
                return a.timestamp == b.timestamp && a.duration == b.duration && a.opcode == b.opcode;
            }));
            QVERIFY(isPrefix(p.dma, full.dma, [](const auto &a, const auto &b) {
                return a.timestamp == b.timestamp && a.duration == b.duration && a.queue == b.queue;
            }));
            QVERIFY(isPrefix(p.semaphores, full.semaphores, [](const auto &a, const auto &b) {
                return a.timestamp == b.timestamp && a.id == b.id && a.value == b.value;
            }));
        } catch (const ImportError &e) {
            ++failed;
            QVERIFY2(e.file() == "cut.json" && e.hasOffset() && e.offset() <= cut,
                     qPrintable(QStringLiteral("cut at %1: %2").arg(cut).arg(QString::fromUtf8(e.what()))));
        }
    }
    // the windowed arrays hold most of the file: most cuts load
    QVERIFY2(loaded > failed, qPrintable(QStringLiteral("%1 loaded, %2 errors").arg(loaded).arg(failed)));
    // a cut in the middle of the instruction rows, through a file on disk, plain and gzip
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const size_t inInstructions = bytes.find("\"opcode\"", bytes.find("\"instruction\"")) + 3;
    for (const bool gz : {false, true}) {
        const QString file = dir.filePath(gz ? QStringLiteral("cut.json.gz") : QStringLiteral("cut.json"));
        const std::string prefix = bytes.substr(0, inInstructions);
        const std::string out = gz ? lanescope::test::gzipOf(prefix) : prefix;
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(out.data(), qint64(out.size())), qint64(out.size()));
        f.close();
        const LoadResult r = TraceLoader::load(file.toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->diagnostics().total(DiagnosticSeverity::Warning), uint64_t(1));
    }
}

void TestNeuronProfileJsonReader::cancel()
{
    const std::string json = syntheticJson(100000);
    std::atomic<bool> stop{false};
    LoadOptions options;
    options.cancel = &stop;
    std::vector<int> progress;
    options.progress = [&](int p) {
        progress.push_back(p);
        if (p > 400)
            stop = true;
    };
    bool cancelled = false;
    try {
        readJson(json, "big.json", options);
    } catch (const LoadCancelled &) {
        cancelled = true;
    }
    QVERIFY(cancelled);
    QVERIFY(progress.size() > 2);
    QVERIFY(progress.back() < 900);
    QVERIFY(std::is_sorted(progress.begin(), progress.end()));

    // not cancelled: 200..900 from the reader, to 1000 through the importer; every row read
    progress.clear();
    LoadOptions plain;
    plain.progress = [&](int p) { progress.push_back(p); };
    InputBuffer input = InputBuffer::fromBytes(json, "big.json", {});
    const Trace t = NeuronProfileJsonImporter::import(input, "big.json", plain);
    QVERIFY(progress.size() > 10);
    QCOMPARE(progress.front(), 200);
    QCOMPARE(progress.back(), 1000);
    QVERIFY(std::is_sorted(progress.begin(), progress.end()));
    QVERIFY(std::find(progress.begin(), progress.end(), 900) != progress.end());
    QCOMPARE(t.allSlices().size(), size_t(100000));
    QVERIFY(!t.diagnostics().hasWarnings());
}

QTEST_GUILESS_MAIN(TestNeuronProfileJsonReader)
#include "tst_neuronprofilejsonreader.moc"
