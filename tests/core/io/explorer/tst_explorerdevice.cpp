// Neuron Explorer's processed profile (a directory of Parquet tables, schema 7.4.0) read by
// ExplorerDeviceReader, against the neuron-profile 2.28 JSON export it was made from. The directories
// are written by tests/parquet/explorer-from-json.mjs with DuckDB (an independent Parquet writer; the
// JSON -> schema mapping written there in JS from the schema reference): ZSTD, SNAPPY, GZIP and
// uncompressed files, several row groups, dictionary pages, Instruction split in two. The profile must
// give the same rows, lanes, slice counts and engine numbers as the JSON itself, and the row counts
// must equal counts made independently of Lanescope (Python over the JSON, written below as constants).
// Broken directories (a split missing, a column of another type, a truncated footer, an unknown schema
// version) load what they can with warnings naming the file and column.
#include "duckdb.h"

#include "analysis/enginebreakdown.h"
#include "io/explorer/explorerdeviceimporter.h"
#include "io/explorer/explorerdevicereader.h"
#include "io/input/importerror.h"
#include "io/input/inputbuffer.h"
#include "io/neuronprofile/neuronprofilejsonreader.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <map>

using namespace lanescope;

namespace {

// Counted with Python over each JSON export (json.load; len() of "instruction", of the "dma" rows with
// "aggregated" == "no", of "semaphore_update" and "ham"; collections.Counter of (subgraph, subgroup) for
// the instructions per core and engine, in the order Tensor, Vector, Scalar, GpSimd, Sync; the number
// of distinct (subgraph, subgroup) of the DMA rows; the first row of each table as written).
struct Expected
{
    const char *file;
    uint64_t instructions, dma, semaphores, throttle;
    size_t dmaLanes;
    std::array<uint64_t, 10> engines; // sg00 T V S G Sy, sg01 T V S G Sy
    int64_t firstWait;                // instruction[0].evt_wait_time (ts 84, dur 70, pc 50, WRITE, Tensor)
    int64_t dmaTs, dmaDuration, dmaSize, dmaCrc; // dma[0] (engine 64, queue 0, sg00)
    int64_t semaphoreTs;                         // semaphore_update[0] (id "2", value 1, sg00)
};

constexpr Expected kCorpus[] = {
    {"neuron-trn2-v6/baseline_attention/baseline_exec_2_profile_full.json", 460, 2657, 868, 4, 56,
     {149, 47, 49, 35, 29, 36, 30, 30, 30, 25}, 29861, 24901, 81, 2048, 44156, 3060},
    {"neuron-trn2-v6/baseline_bf16_s512/baseline_exec_2_profile_full.json", 452, 2670, 887, 2, 55,
     {142, 47, 49, 35, 30, 34, 30, 30, 30, 25}, 29860, 20470, 81, 2048, 44156, 3059},
    {"neuron-trn2-v6/fused_bf16_s512/fused_exec_2_profile_full.json", 436, 977, 747, 2, 40,
     {142, 46, 37, 34, 26, 36, 30, 30, 30, 25}, 29860, 15774, 210, 4096, 41589, 3014},
};

// Runs explorer-from-json.mjs: `json` -> a profile directory `out`. Empty on success, else why not.
QString writeProfile(const QString &json, const QString &out)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("node"), {QStringLiteral(LANESCOPE_SOURCE_DIR "/tests/parquet/explorer-from-json.mjs"),
                                     test::duckdbCacheDir(), json, out});
    if (!p.waitForFinished(600000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("explorer-from-json.mjs: ") + QString::fromUtf8(p.readAll()).trimmed();
    return {};
}

NtffProfile readJson(const QString &path)
{
    InputBuffer in = InputBuffer::read(path.toStdString(), LoadOptions());
    return NeuronProfileJsonReader::read(in, path.toStdString());
}

// Every track as "group path / name" -> slices, instants, counter samples.
std::map<std::string, std::array<uint32_t, 3>> lanes(const Trace &t)
{
    std::map<std::string, std::array<uint32_t, 3>> out;
    for (const Track &k : t.tracks())
        out[t.groupPath(k.group) + " / " + std::string(t.str(k.name))] = {k.sliceCount, k.instantCount, k.counterCount};
    return out;
}

bool anyMessage(const Diagnostics &d, std::initializer_list<const char *> parts)
{
    for (const Warning &w : d.warnings()) {
        const std::string text = Diagnostics::format(w);
        if (std::all_of(parts.begin(), parts.end(), [&](const char *p) { return text.find(p) != std::string::npos; }))
            return true;
    }
    return false;
}

QString messages(const Diagnostics &d)
{
    QString s;
    for (const Warning &w : d.warnings())
        s += QString::fromStdString(Diagnostics::format(w)) + QLatin1Char('\n');
    return s;
}

QByteArray runCli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(LANESCOPE_CLI), args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0)
        return "failed: " + p.readAllStandardError();
    return p.readAllStandardOutput();
}

} // namespace

class TstExplorerDevice : public QObject
{
    Q_OBJECT

private slots:
    void corpusParity_data();
    void corpusParity();
    void openedAsAUser();
    void dmaTransfers();
    void brokenDirectory();
    void notAProfile();
};

void TstExplorerDevice::corpusParity_data()
{
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kCorpus)); ++i)
        QTest::newRow(kCorpus[i].file) << i;
}

void TstExplorerDevice::corpusParity()
{
    QFETCH(int, index);
    const Expected &e = kCorpus[index];
    LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(e.file));
    LANESCOPE_REQUIRE_DUCKDB();
    const QString json = test::corpusFile(QString::fromLatin1(e.file));
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("profile"));
    const QString why = writeProfile(json, dir);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QVERIFY(QFile::exists(dir + QStringLiteral("/Instruction_0.parquet")));
    QVERIFY(QFile::exists(dir + QStringLiteral("/Instruction_1.parquet")));

    const NtffProfile j = readJson(json);
    const NtffProfile p = ExplorerDeviceReader::read(dir.toStdString());
    QCOMPARE(p.sourceFormat, std::string("neuron-explorer-parquet"));

    // Row counts: the independent counts, and the JSON reader's
    QCOMPARE(uint64_t(p.instructions.size()), e.instructions);
    QCOMPARE(uint64_t(p.dma.size()), e.dma);
    QCOMPARE(uint64_t(p.semaphores.size()), e.semaphores);
    QCOMPARE(uint64_t(p.throttle.size()), e.throttle);
    QCOMPARE(p.instructions.size(), j.instructions.size());
    QCOMPARE(p.dma.size(), j.dma.size());
    QCOMPARE(p.semaphores.size(), j.semaphores.size());
    QCOMPARE(p.throttle.size(), j.throttle.size());
    QCOMPARE(p.dmaBlocks.size(), j.dmaBlocks.size());

    // Cores: two physical cores, numbered by their DMA engines (64.. = 16 x 4) as model_info numbers them
    QCOMPARE(p.cores.size(), size_t(2));
    QCOMPARE(p.cores.size(), j.cores.size());
    for (size_t k = 0; k < p.cores.size(); ++k) {
        QCOMPARE(p.cores[k].label(), j.cores[k].label());
        QCOMPARE(p.cores[k].subgraphName, j.cores[k].subgraphName);
    }
    QCOMPARE(p.cores[0].label(), std::string("pcore 4"));
    std::array<uint64_t, 10> engines{};
    for (const NtffInstructionRow &r : p.instructions)
        ++engines[size_t(r.core) * 5 + std::array<size_t, 6>{0, 0, 2, 3, 1, 4}[size_t(r.engine)]];
    QCOMPARE(engines, e.engines);

    // Every row, field by field, in file order
    for (size_t i = 0; i < p.instructions.size(); ++i) {
        const NtffInstructionRow &a = p.instructions[i], &b = j.instructions[i];
        QVERIFY2(a.timestamp == b.timestamp && a.duration == b.duration && a.pc == b.pc && a.engine == b.engine &&
                     a.lane == b.lane && a.core == b.core && a.crcIn == b.crcIn && a.crcOut == b.crcOut &&
                     a.evtWaitTime == b.evtWaitTime && a.compilerPc == b.compilerPc && p.opcodeName(a) == j.opcodeName(b),
                 qPrintable(QStringLiteral("instruction row %1").arg(i)));
        QCOMPARE(p.layerOf(i), j.layerOf(i));
        QCOMPARE(p.syncOf(i).updateSemaphore, j.syncOf(i).updateSemaphore);
        QCOMPARE(p.syncOf(i).waitSemaphore, j.syncOf(i).waitSemaphore);
    }
    for (size_t i = 0; i < p.dma.size(); ++i) {
        const NtffDmaRow &a = p.dma[i], &b = j.dma[i];
        QVERIFY2(a.timestamp == b.timestamp && a.duration == b.duration && a.engine == b.engine && a.queue == b.queue &&
                     a.transferSize == b.transferSize && a.crc == b.crc && a.core == b.core,
                 qPrintable(QStringLiteral("dma row %1").arg(i)));
        QCOMPARE(p.name(p.dmaTags[i].queueType), j.name(j.dmaTags[i].queueType));
        QCOMPARE(p.dmaSemaphore[i], j.dmaSemaphore[i]);
    }
    for (size_t i = 0; i < p.semaphores.size(); ++i) {
        const NtffSemaphoreRow &a = p.semaphores[i], &b = j.semaphores[i];
        QVERIFY2(a.timestamp == b.timestamp && a.id == b.id && a.value == b.value && a.core == b.core,
                 qPrintable(QStringLiteral("semaphore row %1").arg(i)));
    }
    QCOMPARE(p.semaphoreNames, j.semaphoreNames);
    for (size_t i = 0; i < p.throttle.size(); ++i)
        QVERIFY(p.throttle[i].timestamp == j.throttle[i].timestamp && p.throttle[i].duration == j.throttle[i].duration &&
                p.throttle[i].k == j.throttle[i].k && p.throttle[i].n == j.throttle[i].n &&
                p.throttle[i].type == j.throttle[i].type && p.throttle[i].core == j.throttle[i].core);
    // The first rows as the JSON writes them (independent of both readers)
    QCOMPARE(p.instructions[0].timestamp, int64_t(84));
    QCOMPARE(p.instructions[0].duration, int64_t(70));
    QCOMPARE(p.instructions[0].pc, uint32_t(50));
    QCOMPARE(std::string(p.opcodeName(p.instructions[0])), std::string("WRITE"));
    QCOMPARE(int64_t(p.instructions[0].evtWaitTime), e.firstWait);
    QCOMPARE(p.dma[0].timestamp, e.dmaTs);
    QCOMPARE(p.dma[0].duration, e.dmaDuration);
    QCOMPARE(int64_t(p.dma[0].transferSize), e.dmaSize);
    QCOMPARE(int64_t(p.dma[0].crc), e.dmaCrc);
    QCOMPARE(int(p.dma[0].engine), 64);
    QCOMPARE(p.semaphores[0].timestamp, e.semaphoreTs);
    QCOMPARE(int(p.semaphores[0].id), 2);

    // Metadata: version, trace end, the numbers the analyses read
    QCOMPARE(p.version, j.version);
    QCOMPARE(p.lastHwTimestamp, j.lastHwTimestamp);
    QCOMPARE(p.instanceType, j.instanceType);
    QCOMPARE(p.uuid, j.uuid);
    QVERIFY(p.totalTimePs && j.totalTimePs);
    QVERIFY2(std::llabs(int64_t(*p.totalTimePs) - int64_t(*j.totalTimePs)) <= 4, // Summary.total_time is a float
             qPrintable(QStringLiteral("%1 %2").arg(*p.totalTimePs).arg(*j.totalTimePs)));
    std::map<std::string, std::string> reported(p.reportedMetadata.begin(), p.reportedMetadata.end());
    for (const char *key : {"neuron_profile.summary.hardware_flops", "neuron_profile.summary.transpose_flops",
                            "neuron_profile.summary.tensor_engine_instruction_count", "neuron_profile.metadata.pe_num_rows",
                            "neuron_profile.metadata.num_physical_cores", "neuron_profile.neff_node[1].variable_name",
                            "neuron_profile.warnings[0].category"}) {
        const auto it = std::find_if(j.reportedMetadata.begin(), j.reportedMetadata.end(),
                                     [&](const auto &kv) { return kv.first == key; });
        QVERIFY2(it != j.reportedMetadata.end() && reported.count(key), key);
        QCOMPARE(reported[key], it->second);
    }
    QCOMPARE(std::stod(reported["neuron_profile.metadata.pe_clock_freq"]), 2.4);
    QVERIFY2(!p.diagnostics.hasWarnings(), qPrintable(messages(p.diagnostics)));

    // The lanes as a user opens them: same tracks, same slice counts, same counters (the PSUM banks: the
    // psum rows' bank_N_usage in the JSON, PsumUsage's bank_N_util_percent here; one sample per psum row)
    const LoadResult pt = TraceLoader::load(dir.toStdString());
    const LoadResult jt = TraceLoader::load(json.toStdString());
    QVERIFY2(pt.ok(), pt.error.c_str());
    QVERIFY(jt.ok());
    QCOMPARE(pt.trace->metadata().format, std::string("neuron-explorer-parquet"));
    auto pl = lanes(*pt.trace), jl = lanes(*jt.trace);
    size_t banks = 0;
    for (const auto &[name, counts] : pl)
        if (name.find("PSUM usage (bank ") != std::string::npos) {
            ++banks;
            QCOMPARE(counts[2], pl[name.substr(0, name.find("PSUM usage")) + "PSUM usage (average)"][2]);
        }
    QCOMPARE(banks, size_t(8));
    QCOMPARE(pl.size(), jl.size());
    for (const auto &[name, counts] : jl) {
        QVERIFY2(pl.count(name), name.c_str());
        if (name.find("throughput") == std::string::npos && name.find("usage") == std::string::npos)
            QVERIFY2(pl[name] == counts, name.c_str());
        else
            QCOMPARE(pl[name][2], counts[2]); // counter samples (values are FLOAT in Parquet)
    }
    size_t dmaLanes = 0;
    for (const auto &[name, counts] : pl)
        dmaLanes += name.find("-E") != std::string::npos && counts[0] > 0;
    QCOMPARE(dmaLanes, e.dmaLanes);

    // Engine breakdown: the same numbers
    const EngineBreakdownResult pb = EngineBreakdown::compute(*pt.trace), jb = EngineBreakdown::compute(*jt.trace);
    QCOMPARE(pb.engines.size(), jb.engines.size());
    QCOMPARE(pb.engines.size(), size_t(5)); // one logical core: its two physical cores' engines together
    for (size_t i = 0; i < pb.engines.size(); ++i) {
        const EngineBreakdownRow &a = pb.engines[i], &b = jb.engines[i];
        QCOMPARE(a.coreName, b.coreName);
        QCOMPARE(a.engine, b.engine);
        QCOMPARE(a.instructionCount, b.instructionCount);
        const size_t k = size_t(a.engine); // NeuronEngine order: Tensor, Vector, Scalar, GpSimd, Sync
        QCOMPARE(a.instructionCount, e.engines[k] + e.engines[k + 5]);
        QCOMPARE(a.instructionTimeNs, b.instructionTimeNs);
        QCOMPARE(a.activeTimeNs, b.activeTimeNs);
        QVERIFY(std::abs(a.activePercent - b.activePercent) <= 1e-4 * std::max(1.0, b.activePercent));
    }
    QCOMPARE(pb.dma.size(), jb.dma.size());
    for (size_t i = 0; i < pb.dma.size(); ++i)
        QVERIFY(pb.dma[i].queue == jb.dma[i].queue && pb.dma[i].packetCount == jb.dma[i].packetCount &&
                pb.dma[i].bytes == jb.dma[i].bytes && pb.dma[i].activeTimeNs == jb.dma[i].activeTimeNs);
    QCOMPARE(pb.cores.size(), jb.cores.size());
    for (size_t i = 0; i < pb.cores.size(); ++i) {
        QCOMPARE(pb.cores[i].mfuPercent.has_value(), jb.cores[i].mfuPercent.has_value());
        if (jb.cores[i].mfuPercent)
            QVERIFY(std::abs(*pb.cores[i].mfuPercent - *jb.cores[i].mfuPercent) <= 1e-4 * *jb.cores[i].mfuPercent);
    }

    // `lanescope-cli rows DIR` prints what it prints for the JSON, event ids included
    for (const char *table : {"instruction", "dma", "semaphore"}) {
        const QByteArray fromDir = runCli({QStringLiteral("rows"), dir, QStringLiteral("--table"), QLatin1String(table)});
        const QByteArray fromJson = runCli({QStringLiteral("rows"), json, QStringLiteral("--table"), QLatin1String(table)});
        QVERIFY2(!fromDir.startsWith("failed"), fromDir.constData());
        QCOMPARE(fromDir.count('\n'), fromJson.count('\n'));
        QVERIFY2(fromDir == fromJson, table);
    }
}

// A folder that holds a profile, as Explorer's data path does: <P>/profiles/global/<name>@latest/.
void TstExplorerDevice::openedAsAUser()
{
    const QString rel = QString::fromLatin1(kCorpus[2].file);
    LANESCOPE_REQUIRE_CORPUS_FILE(rel);
    LANESCOPE_REQUIRE_DUCKDB();
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("profiles/global/fused@latest"));
    const QString why = writeProfile(test::corpusFile(rel), dir);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QCOMPARE(ExplorerDeviceImporter::find(tmp.path().toStdString()), std::vector<std::string>{dir.toStdString()});
    const LoadResult r = TraceLoader::load(tmp.path().toStdString());
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.trace->metadata().format, std::string("neuron-explorer-parquet"));
    const QByteArray rows = runCli({QStringLiteral("rows"), tmp.path(), QStringLiteral("--table"), QStringLiteral("semaphore")});
    QCOMPARE(rows.count('\n'), qsizetype(kCorpus[2].semaphores));
}

// DmaPacketAggregated (the corpus exports have no block-level rows): a small 2.28-shaped export with two
// packets of one transfer and the transfer itself ("aggregated": "yes"), through both readers.
void TstExplorerDevice::dmaTransfers()
{
    LANESCOPE_REQUIRE_DUCKDB();
    QTemporaryDir tmp;
    const QString json = tmp.filePath(QStringLiteral("export.json"));
    QFile f(json);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"json({"metadata": [{"ntff_version": 6, "num_physical_cores": 1, "last_hw_timestamp": 500}],
 "model_info": [{"sg_name": "sg00", "nc_idx": 0}],
 "instruction": [{"timestamp": 10, "duration": 5, "pc": 0, "opcode": "DMA_DIRECT2D", "subgroup": "Sync", "label": "Sync",
                  "crc_in": 1, "crc_out": 2, "evt_wait_time": 0, "operands": "", "subgraph": "sg00"},
                 {"timestamp": 12, "duration": 40, "pc": 3, "opcode": "SOME_NEW_OP", "subgroup": "Vector", "label": "Vector",
                  "crc_in": 3, "crc_out": 4, "evt_wait_time": 7, "operands": "", "subgraph": "sg00", "layer": "layer1",
                  "hlo_name": "dot.1"}],
 "dma": [{"timestamp": 20, "duration": 30, "dma_engine": "3", "dma_queue": "1", "transfer_size": 64, "crc": 9,
          "aggregated": "no", "subgroup": "qSyncIO0-Q1-E3", "queue_type": "data", "variable": "w0", "semaphore_id": "S[7] (qSyncIO0)",
          "packet_aggregation_id": 11, "subgraph": "sg00"},
         {"timestamp": 60, "duration": 20, "dma_engine": "3", "dma_queue": "1", "transfer_size": 32, "crc": 8,
          "aggregated": "no", "subgroup": "qSyncIO0-Q1-E3", "queue_type": "data", "variable": "w0", "semaphore_id": "S[7] (qSyncIO0)",
          "packet_aggregation_id": 11, "subgraph": "sg00"},
         {"timestamp": 20, "duration": 60, "dma_engine": "3", "dma_queue": "1", "transfer_size": 96, "aggregated": "yes",
          "subgroup": "qSyncIO0-Q1-E3", "queue_type": "data", "variable": "w0", "source": [["WEIGHT"]], "dest": ["SB"],
          "semaphore_id": "S[7] (qSyncIO0)", "packet_aggregation_id": 11, "subgraph": "sg00"}],
 "semaphore_update": [{"timestamp": 80, "id": "S[7] (qSyncIO0)", "value": 1, "subgraph": "sg00"}]})json");
    f.close();
    const QString dir = tmp.filePath(QStringLiteral("profile"));
    const QString why = writeProfile(json, dir);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QVERIFY(QFile::exists(dir + QStringLiteral("/DmaPacketAggregated.parquet")));
    const NtffProfile j = readJson(json);
    const NtffProfile p = ExplorerDeviceReader::read(dir.toStdString());
    QCOMPARE(p.dma.size(), size_t(2));
    QCOMPARE(p.dmaBlocks.size(), size_t(1));
    QCOMPARE(j.dmaBlocks.size(), size_t(1));
    const NtffDmaBlock &a = p.dmaBlocks[0], &b = j.dmaBlocks[0];
    QCOMPARE(a.timestamp, int64_t(20));
    QCOMPARE(a.duration, int64_t(60));
    QCOMPARE(a.transferSize, uint64_t(96));
    QCOMPARE(a.queue, b.queue);
    QCOMPARE(p.name(a.tag.variable), std::string_view("w0"));
    QCOMPARE(p.name(a.tag.source), std::string_view("WEIGHT"));
    QCOMPARE(p.name(a.tag.dest), std::string_view("SB"));
    QCOMPARE(p.name(a.tag.queueType), j.name(b.tag.queueType));
    QCOMPARE(p.name(a.tag.source), j.name(b.tag.source));
    QCOMPARE(p.name(a.tag.dest), j.name(b.tag.dest));
    // the packets' semaphore from their transfer, as the JSON rows give it; the queue named by its lane
    QCOMPARE(p.dmaSemaphore, j.dmaSemaphore);
    QCOMPARE(int(p.dmaSemaphore[0]), 7);
    QCOMPARE(p.dmaQueues.size(), size_t(1));
    QCOMPARE(p.dmaQueues[0].displayName, std::string("qSyncIO0"));
    // an opcode name the table lacks, layers and HLO ops, a one-core profile without a core number
    QCOMPARE(std::string(p.opcodeName(p.instructions[1])), std::string("SOME_NEW_OP"));
    QCOMPARE(p.extraOpcodeNames, j.extraOpcodeNames);
    QCOMPARE(p.layerOf(1), std::string_view("layer1"));
    QCOMPARE(p.hloOf(1), std::string_view("dot.1"));
    QCOMPARE(p.cores.size(), size_t(1));
    QVERIFY(!p.cores[0].index);
    QCOMPARE(p.semaphoreNames, j.semaphoreNames);
    const LoadResult pt = TraceLoader::load(dir.toStdString()), jt = TraceLoader::load(json.toStdString());
    QVERIFY2(pt.ok() && jt.ok(), pt.error.c_str());
    QVERIFY(lanes(*pt.trace) == lanes(*jt.trace));
}

// Broken files: each a warning naming the file (and column); the rest loads, nothing crashes.
void TstExplorerDevice::brokenDirectory()
{
    const Expected &e = kCorpus[2];
    LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(e.file));
    LANESCOPE_REQUIRE_DUCKDB();
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("profile"));
    const QString why = writeProfile(test::corpusFile(QString::fromLatin1(e.file)), dir);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const auto file = [&](const char *name) { return dir + QLatin1Char('/') + QLatin1String(name); };

    // A gap in the numbered splits: Instruction_1 renamed Instruction_2; both halves still read
    QVERIFY(QFile::rename(file("Instruction_1.parquet"), file("Instruction_2.parquet")));
    // A column of another type: DmaPacket.crc written as DOUBLE
    const QString moved = tmp.filePath(QStringLiteral("DmaPacket.parquet"));
    QVERIFY(QFile::rename(file("DmaPacket.parquet"), moved));
    const test::DuckResult d = test::duckdb(QStringLiteral("COPY (SELECT * REPLACE (CAST(crc AS DOUBLE) AS crc) FROM "
                                                           "read_parquet('%1')) TO '%2' (FORMAT PARQUET);\nSELECT 1")
                                                .arg(moved, file("DmaPacket.parquet")));
    QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
    // A truncated footer: Throttle.parquet cut short
    {
        QFile f(file("Throttle.parquet"));
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.resize(f.size() - 40));
    }
    // An unknown schema major version
    const QString metadata = tmp.filePath(QStringLiteral("Metadata.parquet"));
    QVERIFY(QFile::rename(file("Metadata.parquet"), metadata));
    const test::DuckResult m = test::duckdb(QStringLiteral("COPY (SELECT * REPLACE ('13.1.0' AS profile_schema_version) FROM "
                                                           "read_parquet('%1')) TO '%2' (FORMAT PARQUET);\nSELECT 1")
                                                .arg(metadata, file("Metadata.parquet")));
    QVERIFY2(m.error.isEmpty(), qPrintable(m.error));

    // Columns left out: SbufUsage without two partition columns
    const QString sbuf = tmp.filePath(QStringLiteral("SbufUsage.parquet"));
    QVERIFY(QFile::rename(file("SbufUsage.parquet"), sbuf));
    const test::DuckResult u = test::duckdb(QStringLiteral("COPY (SELECT * EXCLUDE (partition_64_util_percent, partition_96_util_percent) "
                                                           "FROM read_parquet('%1')) TO '%2' (FORMAT PARQUET);\nSELECT 1")
                                                .arg(sbuf, file("SbufUsage.parquet")));
    QVERIFY2(u.error.isEmpty(), qPrintable(u.error));

    NtffProfile p;
    try {
        p = ExplorerDeviceReader::read(dir.toStdString());
    } catch (const std::exception &ex) {
        QFAIL(ex.what());
    }
    const QString all = messages(p.diagnostics);
    QVERIFY2(anyMessage(p.diagnostics, {"Instruction_1.parquet is missing", "skip from 1 to 2"}), qPrintable(all));
    QCOMPARE(uint64_t(p.instructions.size()), e.instructions); // both halves read
    QVERIFY2(anyMessage(p.diagnostics, {"column crc of DmaPacket.parquet is DOUBLE", "expected an integer"}), qPrintable(all));
    QCOMPARE(uint64_t(p.dma.size()), e.dma); // the packets load, their crc unknown
    QCOMPARE(int(p.dma[0].crc), 0);
    QVERIFY2(anyMessage(p.diagnostics, {"Throttle.parquet", "cannot be read"}), qPrintable(all));
    QCOMPARE(p.throttle.size(), size_t(0));
    QVERIFY2(anyMessage(p.diagnostics, {"schema version 13.1.0", "Metadata.parquet"}), qPrintable(all));
    QCOMPARE(uint64_t(p.semaphores.size()), e.semaphores);
    QVERIFY2(anyMessage(p.diagnostics, {"1 x Neuron Explorer table SbufUsage without the columns partition_64_util_percent, "
                                        "partition_96_util_percent (those series are absent)", "SbufUsage.parquet"}),
             qPrintable(all));
    QVERIFY(std::any_of(p.counters.begin(), p.counters.end(), [](const NtffCounterSeries &c) { return c.name == "SBUF usage (partitions 0-31)"; }));
    QVERIFY(std::none_of(p.counters.begin(), p.counters.end(), [](const NtffCounterSeries &c) { return c.name == "SBUF usage (partitions 64-95)"; }));
    QCOMPARE(p.lastHwTimestamp, int64_t(36351)); // metadata.last_hw_timestamp of the JSON
    const LoadResult r = TraceLoader::load(dir.toStdString());
    QVERIFY2(r.ok(), r.error.c_str());
}

void TstExplorerDevice::notAProfile()
{
    QTemporaryDir tmp;
    QFile f(tmp.filePath(QStringLiteral("notes.txt")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("hello");
    f.close();
    QVERIFY(ExplorerDeviceImporter::find(tmp.path().toStdString()).empty());
    // A table name with garbage inside: read, skipped with a warning, an error only for no device rows at all
    QFile g(tmp.filePath(QStringLiteral("Instruction.parquet")));
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write("PAR1 not really");
    g.close();
    const NtffProfile p = ExplorerDeviceReader::read(tmp.path().toStdString());
    QVERIFY(p.instructions.empty());
    QVERIFY2(anyMessage(p.diagnostics, {"Instruction.parquet", "cannot be read"}), qPrintable(messages(p.diagnostics)));
    bool threw = false;
    try {
        ExplorerDeviceReader::read(tmp.filePath(QStringLiteral("absent")).toStdString());
    } catch (const ImportError &) {
        threw = true;
    }
    QVERIFY(threw);
}

QTEST_GUILESS_MAIN(TstExplorerDevice)
#include "tst_explorerdevice.moc"
