// OpcodeNameTable and NtffOpcodeNaming: opcode names learned from a neuron-profile JSON export of the
// same program as an NTFF. On the real corpus pairs (neuron-profile-json/*.ntff + *.json, exported
// from each other) the JSON's names agree with the built-in table for every byte both know, and a byte
// the built-in table does not know (simulated on the real rows) gets the real JSON's name in the
// trace. A hand-built folder, written the way neuron-profile writes its export, goes through the real
// importers: lanes, `rows` (the NTFF's row reader) and the folder loader show the JSON's name.
#include "corpus.h"

#include "io/formats.h"
#include "io/input/inputbuffer.h"
#include "io/neuronprofile/neuronprofilejsonreader.h"
#include "io/ntff/ntffimporter.h"
#include "io/ntff/ntffopcodenaming.h"
#include "io/ntff/ntffreader.h"
#include "io/ntff/opcodenametable.h"
#include "io/synthetic/ntffwriter.h"
#include "io/traceloader.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>

using namespace lanescope;

namespace {

NtffProfile readNtff(const QString &path)
{
    const InputBuffer in = InputBuffer::read(path.toStdString(), {});
    return NtffReader::read(in.view(), path.toStdString());
}

NtffProfile readJson(const QString &path)
{
    InputBuffer in = InputBuffer::read(path.toStdString(), {});
    return NeuronProfileJsonReader::read(in, path.toStdString());
}

// Slice names -> count over every track of `t`.
std::map<std::string, size_t> sliceNames(const Trace &t)
{
    std::map<std::string, size_t> n;
    for (const Slice &s : t.allSlices())
        ++n[std::string(t.str(s.name))];
    return n;
}

const char *kUuid = "5ee240ec1e134d12b7b0ccdf8eff1e5e";

// One instruction row with every key neuron-profile writes (as in the corpus exports).
QJsonObject row(const char *engine, const char *label, int pc, const char *opcode, qint64 ts, qint64 dur)
{
    return QJsonObject{{QStringLiteral("crc_in"), 65535}, {QStringLiteral("hlo_attrs"), QString()},
                       {QStringLiteral("activation_fn"), QString()}, {QStringLiteral("bir_id"), QString()},
                       {QStringLiteral("evt_wait_time"), 0}, {QStringLiteral("duration"), dur},
                       {QStringLiteral("penguin_id"), QString()}, {QStringLiteral("fully_qualified_subgraph"), QStringLiteral("/sg00")},
                       {QStringLiteral("pc"), pc}, {QStringLiteral("layer"), QString()},
                       {QStringLiteral("instruction_type"), QString()}, {QStringLiteral("crc_out"), 65535},
                       {QStringLiteral("hlo_name"), QString()}, {QStringLiteral("bir_instruction_name"), QString()},
                       {QStringLiteral("timestamp"), ts}, {QStringLiteral("raw_bir_id"), 0},
                       {QStringLiteral("id"), QStringLiteral("7074752707989819081").toLongLong()},
                       {QStringLiteral("raw_penguin_id"), 0}, {QStringLiteral("subgroup"), QString::fromLatin1(engine)},
                       {QStringLiteral("operands"), QStringLiteral(" ")}, {QStringLiteral("label"), QString::fromLatin1(label)},
                       {QStringLiteral("opcode"), QString::fromLatin1(opcode)}};
}

// A program on Tensor (NOTIFY start, MATMUL, 0x41, 0x41) and Vector (NOTIFY start, 0x41), its NTFF
// and the neuron-profile export of it, which names 0x41 TENSOR_TENSOR (times in ns from the origin).
void writePair(const QString &dir, const QString &stem, const std::string &ntffUuid, const QString &jsonUuid,
               int vectorPc = 1)
{
    NtffProfile layout;
    layout.uuid = ntffUuid;
    layout.subgraphName = "sg00";
    layout.programs.push_back(NtffWriter::makeProgram(NtffEngine::Tensor, {0xa6, 0x02, 0x41, 0x41}, {2, 0, 0, 0}));
    layout.programs.push_back(NtffWriter::makeProgram(NtffEngine::Vector, {0xa6, 0x41}, {2, 0}));
    NtffWriter w(layout);
    w.addInstruction(NtffEngine::Tensor, 0, 0, 1'000'000);
    w.addInstruction(NtffEngine::Tensor, 1, 1'000'000, 1'005'000);
    w.addInstruction(NtffEngine::Tensor, 2, 1'006'000, 1'008'000);
    w.addInstruction(NtffEngine::Tensor, 3, 1'009'000, 1'010'000);
    w.addInstruction(NtffEngine::Vector, 0, 0, 1'000'000);
    w.addInstruction(NtffEngine::Vector, 1, 1'002'000, 1'004'000);
    w.save((dir + QLatin1Char('/') + stem + QStringLiteral(".ntff")).toStdString());

    const QJsonArray instructions{row("Tensor", "TensorMatrix", 1, "MATMUL", 0, 5),
                                  row("Tensor", "Tensor", 2, "TENSOR_TENSOR", 6, 2),
                                  row("Tensor", "Tensor", 3, "TENSOR_TENSOR", 9, 1),
                                  row("Vector", "Vector", vectorPc, "TENSOR_TENSOR", 2, 2)};
    const QJsonObject doc{
        {QStringLiteral("instruction"), instructions},
        {QStringLiteral("neff_header"), QJsonArray{QJsonObject{{QStringLiteral("uuid"), jsonUuid},
                                                               {QStringLiteral("network_name"), QStringLiteral("/tmp/x/graph.neff")}}}},
        {QStringLiteral("profile_info"), QJsonArray{QJsonObject{{QStringLiteral("profile_name"), QStringLiteral("/tmp/x/graph.neff")},
                                                                {QStringLiteral("ntff_filename"), QStringLiteral("/home/ubuntu/") + stem + QStringLiteral(".ntff")}}}},
        {QStringLiteral("metadata"), QJsonArray{QJsonObject{{QStringLiteral("ntff_version"), 5}, {QStringLiteral("ticks_per_nanosec"), 1000}}}}};
    QFile f(dir + QLatin1Char('/') + stem + QStringLiteral(".json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(doc).toJson(QJsonDocument::Compact));
}

} // namespace

class TestOpcodeNameTable : public QObject
{
    Q_OBJECT

private slots:
    void corpusPairs_data();
    void corpusPairs();
    void corpusNamesAnUnknownByte();
    void handBuiltFolder();
    void anotherProgram();
    void anotherStream();
};

void TestOpcodeNameTable::corpusPairs_data()
{
    QTest::addColumn<QString>("stem");
    for (const char *s : {"profile_128x128x1024", "profile_128x128x256", "profile_128x128x384", "profile_128x128x512",
                          "profile_128x128x640", "profile_128x128x768", "profile_128x128x896",
                          "profile_bucketed_128x128x1024", "profile_bucketed_128x128x128",
                          "profile_bucketed_128x128x256", "profile_bucketed_128x128x512"})
        QTest::newRow(s) << QString::fromLatin1(s);
}

// Real pairs: the JSON is the same program (uuid, pcs), names every opcode the NTFF executes, and for
// every byte both know the names agree; real data names no byte the built-in table lacks.
void TestOpcodeNameTable::corpusPairs()
{
    QFETCH(QString, stem);
    const QString rel = QStringLiteral("neuron-profile-json/") + stem;
    if (const QString missing = test::corpusMissing(rel + QStringLiteral(".json")); !missing.isEmpty())
        LANESCOPE_SKIP_OR_FAIL(missing);
    const NtffProfile ntff = readNtff(test::corpusFile(rel + QStringLiteral(".ntff")));
    const NtffProfile json = readJson(test::corpusFile(rel + QStringLiteral(".json")));
    QCOMPARE(ntff.uuid, json.uuid);
    std::string why;
    const OpcodeNameTable t = OpcodeNameTable::learn(ntff, json, stem.toStdString() + ".ntff", &why);
    QVERIFY2(!t.empty(), why.c_str());
    QCOMPARE(t.rowsCompared(), json.instructions.size());
    QCOMPARE(t.rowsDisagreeing(), size_t(0));
    QCOMPARE(t.rowsAgreeing(), json.instructions.size());
    QCOMPARE(t.conflicts(), size_t(0));
    QVERIFY(t.newNames().empty());
    // The distinct names of the JSON's rows, read independently of the reader.
    QFile f(test::corpusFile(rel + QStringLiteral(".json")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    std::set<std::string> names;
    for (const auto &v : QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("instruction")).toArray())
        names.insert(v.toObject().value(QStringLiteral("opcode")).toString().toStdString());
    QCOMPARE(t.namedCount(), names.size());
    for (size_t b = 0; b < 256; ++b)
        if (!t.name(uint8_t(b)).empty()) {
            QVERIFY(names.count(std::string(t.name(uint8_t(b)))));
            QCOMPARE(t.name(uint8_t(b)), ntffOpcodeName(uint8_t(b)));
        }
    if (stem == QLatin1String("profile_128x128x1024")) {
        QCOMPARE(t.rowsCompared(), size_t(129));
        QCOMPARE(t.namedCount(), size_t(15));
    }
    // Nothing unknown: applying renames nothing.
    NtffProfile copy = ntff;
    QCOMPARE(t.apply(copy), size_t(0));
}

// The real JSON names a byte the built-in table does not know: DRAIN (0xa2) is moved to the unused
// byte 0x41 in the real NTFF's programs and rows (as a NTFF from a newer compiler would carry an opcode
// this build has not seen); the JSON, unchanged, names it, and the trace shows DRAIN, not "op 0x41".
void TestOpcodeNameTable::corpusNamesAnUnknownByte()
{
    const QString rel = QStringLiteral("neuron-profile-json/profile_128x128x1024");
    if (const QString missing = test::corpusMissing(rel + QStringLiteral(".ntff")); !missing.isEmpty())
        LANESCOPE_SKIP_OR_FAIL(missing);
    NtffProfile ntff = readNtff(test::corpusFile(rel + QStringLiteral(".ntff")));
    const NtffProfile json = readJson(test::corpusFile(rel + QStringLiteral(".json")));
    QVERIFY(!ntffOpcodeKnown(0x41));
    for (NtffProgram &p : ntff.programs)
        for (uint8_t &b : p.opcodes)
            if (b == 0xa2)
                b = 0x41;
    size_t drains = 0;
    for (NtffInstructionRow &r : ntff.instructions)
        if (r.opcode == 0xa2) {
            r.opcode = 0x41;
            ++drains;
        }
    QCOMPARE(drains, size_t(39)); // the JSON's DRAIN rows
    QCOMPARE(sliceNames(NtffImporter::build(ntff, "before.ntff"))["op 0x41"], drains);

    std::string why;
    const OpcodeNameTable t = OpcodeNameTable::learn(ntff, json, "profile_128x128x1024.ntff", &why);
    QVERIFY2(!t.empty(), why.c_str());
    QCOMPARE(t.newNames(), std::vector<uint8_t>{0x41});
    QCOMPARE(t.name(0x41), std::string_view("DRAIN"));
    QCOMPARE(t.rowsAgreeing() + drains, json.instructions.size()); // the 0x41 rows: no built-in name to compare
    QCOMPARE(t.apply(ntff), drains);
    QCOMPARE(t.apply(ntff), size_t(0)); // already named
    const auto names = sliceNames(NtffImporter::build(ntff, "after.ntff"));
    QCOMPARE(names.count("op 0x41"), size_t(0));
    QCOMPARE(names.at("DRAIN"), drains);
    for (const NtffInstructionRow &r : ntff.instructions)
        if (r.opcode == 0x41)
            QCOMPARE(ntff.opcodeName(r), std::string_view("DRAIN"));
}

// Through the real importers: the NTFF alone (single file), its rows (`rows`), and the folder.
void TestOpcodeNameTable::handBuiltFolder()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    writePair(dir.path(), QStringLiteral("profile_a"), kUuid, QString::fromLatin1(kUuid));
    const std::string ntffPath = (dir.path() + QStringLiteral("/profile_a.ntff")).toStdString();
    QCOMPARE(NtffOpcodeNaming::neighbours(ntffPath).size(), size_t(1));

    // Single file: lanes.
    const InputBuffer in = InputBuffer::read(ntffPath, {});
    const Trace t = NtffImporter::import(in, ntffPath, {});
    auto names = sliceNames(t);
    QCOMPARE(names["TENSOR_TENSOR"], size_t(3));
    QCOMPARE(names.count("op 0x41"), size_t(0));
    QCOMPARE(names["MATMUL"], size_t(1));
    bool noted = false;
    for (const auto &d : t.diagnostics().warnings())
        noted |= d.message.find("opcode names from profile_a.json") != std::string::npos &&
                 d.message.find("0x41 TENSOR_TENSOR") != std::string::npos && d.count == 3 && d.isNote();
    QVERIFY(noted);

    // `rows`: the NTFF's row reader, as lanescope-cli rows calls it.
    InputBuffer rowsIn = InputBuffer::read(ntffPath, {});
    const NtffProfile rows = Formats::info(FileFormat::Ntff).readRows(rowsIn, ntffPath, {});
    size_t named = 0;
    for (const NtffInstructionRow &r : rows.instructions)
        if (r.opcode == 0x41) {
            QCOMPARE(rows.opcodeName(r), std::string_view("TENSOR_TENSOR"));
            ++named;
        }
    QCOMPARE(named, size_t(3));

    // The folder: the JSON is taken as the NTFF's export (same uuid) and not loaded twice; the NTFF's
    // lanes use its names.
    const LoadResult folder = TraceLoader::load(dir.path().toStdString());
    QVERIFY2(folder.ok(), folder.error.c_str());
    names = sliceNames(*folder.trace);
    QCOMPARE(names.count("op 0x41"), size_t(0));
    QCOMPARE(names["TENSOR_TENSOR"], size_t(3));
}

// Same layout, another NEFF uuid in the JSON: nothing learned, a note says why.
void TestOpcodeNameTable::anotherProgram()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    writePair(dir.path(), QStringLiteral("p"), kUuid, QStringLiteral("0123456789abcdef0123456789abcdef"));
    const std::string ntffPath = (dir.path() + QStringLiteral("/p.ntff")).toStdString();
    const Trace t = NtffImporter::import(InputBuffer::read(ntffPath, {}), ntffPath, {});
    QCOMPARE(sliceNames(t)["op 0x41"], size_t(3));
    bool noted = false;
    for (const auto &d : t.diagnostics().warnings())
        noted |= d.message.find("opcode names: p.json is not the same program (another program: NEFF uuid "
                                "0123456789abcdef") == 0 && d.isNote();
    QVERIFY(noted);

    // Without uuids the JSON's profile_info.ntff_filename decides.
    const NtffProfile json = readJson(dir.path() + QStringLiteral("/p.json"));
    NtffProfile ntff = readNtff(dir.path() + QStringLiteral("/p.ntff"));
    ntff.uuid.clear();
    QVERIFY(!OpcodeNameTable::learn(ntff, json, "p.ntff").empty());
    std::string why;
    QVERIFY(OpcodeNameTable::learn(ntff, json, "q.ntff", &why).empty());
    QVERIFY(why.find("ntff_filename does not name q.ntff") != std::string::npos);
}

// Same uuid, but a row's pc is not in the NTFF's program: not the same instruction stream.
void TestOpcodeNameTable::anotherStream()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    writePair(dir.path(), QStringLiteral("s"), kUuid, QString::fromLatin1(kUuid), 7);
    const NtffProfile json = readJson(dir.path() + QStringLiteral("/s.json"));
    const NtffProfile ntff = readNtff(dir.path() + QStringLiteral("/s.ntff"));
    std::string why;
    QVERIFY(OpcodeNameTable::learn(ntff, json, "s.ntff", &why).empty());
    QCOMPARE(why, std::string("not the same instruction stream: 1 of 4 rows have a pc outside the NTFF's programs"));
}

QTEST_GUILESS_MAIN(TestOpcodeNameTable)
#include "tst_opcodenametable.moc"
