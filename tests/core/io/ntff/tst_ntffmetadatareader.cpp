// NtffMetadataReader (core/io/ntff/ntffmetadatareader.h): the protobuf metadata of an NTFF, on files
// written by NtffWriter, and the error for a message without a subgraph.
#include "io/ntff/ntffmetadatareader.h"
#include "io/protobuf/protobufreader.h"
#include "io/synthetic/ntffwriter.h"

#include <QtTest>

using namespace lanescope;

namespace {

// The text fields of the metadata and the values written into them.
const std::vector<std::pair<std::string NtffProfile::*, std::string>> kTextFields = {
    {&NtffProfile::uuid, "00112233445566778899aabbccddeeff"},
    {&NtffProfile::neffName, "/tmp/x/graph.neff"},
    {&NtffProfile::runtimeVersion, "2.29.40 (f954c)"},
    {&NtffProfile::driverVersion, "2.25.0 ()"},
    {&NtffProfile::instanceType, "trn1.2xlarge"},
    {&NtffProfile::subgraphName, "sg00"},
};

NtffProfile layout()
{
    NtffProfile l;
    for (const auto &[field, value] : kTextFields)
        l.*field = value;
    l.totalTimePs = 9000000;
    NtffProgram tensor = NtffWriter::makeProgram(NtffEngine::Tensor, {0xa6, 0x01, 0x02, 0xa6}, {2, 0, 0, 3});
    tensor.runtimeBlocks = {{0, 1, 0}, {2, 2, 2}};
    // out of engine order on purpose: the reader sorts the programs by engine
    l.programs.push_back(NtffWriter::makeProgram(NtffEngine::Sync, {0xa6, 0xa0, 0xa6}, {2, 0, 3}));
    l.programs.push_back(tensor);
    l.dmaQueues.push_back({0, 1, 2, "qSPSpillReload0", {}});
    l.dmaQueues.push_back({3, 4, 0, "qSPIO0", {}});
    return l;
}

NtffProfile readMetadata(const std::string &ntff)
{
    uint32_t size = 0;
    for (int i = 3; i >= 0; --i)
        size = (size << 8) | uint8_t(ntff[1 + size_t(i)]);
    const ProtobufReader top(std::string_view(ntff).substr(kNtffMetadataOffset, size), "x.ntff", kNtffMetadataOffset);
    NtffProfile p;
    NtffMetadataReader::read(top, p);
    return p;
}

} // namespace

class TstNtffMetadataReader : public QObject
{
    Q_OBJECT
private slots:
    void readsWhatTheWriterWrote()
    {
        const NtffProfile l = layout();
        NtffWriter w(l);
        w.addInstruction(NtffEngine::Tensor, 0, 1000, 2000);
        const NtffProfile p = readMetadata(w.bytes());
        for (const auto &[field, value] : kTextFields)
            QCOMPARE(p.*field, value);
        QCOMPARE(p.totalTimePs, l.totalTimePs);
        QCOMPARE(p.programs.size(), size_t(2));
        QCOMPARE(p.programs[0].engine, NtffEngine::Tensor);
        QCOMPARE(p.programs[1].engine, NtffEngine::Sync);
        QCOMPARE(p.programs[0].opcodes, (std::vector<uint8_t>{0xa6, 0x01, 0x02, 0xa6}));
        QCOMPARE(p.programs[0].notifyHints, (std::vector<uint8_t>{2, 0, 0, 3}));
        QCOMPARE(p.programs[0].runtimeBlocks.size(), size_t(2));
        QCOMPARE(p.programs[0].runtimeBlocks[1].pc, uint32_t(2));
        QCOMPARE(p.programs[0].runtimeBlocks[1].count, uint64_t(2));
        QCOMPARE(p.dmaQueues.size(), size_t(2));
        QCOMPARE(p.dmaQueues[0].engine, uint32_t(0));
        QCOMPARE(p.dmaQueues[0].queue, uint32_t(1));
        QCOMPARE(p.dmaQueues[0].type, uint32_t(2));
        QCOMPARE(p.dmaQueues[0].name, std::string("qSPSpillReload0"));
        QCOMPARE(p.dmaQueues[0].displayName, ntffQueueDisplayName("qSPSpillReload0"));
        QCOMPARE(p.dmaQueues[1].engine, uint32_t(3));
        QCOMPARE(p.dmaQueues[1].queue, uint32_t(4));
        QCOMPARE(p.clocks.size(), NtffWriter::defaultClocks().size());
        QVERIFY(!p.sections.empty());
        uint64_t declared = 0;
        for (const NtffSection &s : p.sections) {
            QVERIFY(s.descriptorOffset > kNtffMetadataOffset);
            declared += s.size;
        }
        QCOMPARE(declared, w.recordCount() * kNtffRecordBytes);
        QVERIFY(p.diagnostics.empty());
    }

    void noSubgraphIsAnError()
    {
        const ProtobufReader empty(std::string_view(), "x.ntff", kNtffMetadataOffset);
        NtffProfile p;
        try {
            NtffMetadataReader::read(empty, p);
            QFAIL("expected an ImportError");
        } catch (const ImportError &e) {
            QCOMPARE(e.file(), std::string("x.ntff"));
            QCOMPARE(e.offset(), uint64_t(kNtffMetadataOffset));
            QCOMPARE(e.problem(), std::string("metadata has no subgraph (field 4.4.1); expected one NeuronCore subgraph per physical core"));
        }
    }
};

QTEST_GUILESS_MAIN(TstNtffMetadataReader)
#include "tst_ntffmetadatareader.moc"
