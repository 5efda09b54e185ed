// NeffWriter: a NEFF written in memory reads back through NeffReader with every field intact (header,
// MD5 in both layouts, members, info/kelf, def.json variables and DMA queues, engine files, DMA blocks)
// and is byte-identical when written twice.
#include "io/neff/neffreader.h"
#include "io/synthetic/neffwriter.h"
#include "io/traceloader.h"

#include <QCryptographicHash>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace lanescope;

namespace {

NeffWriter sample()
{
    NeffWriter w;
    w.setUuid("0123456789abcdef0011223344556677");
    w.setNetworkName("rmsnorm_fused.neff");
    w.setCompilerVersion("2.21.18209.0+test");
    w.setTarget("cayman");
    w.addVariable({"SB", "state-buffer", 0, {}, {}});
    w.addVariable({"x", "input", 4194304, "bfloat16", {512, 4096}});
    w.addVariable({"out", "output", 4194304, "bfloat16", {512, 4096}});
    w.addDmaQueue({"qSPIO0", "sp", "in", 16, {8, 9, 10, 11}});
    w.addDmaQueue({"qActIO0", "act", "in", 16, {24, 25}});
    w.addDmaBlock({NeffEngine::Sync, "qSPIO0", 8, "I-0-block-1", "x", "SB", "bfloat16", {8192, 128}, {}});
    w.addDmaBlock({NeffEngine::Sync, "qSPIO0", 9, "I-1-block-1", "x", "SB", "bfloat16", {8192, 128}, {}});
    w.addDmaBlock({NeffEngine::Scalar, "qActIO0", 24, "O-0-block-1", "SB", "out", "bfloat16", {8192, 128}, {}});
    w.setInstructions(NeffEngine::Scalar, std::string(64 * 10, '\x21'));
    return w;
}

} // namespace

class TestNeffWriter : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip()
    {
        const std::string bytes = sample().bytes();
        QVERIFY(NeffReader::looksLikeNeff(bytes.substr(0, 1024), bytes.size()));
        QCOMPARE(TraceLoader::sniff(std::string_view(bytes).substr(0, 4096), bytes.size()), FileFormat::Neff);
        const NeffInfo info = NeffReader::readBytes(bytes, "test.neff");
        QVERIFY2(info.diagnostics.empty(), info.diagnostics.empty() ? "" : info.diagnostics.warnings()[0].message.c_str());
        QCOMPARE(info.header.pkgVersion, uint64_t(2));
        QCOMPARE(info.header.headerSize, uint64_t(1024));
        QCOMPARE(info.header.dataSize, uint64_t(bytes.size() - 1024));
        QCOMPARE(info.header.versionMajor, uint64_t(2));
        QCOMPARE(info.header.uuidHex(), std::string("0123456789abcdef0011223344556677"));
        QCOMPARE(info.header.networkName, std::string("rmsnorm_fused.neff"));
        QCOMPARE(info.header.tpbCount, 1u);
        QCOMPARE(info.header.lncSize, 1u);
        QCOMPARE(info.compression, NeffPayloadCompression::Gzip);
        QVERIFY(info.complete);
        QCOMPARE(info.md5, NeffMd5Check::Ok);
        QCOMPARE(info.md5Layout, NeffMd5Layout::WordSwapped);
        QCOMPARE(info.compilerVersion, std::string("2.21.18209.0+test"));
        QCOMPARE(info.target, std::string("cayman"));
        QCOMPARE(info.infoTpbCount, int64_t(1));
        for (const char *m : {"neff.json", "info.json", "kelf-0.json", "sg00/def.json", "sg00/tensor_map.json", "sg00/PE.json",
                              "sg00/Activation.bin", "sg00/Pool.json", "sg00/DVE.bin", "sg00/SP.json"})
            QVERIFY2(info.member(m), m);
        QCOMPARE(info.member("sg00/Activation.bin")->size, uint64_t(640));

        QCOMPARE(info.subgraphs.size(), size_t(1));
        const NeffSubgraph &sg = info.subgraphs[0];
        QCOMPARE(sg.name, std::string("sg00"));
        QVERIFY(sg.hasDefinition);
        QCOMPARE(sg.variables.size(), size_t(3));
        const NeffVariable *x = sg.variable("x");
        QVERIFY(x);
        QCOMPARE(x->kind, NeffVariableKind::Input);
        QCOMPARE(x->size, uint64_t(4194304));
        QCOMPARE(x->dtype, std::string("bfloat16"));
        QCOMPARE(x->shape, (std::vector<int64_t>{512, 4096}));
        QCOMPARE(sg.variable("out")->kind, NeffVariableKind::Output);
        QCOMPARE(sg.variable("SB")->hasSize, false);
        QCOMPARE(sg.dmaQueues.size(), size_t(2));
        const NeffDmaQueue *q = sg.queue("qSPIO0");
        QVERIFY(q);
        QCOMPARE(q->owner, std::string("sp"));
        QCOMPARE(q->semaphores, (std::vector<int64_t>{8, 9, 10, 11}));
        QCOMPARE(q->blockCount, uint64_t(2));
        QCOMPARE(q->readBytes, uint64_t(2 * 8192 * 128));
        QCOMPARE(sg.queueForSemaphore(25)->name, std::string("qActIO0"));
        QCOMPARE(sg.dmaBlocks.size(), size_t(3));
        const auto in = std::find_if(sg.dmaBlocks.begin(), sg.dmaBlocks.end(),
                                     [](const NeffDmaBlock &b) { return b.comment == "I-0-block-1"; });
        QVERIFY(in != sg.dmaBlocks.end());
        QCOMPARE(in->engine, NeffEngine::Sync);
        QCOMPARE(in->from, std::string("x"));
        QCOMPARE(in->to, std::string("SB"));
        QCOMPARE(in->semaphore, int64_t(8));
        int descriptors = 0, streams = 0;
        for (const NeffEngineFile &f : sg.engineFiles) {
            descriptors += f.role == NeffEngineFileRole::Descriptors;
            streams += f.role == NeffEngineFileRole::Instructions;
            QVERIFY(f.engine != NeffEngine::Unknown);
        }
        QCOMPARE(descriptors, 5);
        QCOMPARE(streams, 5);
    }

    void md5Layouts()
    {
        NeffWriter w = sample();
        w.setMd5Layout(NeffWriter::Md5Layout::Plain);
        const std::string plain = w.bytes();
        const NeffInfo a = NeffReader::readBytes(plain, "plain.neff");
        QCOMPARE(a.md5, NeffMd5Check::Ok);
        QCOMPARE(a.md5Layout, NeffMd5Layout::Plain);
        const QByteArray md5 = QCryptographicHash::hash(QByteArrayView(plain.data() + 1024, qsizetype(plain.size() - 1024)),
                                                        QCryptographicHash::Md5);
        QCOMPARE(QByteArray(plain.data() + 172, 16), md5);

        const std::string swapped = sample().bytes();
        for (int i = 0; i < 16; ++i) // each 4-byte group reversed, as the real files store it
            QCOMPARE(uint8_t(swapped[size_t(172 + (i & ~3) + 3 - (i & 3))]), uint8_t(md5[i]));

        w.setPkgVersion(1);
        const NeffInfo v1 = NeffReader::readBytes(w.bytes(), "v1.neff");
        QCOMPARE(v1.header.pkgVersion, uint64_t(1));
        QCOMPARE(v1.md5, NeffMd5Check::NotApplicable);
    }

    void deterministic()
    {
        QCOMPARE(sample().bytes(), sample().bytes());
        NeffWriter other = sample();
        other.setUuid("ffffffffffffffffffffffffffffffff");
        QVERIFY(other.bytes() != sample().bytes());
    }

    void saveAndReadFromDisk()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("neff_42.neff")).toStdString();
        sample().save(path);
        const NeffInfo info = NeffReader::read(path);
        QCOMPARE(info.header.uuidHex(), std::string("0123456789abcdef0011223344556677"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, sample().save(dir.filePath(QStringLiteral("no/such/dir/x.neff")).toStdString()));
    }

    void defaultsAreReadable()
    {
        const NeffInfo info = NeffReader::readBytes(NeffWriter().bytes(), "default.neff");
        QCOMPARE(info.md5, NeffMd5Check::Ok);
        QCOMPARE(info.subgraphs.size(), size_t(1));
        QCOMPARE(info.subgraphs[0].engineFiles.size(), size_t(10));
        QVERIFY(info.diagnostics.empty());
    }
};

QTEST_GUILESS_MAIN(TestNeffWriter)
#include "tst_neffwriter.moc"
