// NeuronProfileJsonReader reads its row arrays in windows on two threads: the profile must be the one a
// single window on one thread builds (the whole-array read), row by row, with the same warnings and
// first offsets, for the real corpus exports and for hand-written exports with windows cut inside
// strings, after escaped quotes and inside multi-byte characters, repeated keys and arrays in any
// order; streamed from gzip and zstd files; a truncated gzip member names the file and compressed offset.
#include "corpus.h"
#include "windowedread.h"

#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"
#include "io/neuronprofile/neuronprofilejsonreader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

// Every field the reader fills, one line per row / entry.
std::vector<std::string> dump(const NtffProfile &p)
{
    std::vector<std::string> out;
    auto line = [&out](const std::ostringstream &s) { out.push_back(s.str()); };
    std::ostringstream h;
    h << "version=" << int(p.version) << " uuid=" << p.uuid << " neff=" << p.neffName << " rt=" << p.runtimeVersion
      << " drv=" << p.driverVersion << " coll=" << p.collectivesVersion << " inst=" << p.instanceType << " sg=" << p.subgraphName
      << " total=" << p.totalTimePs.value_or(0) << " last=" << p.lastHwTimestamp << " size=" << p.fileSize
      << " records=" << p.recordsRead << " events=" << p.eventRecordCount << " format=" << p.sourceFormat;
    line(h);
    for (const NtffCore &c : p.cores) {
        std::ostringstream s;
        s << "C " << c.subgraphName << ' ' << (c.index ? std::to_string(*c.index) : "-") << ' ' << c.totalTimePs.value_or(0);
        line(s);
    }
    for (size_t i = 0; i < p.instructions.size(); ++i) {
        const NtffInstructionRow &r = p.instructions[i];
        const NtffSync &y = p.instructionSync[i];
        std::ostringstream s;
        s << "I " << r.timestamp << ' ' << r.duration << ' ' << r.pc << ' ' << r.compilerPc << ' ' << r.evtWaitTime << ' '
          << r.crcIn << ' ' << r.crcOut << ' ' << int(r.engine) << ' ' << int(r.lane) << ' ' << int(r.opcode) << ' '
          << r.extraOpcode << ' ' << p.opcodeName(r) << " core " << int(r.core) << " sync " << y.waitValue << ' ' << y.dmaSemaphore << ' '
          << int(y.waitOp) << ' ' << int(y.waitSemaphore) << ' ' << int(y.updateOp) << " op " << p.layerOf(i) << " | "
          << p.hloOf(i);
        line(s);
    }
    for (size_t i = 0; i < p.dma.size(); ++i) {
        const NtffDmaRow &r = p.dma[i];
        std::ostringstream s;
        s << "D " << r.timestamp << ' ' << r.duration << ' ' << r.transferSize << ' ' << r.crc << ' ' << int(r.engine) << ' '
          << int(r.queue) << ' ' << p.dmaSemaphore[i] << ' ' << p.name(p.dmaTags[i].variable) << ' '
          << p.name(p.dmaTags[i].source) << ' ' << p.name(p.dmaTags[i].dest) << ' ' << p.name(p.dmaTags[i].queueType) << " core "
          << int(r.core);
        line(s);
    }
    for (const NtffSemaphoreRow &r : p.semaphores) {
        std::ostringstream s;
        s << "S " << r.timestamp << ' ' << r.value << ' ' << int(r.id) << " core " << int(r.core);
        line(s);
    }
    for (const NtffThrottleRow &r : p.throttle) {
        std::ostringstream s;
        s << "H " << r.timestamp << ' ' << r.duration << ' ' << r.k << ' ' << r.n << ' ' << r.type << " core " << int(r.core);
        line(s);
    }
    for (const NtffMemoryUsage &m : p.memoryUsage) {
        std::ostringstream s;
        s << "M " << m.index << ' ' << m.bytes << ' ' << m.category << " core " << int(m.core);
        line(s);
    }
    for (const NtffDmaQueue &q : p.dmaQueues) {
        std::ostringstream s;
        s << "Q " << q.engine << ' ' << q.queue << ' ' << q.name << ' ' << q.displayName << " core " << int(q.core);
        line(s);
    }
    for (const std::string &n : p.extraOpcodeNames)
        out.push_back("X " + n);
    for (const NtffDmaBlock &b : p.dmaBlocks)
        out.push_back("B " + std::to_string(b.timestamp) + ' ' + std::to_string(b.duration) + ' ' + std::to_string(b.transferSize) +
                      ' ' + b.queue + ' ' + std::string(p.name(b.tag.variable)) + ' ' + std::string(p.name(b.tag.source)) + ' ' +
                      std::string(p.name(b.tag.dest)));
    for (const std::string &n : p.names) // in order of first use, each once
        out.push_back("L " + n);
    for (const NtffDependency &d : p.dependencies) // the predecessors, across windows
        out.push_back("P " + std::to_string(d.from) + ' ' + std::to_string(d.to) + ' ' + std::string(p.name(d.type)));
    for (const auto &[id, name] : p.semaphoreNames)
        out.push_back("N " + std::to_string(id) + ' ' + name);
    for (const auto &[k, v] : p.reportedMetadata)
        out.push_back("R " + k + '=' + v);
    for (const Warning &w : p.diagnostics.warnings())
        out.push_back("W " + Diagnostics::format(w) + (w.isNote() ? " (note)" : ""));
    return out;
}

NtffProfile readText(const std::string &text, size_t windowBytes, unsigned threads, size_t blockBytes = 0)
{
    LoadOptions o;
    o.jsonWindowBytes = windowBytes;
    o.jsonThreads = threads;
    InputStream stream(text, "test.json", o, blockBytes);
    return NeuronProfileJsonReader::read(stream, o);
}

// The reference: one window holding each whole array, one thread.
NtffProfile single(const std::string &text)
{
    return readText(text, size_t(1) << 40, 1);
}

void compareProfiles(const std::vector<std::string> &got, const std::vector<std::string> &want, const char *what)
{
    const QString diff = test::differingLine(got, want, QLatin1String(what));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

std::string errorOf(const std::string &text, size_t windowBytes, unsigned threads)
{
    try {
        readText(text, windowBytes, threads);
    } catch (const ImportError &e) {
        return e.what();
    }
    return "(no error)";
}

// neuron-profile's shape, with the awkward parts: escaped quotes and multi-byte names, unknown opcode
// names, semaphores under two names, a row with missing fields, arrays in any order, a key repeated.
std::string handWritten()
{
    std::string s = R"({"dma":[)";
    for (int i = 0; i < 40; ++i)
        s += std::string(i ? "," : "") + R"({"timestamp":)" + std::to_string(100 + i * 7) + R"(,"duration":5,"dma_engine":")" +
             std::to_string(i % 3) + R"(","dma_queue":")" + std::to_string(i % 2) + R"(","transfer_size":)" +
             std::to_string(64 * i) + R"(,"crc":1,"aggregated":")" + (i % 9 == 4 ? "yes" : "no") +
             "\",\"subgroup\":\"qSpill\\\"\\u00e9Reload-Q" + std::to_string(i % 2) + "-E" + std::to_string(i % 3) +
             "\",\"semaphore_id\":\"S[4] (qA)\"}";
    s += "],\"summary\":[{\"runtime_version\":\"2.29 \\\"ü\\\"\",\"total_time\":0.0012,\"instance_type\":\"trn1.2xlarge\"}],\"instruction\":[";
    static const char *ops[] = {"MATMUL", "ÆTHER_OP", "NOP", "CUSTOM_\\\"Q\\\"", "MATMUL", "日本語"};
    for (int i = 0; i < 60; ++i) {
        s += std::string(i ? ", " : "") + R"({"timestamp":)" + std::to_string(10 * i) + R"(,"duration":)" + std::to_string(3 + i % 4) +
             R"(,"pc":)" + std::to_string(i % 11) + R"(,"opcode":")" + ops[i % 6] + R"(","subgroup":"Tensor","label":")" +
             (i % 6 == 0 ? "TensorMatrix" : "Tensor") + "\",\"operands\":\"S[3]>=1 \\\"x\\\" ☃\"";
        if (i % 5)
            s += R"(,"evt_wait_time":2,"crc_in":1,"crc_out":2)";
        if (i == 17)
            s += R"(,"compiler_pc":"bad")";
        if (i % 7 < 5) // layers and HLO ops, one with escapes and a multi-byte name
            s += std::string(R"(,"layer":")") + (i < 30 ? "_dot.3" : "l\\\\ä\\\"y") + R"(","hlo_name":"%op)" + std::to_string(i / 10) +
                 " = dot(%p0, %p1)\"";
        s += "}";
    }
    s += R"(],"semaphore_update":[)";
    for (int i = 0; i < 30; ++i)
        s += std::string(i ? "," : "") + R"({"id":")" + (i % 4 == 1 ? "S[4] (qB)" : i % 4 == 2 ? "S[4] (qA)" : "7") +
             R"(","timestamp":)" + std::to_string(5 * i) + R"(,"value":)" + std::to_string(i) + "}";
    s += R"(],"metadata":[{"ntff_version":5,"last_hw_timestamp":900}],"instruction":[)";
    s += R"({"timestamp":700,"duration":1,"pc":1,"opcode":"ANOTHER_ÖP","subgroup":"Vector"},7,)";
    s += R"({"timestamp":701,"duration":1,"pc":2,"opcode":"ÆTHER_OP","subgroup":"Vector","label":"Vector"}],)";
    s += R"("ham":[{"timestamp":1,"duration":2,"k":1,"n":1,"type":99},{"timestamp":3,"duration":2,"k":1,"n":2}],)";
    s += R"("dma_queues_info":[{"q_eng_idx":0,"q_idx":1,"q_name":"qX"},{"q_eng_idx":5,"q_idx":2,"q_name":"qY"}],)";
    s += R"("nc_mem_usage":[{"amount_bytes":12,"usage_type":"weights"}]})";
    return s;
}

// The 2.28 shape (trn2, two physical cores): "subgraph" on every row, before model_info names the cores
// (listed sg01 first, so the rows' order of first use is not the cores'); DMA engines from 64, per-core
// semaphore names, a row without a subgraph, nc_mem_usage by core number.
std::string handWritten228()
{
    std::string s = R"({"instruction":[)";
    for (int i = 0; i < 50; ++i)
        s += std::string(i ? "," : "") + R"({"timestamp":)" + std::to_string(10 * i) + R"(,"duration":3,"pc":)" + std::to_string(i) +
             R"(,"opcode":"NOP","subgroup":"Vector","label":"Vector","evt_wait_time":0,"crc_in":1,"crc_out":2,"subgraph":"sg0)" +
             std::to_string(i % 3 == 0) + R"("})";
    s += R"(],"dma":[)";
    for (int i = 0; i < 20; ++i)
        s += std::string(i ? "," : "") + R"({"timestamp":)" + std::to_string(7 * i) + R"(,"duration":5,"dma_engine":")" +
             std::to_string(i % 2 ? 64 + i % 16 : 81) + R"(","dma_queue":")" + std::to_string(i % 2 ? 0 : 14) +
             R"(","transfer_size":64,"crc":1,"aggregated":"no","queue_type":")" + (i % 2 ? "hardware_dynamic" : "instruction") +
             R"(","subgroup":"Q)" + std::to_string(i % 2 ? 0 : 14) + "-E" + std::to_string(i % 2 ? 64 + i % 16 : 81) +
             R"(","subgraph":"sg0)" + std::to_string(i % 2 ? 0 : 1) + R"("})";
    s += R"(],"semaphore_update":[)";
    for (int i = 0; i < 12; ++i)
        s += std::string(i ? "," : "") + R"({"id":")" + (i % 2 ? "S[5] (Tensor)" : "S[5] (qDveTable)") + R"(","timestamp":)" +
             std::to_string(5 * i) + R"(,"value":)" + std::to_string(i) + (i == 11 ? std::string() : R"(,"subgraph":"sg0)" + std::to_string(i % 2) + "\"") +
             "}";
    s += R"(],"ham":[{"timestamp":1,"duration":2,"k":4,"n":8,"type":1,"subgraph":"sg00"}],)";
    s += R"("model_info":[{"sg_name":"sg01","nc_idx":5,"vector_engine_instruction_count":17,"event_count":3},)"
         R"({"sg_name":"sg00","nc_idx":4,"vector_engine_instruction_count":33,"event_count":9}],)";
    s += R"("metadata":[{"ntff_version":6,"last_hw_timestamp":900,"num_physical_cores":2}],)";
    s += R"("dma_queues_info":[{"q_eng_idx":90,"q_idx":14,"q_name":"qDveTable","subgraph":"sg01"}],)";
    s += R"("warnings":[{"category":"Missing Data","message":"Missing X. Try --y."}],)";
    s += R"("nc_mem_usage":[{"nc":4,"amount_bytes":12,"usage_type":"Generic"},{"nc":5,"amount_bytes":7,"usage_type":"Generic"}]})";
    return s;
}

} // namespace

class TestNeuronJsonWindows : public QObject
{
    Q_OBJECT

private slots:
    void corpusExports_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(lanescope::test::corpusFile(QStringLiteral("neuron-profile-json")));
        for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
        // 2.28, two physical cores: the rows' "subgraph" read in windows before model_info names the cores
        const QDir v6(lanescope::test::corpusFile(QStringLiteral("neuron-trn2-v6")));
        for (const QString &kernel : v6.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const QDir k(v6.filePath(kernel));
            for (const QString &name : k.entryList({QStringLiteral("*_profile_full.json")}, QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(kernel + QLatin1Char('/') + name)) << k.filePath(name);
        }
    }

    // Every corpus export: two threads with 64-byte and 4 KiB windows (and blocks of odd sizes), one
    // thread with tiny windows, and the default, equal to the whole-array read line by line.
    void corpusExports()
    {
        LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-profile-json"));
        QFETCH(QString, path);
        const std::string text = test::readFile(path);
        QVERIFY(!text.empty());
        const std::vector<std::string> want = dump(single(text));
        QVERIFY(want.size() > 500);
        compareProfiles(dump(readText(text, 64, 2, 1000)), want, "64-byte windows, 2 threads");
        compareProfiles(dump(readText(text, 4096, 2, 333)), want, "4 KiB windows, 2 threads");
        compareProfiles(dump(readText(text, 64, 1)), want, "64-byte windows, 1 thread");
        LoadOptions o;
        InputBuffer buffer = InputBuffer::fromBytes(text, path.toStdString(), o);
        std::vector<std::string> viaBuffer = dump(NeuronProfileJsonReader::read(buffer, "test.json", o));
        compareProfiles(viaBuffer, want, "read(InputBuffer&)");
    }

    // The instructions' "predecessors" become dependency edges (predecessor -> instruction), whatever
    // window each row was read in. Expected counts: Python over each export, json.load (exact 64-bit
    // ids), every entry of every row's "predecessors" whose id is some instruction's "id", by "type".
    void predecessors_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("edges");
        QTest::addColumn<int>("flowDependence");
        QTest::addColumn<int>("ordered");
        QTest::newRow("v6 attention") << QStringLiteral("neuron-trn2-v6/baseline_attention/baseline_exec_2_profile_full.json") << 772 << 436 << 192;
        QTest::newRow("v6 bf16") << QStringLiteral("neuron-trn2-v6/baseline_bf16_s512/baseline_exec_2_profile_full.json") << 709 << 413 << 192;
        QTest::newRow("v6 fused") << QStringLiteral("neuron-trn2-v6/fused_bf16_s512/fused_exec_2_profile_full.json") << 757 << 403 << 192;
        QTest::newRow("inf2 128x128x256") << QStringLiteral("neuron-profile-json/profile_128x128x256.json") << 17 << 17 << 0;
        QTest::newRow("inf2 128x128x1024") << QStringLiteral("neuron-profile-json/profile_128x128x1024.json") << 21 << 21 << 0;
    }

    void predecessors()
    {
        QFETCH(QString, file);
        QFETCH(int, edges);
        QFETCH(int, flowDependence);
        QFETCH(int, ordered);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const std::string text = test::readFile(test::corpusFile(file));
        const NtffProfile p = readText(text, 4096, 2, 333);
        QCOMPARE(int(p.dependencies.size()), edges);
        const auto ofType = [&p](std::string_view type) {
            return int(std::count_if(p.dependencies.begin(), p.dependencies.end(), [&](const NtffDependency &d) { return p.name(d.type) == type; }));
        };
        QCOMPARE(ofType("FLOW_DEPENDENCE"), flowDependence);
        QCOMPARE(ofType("ORDERED"), ordered);
        for (const NtffDependency &d : p.dependencies)
            QVERIFY(d.from < p.instructions.size() && d.to < p.instructions.size() && d.from != d.to);
    }

    // Hand-written: ids as numbers beyond 2^53 and as strings, an id no row has (a note), an entry
    // without an id and a "predecessors" that is no array (warnings naming the field).
    void predecessorsHandWritten()
    {
        const std::string row = R"({"timestamp": %T, "duration": 5, "pc": 1, "opcode": "MATMUL", "subgroup": "Tensor", "label": "Tensor", "evt_wait_time": 0, "crc_in": 1, "crc_out": 1%X})";
        const auto make = [&row](int ts, const std::string &extra) {
            std::string r = row;
            r.replace(r.find("%T"), 2, std::to_string(ts));
            r.replace(r.find("%X"), 2, extra);
            return r;
        };
        const std::string text = "{\"instruction\": [" + make(0, R"(, "id": 18446744073709551615)") + ", " +
                                 make(10, R"(, "id": "9007199254740993", "predecessors": [{"id": 18446744073709551615, "type": "FLOW_DEPENDENCE"}])") + ", " +
                                 make(20, R"(, "id": 7, "predecessors": [{"id": "9007199254740993", "type": "ORDERED"}, {"id": 123}, {"type": "ANTI_DEPENDENCE"}])") + ", " +
                                 make(30, R"(, "predecessors": 5)") + "]}";
        const NtffProfile p = readText(text, 64, 2, 100);
        QCOMPARE(p.instructions.size(), size_t(4));
        QCOMPARE(p.dependencies.size(), size_t(2));
        QCOMPARE(p.dependencies[0].from, 0u);
        QCOMPARE(p.dependencies[0].to, 1u);
        QCOMPARE(p.name(p.dependencies[0].type), std::string_view("FLOW_DEPENDENCE"));
        QCOMPARE(p.dependencies[1].from, 1u);
        QCOMPARE(p.dependencies[1].to, 2u);
        QCOMPARE(p.name(p.dependencies[1].type), std::string_view("ORDERED"));
        std::string warnings;
        for (const Warning &w : p.diagnostics.warnings())
            warnings += Diagnostics::format(w) + (w.isNote() ? " (note)\n" : "\n");
        QVERIFY2(warnings.find("1 instruction predecessors name an id no instruction of the export has") != std::string::npos, warnings.c_str());
        QVERIFY2(warnings.find("instruction rows with an invalid \"predecessors\"") != std::string::npos, warnings.c_str());
        QVERIFY2(warnings.find("entry without an \"id\" skipped") != std::string::npos, warnings.c_str());
        QCOMPARE(dump(p), dump(single(text))); // windows or not
    }

    // The same from gzip and zstd files streamed from disk.
    void compressedFiles()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json/profile_128x128x1024.json"));
        const std::string text = test::readFile(lanescope::test::corpusFile(QStringLiteral("neuron-profile-json/profile_128x128x1024.json")));
        std::vector<std::string> want = dump(single(text));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const auto &[suffix, bytes] : {std::pair{"gz", test::gzipOf(text)}, std::pair{"zst", test::zstdOf(text)}}) {
            const QString file = dir.filePath(QStringLiteral("p.json.") + QLatin1String(suffix));
            QVERIFY(test::writeFile(file, bytes));
            LoadOptions o;
            o.jsonWindowBytes = 2048;
            InputStream stream(file.toStdString(), o);
            std::vector<std::string> got = dump(NeuronProfileJsonReader::read(stream, o));
            // The size of a compressed file is the text's: the same first line.
            compareProfiles(got, want, suffix);
        }
    }

    void handWrittenWindows_data()
    {
        QTest::addColumn<int>("windowBytes");
        QTest::addColumn<int>("threads");
        for (int w : {1, 7, 64, 300})
            for (int t : {1, 2})
                QTest::addRow("window %d, %d threads", w, t) << w << t;
    }

    // The physical cores come out the same whatever the windows: rows carry their subgraph's index
    // through the merge, model_info (read after them) orders the cores.
    void handWritten228Windows()
    {
        const std::string text = handWritten228();
        const NtffProfile ref = single(text);
        QCOMPARE(ref.cores.size(), size_t(2));
        QCOMPARE(ref.cores[0].subgraphName, std::string("sg01")); // model_info's order
        QCOMPARE(ref.cores[1].index.value_or(0), 4u);
        QCOMPARE(ref.instructions.size(), size_t(50));
        QCOMPARE(int(ref.instructions[0].core), 0); // i % 3 == 0: sg01
        QCOMPARE(int(ref.instructions[1].core), 1);
        QCOMPARE(ref.dma.size(), size_t(20));
        QCOMPARE(int(ref.dma[1].engine), 65);
        for (int w : {1, 7, 64, 300})
            for (unsigned t : {1u, 2u})
                compareProfiles(dump(readText(text, size_t(w), t, 5)), dump(ref), qPrintable(QStringLiteral("2.28, window %1, %2 threads").arg(w).arg(t)));
    }

    // Windows cut inside strings, after escaped quotes and inside multi-byte characters (every byte
    // boundary at 1-byte windows), two "instruction" arrays, tables in any order.
    void handWrittenWindows()
    {
        QFETCH(int, windowBytes);
        QFETCH(int, threads);
        const std::string text = handWritten();
        const NtffProfile ref = single(text);
        QCOMPARE(ref.instructions.size(), size_t(62)); // 60 + 2 (the 7 between them is skipped)
        QCOMPARE(ref.dma.size(), size_t(36));           // 40 - 4 aggregated
        QCOMPARE(ref.semaphores.size(), size_t(30));
        QCOMPARE(ref.throttle.size(), size_t(1));       // the second lacks "type"
        QCOMPARE(ref.recordsRead, uint64_t(40 + 1 + 60 + 30 + 1 + 3 + 2 + 2 + 1));
        QCOMPARE(ref.extraOpcodeNames, (std::vector<std::string>{"ÆTHER_OP", "CUSTOM_\"Q\"", "日本語", "ANOTHER_ÖP"}));
        QCOMPARE(ref.semaphoreNames.at(4), std::string("qB"));
        QCOMPARE(ref.names, (std::vector<std::string>{"_dot.3", "%op0 = dot(%p0, %p1)", "%op1 = dot(%p0, %p1)",
                                                        "%op2 = dot(%p0, %p1)", "l\\ä\"y", "%op3 = dot(%p0, %p1)",
                                                        "%op4 = dot(%p0, %p1)", "%op5 = dot(%p0, %p1)"}));
        QCOMPARE(ref.layerOf(0), std::string_view("_dot.3"));
        QCOMPARE(ref.layerOf(5), std::string_view()); // 5 % 7 == 5: no layer
        QCOMPARE(ref.hloOf(59), std::string_view("%op5 = dot(%p0, %p1)"));
        QCOMPARE(ref.diagnostics.count("semaphores shown under two names (the first kept)"), uint64_t(7));
        QCOMPARE(ref.diagnostics.count("\"instruction\" entries that are not objects (skipped)"), uint64_t(1));
        QCOMPARE(ref.diagnostics.count("instruction rows without a valid \"crc_in\" (expected 0..65535; 65535 assumed)"), uint64_t(12 + 2));
        compareProfiles(dump(readText(text, size_t(windowBytes), unsigned(threads), 5)), dump(ref), "hand-written");
    }

    // Errors are the single pass's: a cut file, invalid JSON in a window, bad content between arrays.
    void errors_data()
    {
        QTest::addColumn<QString>("text");
        const std::string t = handWritten();
        QTest::newRow("cut after a comma inside a row") << QString::fromStdString(t.substr(0, t.find(",\"duration\":", 2000) + 1));
        QTest::newRow("cut inside a string") << QString::fromStdString(t.substr(0, t.find("TensorMatrix") + 4));
        QTest::newRow("cut between rows") << QString::fromStdString(t.substr(0, t.find("},{", 3000) + 2));
        QTest::newRow("cut in a small table") << QString::fromStdString(t.substr(0, t.find("trn1")));
        QTest::newRow("invalid value in a row") << QString::fromStdString(std::string(t).replace(t.find("\"pc\":3"), 6, "\"pc\":3 \"x\""));
        QTest::newRow("content after the object") << QString::fromStdString(t + " {}");
        QTest::newRow("object closed between arrays")
            << QString::fromStdString(std::string(t).replace(t.find("],\"metadata\""), 2, "]},"));
    }

    void errors()
    {
        QFETCH(QString, text);
        const std::string t = text.toStdString();
        const std::string want = errorOf(t, size_t(1) << 40, 1);
        QVERIFY2(want.rfind("test.json: at byte ", 0) == 0, want.c_str());
        QCOMPARE(errorOf(t, 16, 2), want);
        QCOMPARE(errorOf(t, 1, 1), want);
    }

    // A gzip file cut inside a member (a partial copy): the rows decoded before the cut load, one
    // warning names where the text ends and that the gzip stream ends early (docs/diagnostics.md).
    void truncatedGzip()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json/profile_128x128x1024.json"));
        QTemporaryDir dir;
        NtffProfile p;
        const test::CutGzip cut = test::readCutGzip(
            dir, test::readFile(lanescope::test::corpusFile(QStringLiteral("neuron-profile-json/profile_128x128x1024.json"))),
            [&p](InputStream &stream, const LoadOptions &o) { p = NeuronProfileJsonReader::read(stream, o); });
        QVERIFY2(cut.error.empty(), cut.error.c_str());
        QCOMPARE(p.diagnostics.total(DiagnosticSeverity::Warning), uint64_t(1));
        bool named = false;
        for (const Warning &w : p.diagnostics.warnings())
            named |= !w.isNote() && w.message.find("(truncated: a cut or partial file)") != std::string::npos &&
                     w.firstSeen.find("gzip stream ends early") != std::string::npos;
        QVERIFY(named);
        QVERIFY(!p.instructions.empty());
    }

    // Progress stays in 200..900, rises, and a cancel stops at the next window.
    void progressAndCancel()
    {
        bool cancelled = false;
        const std::vector<int> seen = test::progressUntilCancel(handWritten(), 500, cancelled, [](InputStream &stream, const LoadOptions &o) {
            NeuronProfileJsonReader::read(stream, o);
        });
        QVERIFY(cancelled);
        QVERIFY(seen.size() > 5);
        QCOMPARE(seen.front(), 200);
        QVERIFY(seen.back() < 900);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    }
};

QTEST_GUILESS_MAIN(TestNeuronJsonWindows)
#include "tst_neuronjsonwindows.moc"
