// The NEFF's instruction-to-op chain (core/io/neff/neffdebuginfo.h, docs/neff.md) on every NEFF of the
// corpus: one entry per instruction of each engine's .bin (the .bin's size / 64, an independent
// count), nearly all of them reaching a BIR instruction and a Penguin op; in the NKIPy NEFFs the HLO
// level too, with the Python line. The per-engine counts of matmul_large were counted by a
// throw-away Python protobuf wire decoder over the same members (the numbers docs/neff.md quotes).
// Hand-built members, encoded the way neuronx-cc writes them (field numbers as found in the
// corpus): a chain with all levels, a missing level, a member that does not parse (a warning, the
// rest is kept).
#include "corpus.h"

#include "io/neff/neffdebuginfo.h"
#include "io/neff/neffreader.h"

#include <QtTest>

#include <map>
#include <string>

using namespace lanescope;

namespace {

// Protobuf wire encoding, as much as the debug members use.
std::string varint(uint64_t v)
{
    std::string out;
    do {
        out.push_back(char((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
        v >>= 7;
    } while (v);
    return out;
}
std::string field(uint32_t number, const std::string &bytes)
{
    return varint(uint64_t(number) << 3 | 2) + varint(bytes.size()) + bytes;
}
std::string fieldInt(uint32_t number, uint64_t v)
{
    return varint(uint64_t(number) << 3) + varint(v);
}
std::string packedIds(std::initializer_list<uint64_t> ids)
{
    std::string p;
    for (uint64_t id : ids)
        p += varint(id);
    return field(3, p);
}
std::string attr(const std::string &key, const std::string &value)
{
    return field(7, field(1, key) + field(2, value));
}
std::string entry(uint64_t id, const std::string &name, std::initializer_list<uint64_t> up, const std::string &attrs = {})
{
    return field(3, (id ? fieldInt(1, id) : std::string()) + field(2, name) + (up.size() ? packedIds(up) : std::string()) + attrs);
}
std::string header(const std::string &what, const std::string &parent)
{
    return field(1, what) + field(2, parent);
}

struct Members
{
    std::map<std::string, std::string, std::less<>> bytes;
    std::optional<std::string_view> operator()(std::string_view name) const
    {
        const auto it = bytes.find(name);
        return it == bytes.end() ? std::nullopt : std::optional<std::string_view>(it->second);
    }
};

} // namespace

class TestNeffDebugInfo : public QObject
{
    Q_OBJECT

private slots:
    void everyCorpusNeff()
    {
        LANESCOPE_REQUIRE_CORPUS();
        int files = 0;
        for (const QString &folder : {QStringLiteral("neuron-cs149-asst4"), QStringLiteral("neuron-nkipy")}) {
            LANESCOPE_REQUIRE_CORPUS_FILE(folder);
            const QDir dir(lanescope::test::corpusFile(folder));
            for (const QString &name : dir.entryList({QStringLiteral("*.neff")}, QDir::Files)) {
                const NeffInfo info = NeffReader::read(dir.filePath(name).toStdString());
                const QByteArray what = name.toUtf8();
                QVERIFY2(info.diagnostics.empty(), what.constData());
                QCOMPARE(info.debug.size(), info.subgraphs.size());
                for (const NeffSubgraphDebug &d : info.debug) {
                    const NeffSubgraph *sg = info.subgraph(d.subgraph);
                    QVERIFY(sg);
                    QCOMPARE(d.engines.size(), size_t(5));
                    for (const NeffEngineDebug &e : d.engines) {
                        const std::string bin = d.subgraph + "/" + e.engine + ".bin";
                        uint64_t binSize = 0;
                        for (const NeffBinFile &b : sg->binFiles)
                            if (b.name == bin)
                                binSize = b.size;
                        QVERIFY2(binSize > 0 && binSize % 64 == 0, bin.c_str());
                        QCOMPARE(uint64_t(e.instructions.size()), binSize / 64); // one entry per instruction
                        size_t withBir = 0, withPenguin = 0;
                        for (const NeffDebugInstruction &i : e.instructions) {
                            withBir += i.bir != NeffDebugInstruction::kNone;
                            withPenguin += i.penguin != NeffDebugInstruction::kNone;
                        }
                        // All but the runtime preamble (the first one or two) name their BIR instruction.
                        QVERIFY2(withBir + 2 >= e.instructions.size(), (what + " " + QByteArray::fromStdString(e.engine)).constData());
                        QVERIFY(withPenguin <= withBir);
                    }
                }
                ++files;
            }
        }
        QCOMPARE(files, 8);
    }

    void matmulLargeEqualsTheWireDecoder()
    {
        const QString rel = QStringLiteral("neuron-nkipy/matmul_large.neff");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const NeffInfo info = NeffReader::read(lanescope::test::corpusFile(rel).toStdString());
        QVERIFY(!info.debug.empty());
        const NeffSubgraphDebug &d = info.debug.front();
        // engine -> instructions, with BIR, with Penguin, with HLO (the Python decoder's counts)
        const std::map<std::string, std::array<size_t, 4>> expected = {{"PE", {21269, 21267, 21267, 20752}},
                                                                      {"Activation", {103, 101, 85, 53}},
                                                                      {"DVE", {1101, 1099, 1099, 1080}},
                                                                      {"Pool", {6873, 6871, 6871, 6842}},
                                                                      {"SP", {449, 447, 1, 0}}};
        for (const auto &[engine, counts] : expected) {
            const NeffEngineDebug *e = d.engine(engine);
            QVERIFY2(e, engine.c_str());
            std::array<size_t, 4> got{e->instructions.size(), 0, 0, 0};
            for (const NeffDebugInstruction &i : e->instructions) {
                got[1] += i.bir != NeffDebugInstruction::kNone;
                got[2] += i.penguin != NeffDebugInstruction::kNone;
                got[3] += i.hlo != NeffDebugInstruction::kNone;
            }
            QVERIFY2(got == counts, engine.c_str());
        }
        QVERIFY(!d.hlo.empty());
        for (const NeffDebugOp &op : d.hlo)
            QVERIFY2(op.name.starts_with('%'), op.name.c_str());
    }

    void matmulSmallNamesTheOpAndItsLine()
    {
        const QString rel = QStringLiteral("neuron-nkipy/matmul_small.neff");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const NeffInfo info = NeffReader::read(lanescope::test::corpusFile(rel).toStdString());
        const NeffSubgraphDebug &d = info.debug.front();
        const auto ops = NeffDebugInfo::instructionsPerHlo(d);
        QCOMPARE(ops.size(), size_t(1));
        const NeffDebugOp &dot = d.hlo[ops.front().first];
        QCOMPARE(dot.name, std::string("%op0 = dot(%x, %y)"));
        QCOMPARE(dot.opType, std::string("NKIPy_Op"));
        QCOMPARE(dot.line, 58u);
        QVERIFY(dot.file.ends_with("test_spike_async.py"));
        QCOMPARE(ops.front().second, uint64_t(10)); // PE 5 + Activation 1 + Pool 4
        const NeffEngineDebug *pe = d.engine("PE");
        const NeffDebugInstruction &first = pe->instructions[2];
        QCOMPARE(d.bir[first.bir].name, std::string("I-87-0-wait-0"));
    }

    void handBuiltChain()
    {
        Members m;
        m.bytes["debug_info/debug_info_pttf.dbg_sg000000"] = header("Debug info for PyTorch/Tensorflow operations", "") +
                                                             entry(1, "Net", {}) + entry(2, "Net/linear", {1});
        m.bytes["debug_info/debug_info_hlo.dbg_sg000000"] =
            header("Debug info for XLA generated HLO instructions", "debug_info_pttf.dbg") +
            entry(7, "%dot.3 = dot(%p0, %p1)", {2}, attr("op_type", "aten::mm") + attr("source_file", "/app/train.py") + attr("source_line", "118"));
        m.bytes["debug_info/debug_info_penguin.dbg_sg000000"] = header("Debug info for Penguin instructions", "debug_info_hlo.dbg") +
                                                                entry(40, "float32<128 x 64> $40", {7});
        m.bytes["sg00/debug_info_backend_PE.dbg"] = header("Debug info for one engine's BIR Instructions", "debug_info_penguin.dbg") +
                                                    entry(100, "I-40-0", {40}) + entry(101, "I-40-1", {40});
        m.bytes["sg00/debug_info_asm_PE.dbg"] = header("Debug info for one engine's assembly instructions", "debug_info_backend_PE.dbg") +
                                                entry(0, "", {}) + entry(0, "", {100}) + entry(0, "", {101}) + entry(0, "", {999});
        Diagnostics diagnostics;
        const auto debug = NeffDebugInfo::parse(m, {"sg00"}, "hand.neff", diagnostics);
        QVERIFY(diagnostics.empty());
        QCOMPARE(debug.size(), size_t(1));
        const NeffEngineDebug *pe = debug[0].engine("PE");
        QVERIFY(pe);
        QCOMPARE(pe->instructions.size(), size_t(4));
        QCOMPARE(pe->instructions[0].bir, NeffDebugInstruction::kNone); // the preamble
        QCOMPARE(pe->instructions[3].bir, NeffDebugInstruction::kNone); // an id the backend lacks
        const NeffDebugInstruction &i = pe->instructions[2];
        QCOMPARE(debug[0].bir[i.bir].name, std::string("I-40-1"));
        QCOMPARE(debug[0].penguin[i.penguin].name, std::string("float32<128 x 64> $40"));
        QCOMPARE(debug[0].hlo[i.hlo].name, std::string("%dot.3 = dot(%p0, %p1)"));
        QCOMPARE(debug[0].hlo[i.hlo].line, 118u);
        QCOMPARE(debug[0].scopes[i.scope].name, std::string("Net/linear"));
        QCOMPARE(pe->instructions[1].penguin, i.penguin); // one op stored once
        QCOMPARE(debug[0].penguin.size(), size_t(1));
        QCOMPARE(debug[0].engine("DVE"), nullptr); // no members for it

        // The HLO level missing (an NKI NEFF): Penguin stays, HLO and scope are none.
        m.bytes.erase("debug_info/debug_info_hlo.dbg_sg000000");
        const auto nki = NeffDebugInfo::parse(m, {"sg00"}, "hand.neff", diagnostics);
        QCOMPARE(nki[0].engine("PE")->instructions[2].hlo, NeffDebugInstruction::kNone);
        QVERIFY(nki[0].engine("PE")->instructions[2].penguin != NeffDebugInstruction::kNone);

        // A backend member that breaks off inside an entry: a warning naming it; the instructions stay, without BIR.
        m.bytes["sg00/debug_info_backend_PE.dbg"] = m.bytes["sg00/debug_info_backend_PE.dbg"].substr(0, 60);
        const auto cut = NeffDebugInfo::parse(m, {"sg00"}, "hand.neff", diagnostics);
        QCOMPARE(diagnostics.warnings().size(), size_t(1));
        QVERIFY(Diagnostics::format(diagnostics.warnings().front()).find("debug_info_backend_PE.dbg") != std::string::npos);
        QCOMPARE(cut[0].engine("PE")->instructions.size(), size_t(4));
        QCOMPARE(cut[0].engine("PE")->instructions[1].bir, NeffDebugInstruction::kNone);
    }
};

QTEST_GUILESS_MAIN(TestNeffDebugInfo)
#include "tst_neffdebuginfo.moc"
