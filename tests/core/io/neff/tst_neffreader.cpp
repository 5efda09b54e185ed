// NeffReader against every real NEFF of the corpus (read in place, never copied) and against hostile
// inputs built in memory from a real file.
//
// Expected values for the real files were read independently with Python (struct + tarfile + zlib +
// json + hashlib from the standard library, not with Lanescope code), e.g.
//     b = open(p,'rb').read(); struct.unpack_from('<5Q', b, 0); b[204:220].hex()
//     t = tarfile.open(fileobj=io.BytesIO(zlib.decompressobj(31).decompress(b[1024:])))
//     json.load(t.extractfile('info.json'))['tool_version'], json.load(t.extractfile('kelf-0.json'))['target']
//     len(t.getmembers()); d = json.load(t.extractfile('sg00/def.json')); len(d['var']), d['dma_queue']
// The MD5 layout (four 32-bit words, bytes of each word reversed) was found the same way:
//     struct.pack('<4I', *struct.unpack('>4I', hashlib.md5(b[1024:]).digest())) == b[172:188]   (8/8 files)
#include "corpus.h"
#include "io/neff/neffreader.h"
#include "util/textutil.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <atomic>
#include <cstring>

using namespace lanescope;
using lanescope::test::corpusFile;

#include "compress.h"
#include "filebytes.h"
using lanescope::test::gzipOf;

namespace {

uint64_t le64(const std::string &b, size_t o)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | uint8_t(b[o + size_t(i)]);
    return v;
}

void putLe64(std::string &b, size_t o, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        b[o + size_t(i)] = char((v >> (8 * i)) & 0xff);
}

// A POSIX ustar header; `declaredSize` may differ from the data that follows (hostile cases).
std::string tarHeader(const std::string &name, uint64_t declaredSize, char type = '0')
{
    std::string h(512, '\0');
    std::memcpy(h.data(), name.data(), std::min<size_t>(name.size(), 100));
    std::snprintf(h.data() + 100, 8, "%07o", 0644);
    std::snprintf(h.data() + 108, 8, "%07o", 0);
    std::snprintf(h.data() + 116, 8, "%07o", 0);
    std::snprintf(h.data() + 124, 12, "%011llo", static_cast<unsigned long long>(declaredSize));
    std::snprintf(h.data() + 136, 12, "%011o", 0);
    h[156] = type;
    std::memcpy(h.data() + 257, "ustar", 6);
    std::memcpy(h.data() + 263, "00", 2);
    std::memset(h.data() + 148, ' ', 8);
    unsigned sum = 0;
    for (char c : h)
        sum += uint8_t(c);
    std::snprintf(h.data() + 148, 8, "%06o", sum);
    h[155] = ' ';
    return h;
}

using Members = std::vector<std::pair<std::string, std::string>>;

std::string tarOf(const Members &members)
{
    std::string t;
    for (const auto &[name, data] : members) {
        t += tarHeader(name, data.size());
        t += data;
        t.append((512 - data.size() % 512) % 512, '\0');
    }
    t.append(1024, '\0');
    return t;
}

// A NEFF around `payload`, with the header of `real` and data_size / MD5 (corpus layout) fixed up.
std::string neffAround(const std::string &real, const std::string &payload, uint64_t pkgVersion = 2)
{
    std::string out = real.substr(0, 1024) + payload;
    putLe64(out, 0, pkgVersion);
    putLe64(out, 16, payload.size());
    const QByteArray md5 =
        QCryptographicHash::hash(QByteArrayView(payload.data(), qsizetype(payload.size())), QCryptographicHash::Md5);
    for (int i = 0; i < 16; ++i)
        out[size_t(172 + (i & ~3) + 3 - (i & 3))] = md5[i];
    return out;
}

// The error text, or empty when the bytes were read without an exception.
std::string errorOf(const std::string &bytes, const std::string &name, uint64_t *offset = nullptr)
{
    try {
        NeffReader::readBytes(bytes, name);
    } catch (const ImportError &e) {
        if (offset)
            *offset = e.hasOffset() ? e.offset() : UINT64_MAX;
        return e.what();
    }
    return {};
}

bool hasWarning(const NeffInfo &n, const char *fragment)
{
    for (const Warning &w : n.diagnostics.warnings())
        if (w.message.find(fragment) != std::string::npos)
            return true;
    return false;
}

QString warningsText(const NeffInfo &n)
{
    QStringList l;
    for (const Warning &w : n.diagnostics.warnings())
        l << QString::fromStdString(Diagnostics::format(w));
    return l.join(QStringLiteral("; "));
}

const char *const kMatmulSmall = "neuron-nkipy/matmul_small.neff";

} // namespace

class TestNeffReader : public QObject
{
    Q_OBJECT
private slots:
    void corpusFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qulonglong>("fileSize");
        QTest::addColumn<qulonglong>("major");
        QTest::addColumn<QString>("uuid");
        QTest::addColumn<QString>("network");
        QTest::addColumn<QString>("compiler");
        QTest::addColumn<QString>("target");
        QTest::addColumn<qulonglong>("features");
        QTest::addColumn<uint>("lnc");
        QTest::addColumn<int>("members");
        QTest::addColumn<QStringList>("subgraphs");
        QTest::addColumn<int>("variables"); // per subgraph (the subgraphs of one file are alike)
        QTest::addColumn<QStringList>("queues");
        // Values from the Python one-liners in the file comment.
        const QString v223 = QStringLiteral("2.23.6484.0+3b612583"), v218 = QStringLiteral("2.18.121.0+9e31e41a");
        const QString cayman = QStringLiteral("cayman"), sunda = QStringLiteral("sunda");
        const QString fileNeff = QStringLiteral("file.neff");
        const QStringList two = {QStringLiteral("sg00"), QStringLiteral("sg01")}, one = {QStringLiteral("sg00")};
        const QStringList nkiSmallQ = {QStringLiteral("qPoolDynamic"), QStringLiteral("qSPDynamicHW")};
        const QStringList nkiLargeQ = {QStringLiteral("qActDynamicHW"), QStringLiteral("qPoolDynamic"),
                                       QStringLiteral("qSPDynamicHW")};
        const QStringList poolQ = {QStringLiteral("qPoolIO0"), QStringLiteral("qSPIO0"),
                                   QStringLiteral("qSPSpillReload0")};
        const QStringList streamQ = {QStringLiteral("qPoolIO0"), QStringLiteral("qSPIO0")};
        QTest::newRow("matmul_small") << QStringLiteral("neuron-nkipy/matmul_small.neff") << 62464ull << 2ull
                                      << QStringLiteral("00a04c535fd94f07bffdd5eacdefc852") << fileNeff << v223
                                      << cayman << 0x209c00ull << 2u << 72 << two << 6 << nkiSmallQ;
        QTest::newRow("matmul_large") << QStringLiteral("neuron-nkipy/matmul_large.neff") << 1516544ull << 2ull
                                      << QStringLiteral("25e09fd2caca464a9ec358c85854fd38") << fileNeff << v223
                                      << cayman << 0x201c00ull << 2u << 72 << two << 22 << nkiLargeQ;
        QTest::newRow("pool_1_f16") << QStringLiteral("neuron-cs149-asst4/part2_file_pool_1_float16.neff") << 205824ull
                                    << 1ull << QStringLiteral("8906496653cf4179957ef64f5bdba775")
                                    << QStringLiteral("file_pool_1_float16.neff") << v218 << sunda << 0ull << 1u << 36
                                    << one << 6 << poolQ;
        QTest::newRow("pool_1_f32") << QStringLiteral("neuron-cs149-asst4/part2_file_pool_1_float32.neff") << 390144ull
                                    << 1ull << QStringLiteral("b8cbba93b2d34a73b43c38f08cef21b6")
                                    << QStringLiteral("file_pool_1_float32.neff") << v218 << sunda << 0ull << 1u << 36
                                    << one << 6 << poolQ;
        QTest::newRow("pool_2_f16") << QStringLiteral("neuron-cs149-asst4/part2_file_pool_2_float16.neff") << 216064ull
                                    << 1ull << QStringLiteral("c7ef4ac829ed43e098957137ae730f64")
                                    << QStringLiteral("file_pool_2_float16.neff") << v218 << sunda << 0ull << 1u << 36
                                    << one << 6 << poolQ;
        QTest::newRow("pool_2_f32") << QStringLiteral("neuron-cs149-asst4/part2_file_pool_2_float32.neff") << 400384ull
                                    << 1ull << QStringLiteral("f4322c53d22645c08a7f91ff7db2194b")
                                    << QStringLiteral("file_pool_2_float32.neff") << v218 << sunda << 0ull << 1u << 36
                                    << one << 6 << poolQ;
        QTest::newRow("stream_fd1k") << QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.neff") << 11264ull << 1ull
                                     << QStringLiteral("3e35b3d8249d4b1599fa3691933d7c87") << fileNeff << v218 << sunda
                                     << 0ull << 1u << 32 << one << 4 << streamQ;
        QTest::newRow("stream_fd2k") << QStringLiteral("neuron-cs149-asst4/stream_256k_fd2k.neff") << 11264ull << 1ull
                                     << QStringLiteral("e439e3e7e87a4b70a21c31447e227973") << fileNeff << v218 << sunda
                                     << 0ull << 1u << 32 << one << 4 << streamQ;
    }

    void corpusFiles()
    {
        QFETCH(QString, file);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        QFETCH(qulonglong, fileSize);
        QFETCH(qulonglong, major);
        QFETCH(QString, uuid);
        QFETCH(QString, network);
        QFETCH(QString, compiler);
        QFETCH(QString, target);
        QFETCH(qulonglong, features);
        QFETCH(uint, lnc);
        QFETCH(int, members);
        QFETCH(QStringList, subgraphs);
        QFETCH(int, variables);
        QFETCH(QStringList, queues);

        const NeffInfo n = NeffReader::read(corpusFile(file).toStdString());
        const NeffHeader &h = n.header;
        QCOMPARE(n.fileSize, fileSize);
        QCOMPARE(h.pkgVersion, 2ull);
        QCOMPARE(h.headerSize, 1024ull);
        QCOMPARE(h.dataSize + 1024, fileSize); // every corpus file: payload padded to the end of the file
        QCOMPARE(h.versionMajor, major);
        QCOMPARE(h.versionMinor, 0ull);
        QCOMPARE(h.buildVersion, std::string());
        QCOMPARE(h.tpbCount, 1u);
        QCOMPARE(h.requestedCoreCount, 1u);
        QCOMPARE(h.coresPerNode[0], uint8_t(1)); // = info.json num_tpb_per_node [1, 0, ...]
        QCOMPARE(h.featureBits, features);
        QCOMPARE(h.lncSize, lnc);
        QCOMPARE(QString::fromStdString(h.uuidHex()), uuid);
        QCOMPARE(QString::fromStdString(h.uuidDashed()).remove(QLatin1Char('-')), uuid);
        QCOMPARE(h.uuidDashed().size(), size_t(36));
        QCOMPARE(QString::fromStdString(h.networkName), network);
        QCOMPARE(n.md5, NeffMd5Check::Ok);
        QCOMPARE(n.md5Layout, NeffMd5Layout::WordSwapped);
        QCOMPARE(n.compression, NeffPayloadCompression::Gzip);
        QVERIFY(n.complete);
        QCOMPARE(QString::fromStdString(n.compilerVersion), compiler);
        QCOMPARE(QString::fromStdString(n.target), target);
        QCOMPARE(int(n.members.size()), members);
        QVERIFY(!n.hasKernelDebugInfo); // no corpus file has kernel_debug_info.json
        QVERIFY2(n.diagnostics.empty(), qPrintable(warningsText(n)));

        QCOMPARE(int(n.subgraphs.size()), subgraphs.size());
        for (int i = 0; i < subgraphs.size(); ++i) {
            const NeffSubgraph &sg = n.subgraphs[size_t(i)];
            QCOMPARE(QString::fromStdString(sg.name), subgraphs[i]);
            QVERIFY(sg.hasDefinition);
            QCOMPARE(int(sg.variables.size()), variables);
            QStringList qnames;
            for (const NeffDmaQueue &q : sg.dmaQueues) {
                qnames << QString::fromStdString(q.name);
                QCOMPARE(q.semaphores.size(), size_t(16));
                QCOMPARE(q.numQueues, 16);
            }
            QCOMPARE(qnames, queues);
            // Each of the five engines has its descriptor JSON and its instruction stream, with the tar size.
            for (NeffEngine e :
                 {NeffEngine::Tensor, NeffEngine::Scalar, NeffEngine::GpSimd, NeffEngine::Vector, NeffEngine::Sync}) {
                int json = 0, bin = 0;
                for (const NeffEngineFile &f : sg.engineFiles) {
                    if (f.engine != e)
                        continue;
                    const NeffMember *m = n.member(f.name);
                    QVERIFY2(m, f.name.c_str());
                    QCOMPARE(f.size, m->size);
                    json += f.role == NeffEngineFileRole::Descriptors;
                    bin += f.role == NeffEngineFileRole::Instructions;
                }
                QVERIFY2(json == 1 && bin == 1, neffEngineName(e).data());
            }
        }
    }

    // Named variables, sizes, shapes and DMA facts per file (Python: def.json var / tensor_map.json /
    // <engine>.json dma, as in the file comment).
    void corpusDetails()
    {
        for (const char *f : {kMatmulSmall, "neuron-nkipy/matmul_large.neff", "neuron-cs149-asst4/stream_256k_fd1k.neff",
                              "neuron-cs149-asst4/part2_file_pool_1_float16.neff"})
            LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(f));
        {
            const NeffInfo n = NeffReader::read(corpusFile(QString::fromLatin1(kMatmulSmall)).toStdString());
            for (const NeffSubgraph &sg : n.subgraphs) {
                const NeffVariable *x = sg.variable("x");
                QVERIFY(x);
                QCOMPARE(x->kind, NeffVariableKind::Input);
                QCOMPARE(x->size, 65536ull);
                QCOMPARE(x->dtype, std::string("float16"));
                QCOMPARE(x->shape, (std::vector<int64_t>{128, 256}));
                const NeffVariable *out = sg.variable("output0");
                QVERIFY(out);
                QCOMPARE(out->kind, NeffVariableKind::Output);
                QCOMPARE(out->size, 32768ull);
                // A constant: def.json type "file", shape found through tensor_map tf_file == file_name.
                const NeffVariable *w = sg.variable("identity_82_sg0000");
                QVERIFY(w);
                QCOMPARE(w->kind, NeffVariableKind::Weight);
                QCOMPARE(w->fileName, std::string("value_sg0000_identity_82_CRSM.npy"));
                QCOMPARE(w->shape, (std::vector<int64_t>{128, 128, 1, 1}));
                const NeffVariable *sb = sg.variable("SB");
                QVERIFY(sb);
                QCOMPARE(sb->type, std::string("state-buffer"));
                QVERIFY(!sb->hasSize);
                QCOMPARE(sg.queue("qSPDynamicHW")->owner, std::string("sp"));
                QCOMPARE(sg.queue("qPoolDynamic")->type, std::string("dynamic"));
                QVERIFY(sg.dmaBlocks.empty()); // the nkipy engine JSONs have "dma": []
            }
            QCOMPARE(n.member("sg00/PE.bin")->size, 768ull);
            QCOMPARE(n.member("sg01/default_datapath_table.bin")->size, 16384ull);
        }
        {
            const NeffInfo n =
                NeffReader::read(corpusFile(QStringLiteral("neuron-nkipy/matmul_large.neff")).toStdString());
            const NeffSubgraph &sg = n.subgraphs.at(1);
            QCOMPARE(sg.variable("y")->size, 4294967296ull); // 4 GiB: sizes are 64-bit
            QCOMPARE(sg.variable("y")->shape, (std::vector<int64_t>{32768, 65536}));
            int virtuals = 0;
            for (const NeffVariable &v : sg.variables)
                virtuals += v.type == "virtual" && v.kind == NeffVariableKind::Other;
            QCOMPARE(virtuals, 16);
            QCOMPARE(sg.queueForSemaphore(40)->name, std::string("qActDynamicHW"));
            QCOMPARE(n.member("sg00/PE.bin")->size, 1361216ull);
        }
        {
            const NeffInfo n =
                NeffReader::read(corpusFile(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.neff")).toStdString());
            const NeffSubgraph &sg = n.subgraphs.at(0);
            QCOMPARE(sg.variable("a_vec")->size, 1024000ull);
            QCOMPARE(sg.variable("out")->kind, NeffVariableKind::Output);
            // def.json semaphore_set [8..23] -> qSPIO0, [24..39] -> qPoolIO0 (ntff.md section 7).
            QCOMPARE(sg.queueForSemaphore(8)->name, std::string("qSPIO0"));
            QCOMPARE(sg.queueForSemaphore(39)->name, std::string("qPoolIO0"));
            QVERIFY(!sg.queueForSemaphore(3));
            // ntff.md section 1 (from the paired NTFF): qSPIO0 moved 2,048,000 B, qPoolIO0 1,024,000 B.
            QCOMPARE(sg.queue("qSPIO0")->blockCount, 4ull);
            QCOMPARE(sg.queue("qSPIO0")->readBytes, 2048000ull);
            QCOMPARE(sg.queue("qPoolIO0")->blockCount, 2ull);
            QCOMPARE(sg.queue("qPoolIO0")->writeBytes, 1024000ull);
            QCOMPARE(sg.dmaBlocks.size(), size_t(6));
            const auto first = std::find_if(sg.dmaBlocks.begin(), sg.dmaBlocks.end(), [](const NeffDmaBlock &b) {
                return b.engine == NeffEngine::Sync && b.id == 0;
            });
            QVERIFY(first != sg.dmaBlocks.end());
            QCOMPARE(first->from, std::string("a_vec"));
            QCOMPARE(first->to, std::string("SB"));
            QCOMPARE(first->semaphore, 8);
            QCOMPARE(first->comment, std::string("I-4-0-block-1"));
        }
        {
            const NeffInfo n = NeffReader::read(
                corpusFile(QStringLiteral("neuron-cs149-asst4/part2_file_pool_1_float16.neff")).toStdString());
            const NeffSubgraph &sg = n.subgraphs.at(0);
            QCOMPARE(sg.variable("X")->size, 25690112ull);
            QCOMPARE(sg.variable("W")->size, 1179648ull);
            QCOMPARE(sg.variable("X_out")->size, 25233408ull);
            QCOMPARE(sg.variable("bias")->shape, (std::vector<int64_t>{256}));
            QCOMPARE(sg.queue("qPoolIO0")->blockCount, 222ull);
            // The output DMA casts float32 in SB to float16 in X_out: it writes exactly X_out's 25,233,408 bytes.
            QCOMPARE(sg.queue("qPoolIO0")->writeBytes, sg.variable("X_out")->size);
            QCOMPARE(sg.queue("qPoolIO0")->readBytes, 2 * sg.variable("X_out")->size);
            QCOMPARE(sg.queue("qSPIO0")->blockCount + sg.queue("qSPSpillReload0")->blockCount, 359ull);
            QCOMPARE(n.member("sg00/PE.bin")->size, 528256ull);
        }
    }

    // The NEFF uuid equals bytes 0..15 of the paired NTFF's protobuf field 2 (ntff.md section 2).
    void ntffPairUuid_data()
    {
        QTest::addColumn<QString>("stem");
        QTest::newRow("fd1k") << QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k");
        QTest::newRow("fd2k") << QStringLiteral("neuron-cs149-asst4/stream_256k_fd2k");
    }

    void ntffPairUuid()
    {
        QFETCH(QString, stem);
        LANESCOPE_REQUIRE_CORPUS_FILE(stem + QStringLiteral(".ntff"));
        LANESCOPE_REQUIRE_CORPUS_FILE(stem + QStringLiteral(".neff"));
        const std::string ntff = test::readFile(corpusFile(stem + QStringLiteral(".ntff")));
        QVERIFY(ntff.size() > 0x80);
        const uint32_t len = uint32_t(uint8_t(ntff[1])) | uint32_t(uint8_t(ntff[2])) << 8 |
                             uint32_t(uint8_t(ntff[3])) << 16 | uint32_t(uint8_t(ntff[4])) << 24;
        QVERIFY(0x80 + uint64_t(len) <= ntff.size());
        auto varint = [&](size_t &i) {
            uint64_t v = 0;
            for (int shift = 0; i < ntff.size() && shift < 64; shift += 7) {
                const uint8_t c = uint8_t(ntff[i++]);
                v |= uint64_t(c & 0x7f) << shift;
                if (!(c & 0x80))
                    break;
            }
            return v;
        };
        std::string field2;
        for (size_t i = 0x80; i < 0x80 + len && field2.empty();) {
            const uint64_t key = varint(i);
            if ((key & 7) == 0) {
                varint(i);
            } else if ((key & 7) == 2) {
                const uint64_t n = varint(i);
                if ((key >> 3) == 2)
                    field2 = ntff.substr(i, size_t(n));
                i += size_t(n);
            } else {
                QFAIL("unexpected wire type before field 2");
            }
        }
        QVERIFY(field2.size() >= 16);
        const NeffInfo n = NeffReader::read(corpusFile(stem + QStringLiteral(".neff")).toStdString());
        QCOMPARE(text::hex(field2.substr(0, 16)), n.header.uuidHex());
    }

    void looksLikeNeff()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(kMatmulSmall));
        const std::string b = test::readFile(corpusFile(QString::fromLatin1(kMatmulSmall)));
        QVERIFY(NeffReader::looksLikeNeff(std::string_view(b).substr(0, 64), b.size()));
        QVERIFY(
            !NeffReader::looksLikeNeff(std::string_view(b).substr(0, 64), b.size() - 1)); // data_size no longer fits
        QVERIFY(!NeffReader::looksLikeNeff(std::string_view(b).substr(0, 16), b.size()));
        QVERIFY(!NeffReader::looksLikeNeff("{\"traceEvents\":[]}                                      ", 60));
    }

    void dataSizeLies()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(kMatmulSmall));
        std::string b = test::readFile(corpusFile(QString::fromLatin1(kMatmulSmall)));
        putLe64(b, 16, le64(b, 16) + 1);
        uint64_t offset = 0;
        const std::string err = errorOf(b, "lie.neff", &offset);
        QCOMPARE(offset, 16ull);
        QVERIFY2(err.find("lie.neff") == 0 && err.find("data_size") != std::string::npos &&
                     err.find("expected data_size <= file size - 1024") != std::string::npos,
                 err.c_str());

        // The same through a file on disk.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("lie.neff"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(b.data(), qint64(b.size()));
        f.close();
        try {
            NeffReader::read(path.toStdString());
            QFAIL("expected an ImportError");
        } catch (const ImportError &e) {
            QCOMPARE(e.file(), path.toStdString());
            QCOMPARE(e.offset(), 16ull);
        }
    }

    void headerFieldsChecked()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(kMatmulSmall));
        const std::string real = test::readFile(corpusFile(QString::fromLatin1(kMatmulSmall)));
        uint64_t offset = 0;
        std::string b = real;
        putLe64(b, 8, 512);
        QVERIFY(errorOf(b, "h.neff", &offset).find("header_size is 512; expected 1024") != std::string::npos);
        QCOMPARE(offset, 8ull);
        b = real;
        putLe64(b, 24, 3);
        QVERIFY(errorOf(b, "h.neff", &offset).find("major version is 3") != std::string::npos);
        QCOMPARE(offset, 24ull);
        QVERIFY(errorOf(real.substr(0, 1000), "short.neff", &offset).find("1024-byte header") != std::string::npos);
        QCOMPARE(offset, 0ull);
    }

    void truncatedFileIsAnError()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(kMatmulSmall));
        const std::string real = test::readFile(corpusFile(QString::fromLatin1(kMatmulSmall)));
        uint64_t offset = 0;
        const std::string err = errorOf(real.substr(0, 1024 + 20000), "cut.neff", &offset);
        QCOMPARE(offset, 16ull);
        QVERIFY2(err.find("file truncated?") != std::string::npos, err.c_str());
    }

    // A payload cut inside the gzip stream, header made consistent: partial member list + warning.
    void truncatedPayloadGivesPartialInfo()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(kMatmulSmall));
        const std::string real = test::readFile(corpusFile(QString::fromLatin1(kMatmulSmall)));
        const std::string cut = neffAround(real, real.substr(1024, 20000));
        const NeffInfo n = NeffReader::readBytes(cut, "cut.neff");
        QCOMPARE(n.md5, NeffMd5Check::Ok);
        QVERIFY(!n.complete);
        QVERIFY(!n.members.empty());
        QVERIFY(n.members.size() < 72);
        QVERIFY2(hasWarning(n, "breaks off"), qPrintable(warningsText(n)));

        // Every cut point: an error or partial info, never a crash.
        for (size_t len = 1; len < 53601; len += 997) { // Python: the gzip stream is 53,601 bytes
            const std::string b = neffAround(real, real.substr(1024, len));
            try {
                const NeffInfo p = NeffReader::readBytes(b, "cut.neff");
                QVERIFY(!p.complete);
                QVERIFY(!p.diagnostics.empty());
            } catch (const ImportError &e) {
                QCOMPARE(e.offset() >= 1024, true);
            }
        }
    }

    void randomBytes()
    {
        QRandomGenerator rng(12345);
        std::string b(8192, '\0');
        for (char &c : b)
            c = char(rng.bounded(256));
        uint64_t offset = 1;
        const std::string err = errorOf(b, "random.bin", &offset);
        QCOMPARE(offset, 0ull);
        QVERIFY2(err.find("pkg_version") != std::string::npos && err.find("expected 1 or 2") != std::string::npos,
                 err.c_str());

        // A valid-looking header in front of random bytes: the payload is named as the problem.
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(kMatmulSmall));
        const std::string real = test::readFile(corpusFile(QString::fromLatin1(kMatmulSmall)));
        const std::string withHeader = neffAround(real, b);
        const std::string err2 = errorOf(withHeader, "random.neff", &offset);
        QCOMPARE(offset, 1024ull);
        QVERIFY2(err2.find("neither gzip") != std::string::npos, err2.c_str());
    }

    void flippedPayloadByte()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(kMatmulSmall));
        std::string b = test::readFile(corpusFile(QString::fromLatin1(kMatmulSmall)));
        // Python: the gzip stream ends at payload byte 53601; the rest up to data_size is zero padding.
        b[1024 + 60000] ^= 0x01;
        const NeffInfo n = NeffReader::readBytes(b, "flip.neff");
        QCOMPARE(n.md5, NeffMd5Check::Mismatch);
        QVERIFY(hasWarning(n, "MD5 does not match"));
        QVERIFY(n.complete); // the tar itself is intact
        QCOMPARE(n.members.size(), size_t(72));
        QCOMPARE(n.target, std::string("cayman"));

        // Inside the compressed stream: a warning or an error, never a crash.
        std::string c = test::readFile(corpusFile(QString::fromLatin1(kMatmulSmall)));
        c[1024 + 3000] ^= 0x55;
        try {
            const NeffInfo p = NeffReader::readBytes(c, "flip2.neff");
            QCOMPARE(p.md5, NeffMd5Check::Mismatch);
        } catch (const ImportError &e) {
            QVERIFY(e.offset() >= 1024);
        }
    }

    void unsafeMemberNames_data()
    {
        QTest::addColumn<bool>("gzip");
        QTest::newRow("gzip") << true;
        QTest::newRow("plain tar") << false;
    }

    void unsafeMemberNames()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(kMatmulSmall));
        QFETCH(bool, gzip);
        const std::string real = test::readFile(corpusFile(QString::fromLatin1(kMatmulSmall)));
        const std::string tar = tarOf({{"info.json", "{\"tool_version\":\"9.9\"}"},
                                       {"../evil", "EVIL"},
                                       {"/abs/evil", "EVIL"},
                                       {"sg00/../../evil2", "EVIL"},
                                       {"kelf-0.json", "{\"target\":\"t\",\"graphs\":[]}"}});
        const std::string b = neffAround(real, gzip ? gzipOf(tar) : tar);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("work")));
        const QString work = dir.filePath(QStringLiteral("work"));
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(work));
        NeffInfo n;
        try {
            n = NeffReader::readBytes(b, "evil.neff");
        } catch (...) {
            QDir::setCurrent(before);
            throw;
        }
        QDir::setCurrent(before);

        QCOMPARE(n.compression, gzip ? NeffPayloadCompression::Gzip : NeffPayloadCompression::Tar);
        QCOMPARE(n.members.size(), size_t(5));
        QCOMPARE(n.members[1].name, std::string("../evil"));
        QCOMPARE(n.members[2].name, std::string("/abs/evil"));
        QCOMPARE(n.members[3].name, std::string("sg00/../../evil2"));
        QVERIFY(!n.members[0].unsafeName);
        QVERIFY(n.members[1].unsafeName && n.members[2].unsafeName && n.members[3].unsafeName);
        QCOMPARE(n.members[1].size, 4ull);
        QCOMPARE(n.diagnostics.count(
                     "member name is an absolute path or contains '..' (listed only; nothing is written to disk)"),
                 3ull);
        QCOMPARE(n.compilerVersion, std::string("9.9"));
        QCOMPARE(n.target, std::string("t"));
        // Nothing was written: the work folder and its parent hold nothing new.
        QVERIFY(QDir(work).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty());
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{QStringLiteral("work")});
        QVERIFY(!QFile::exists(QStringLiteral("/abs/evil")));
    }

    // A synthetic NEFF with other engine spellings, pkg_version 1, invalid JSON and an undeclared queue.
    void syntheticPlainTar()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(kMatmulSmall));
        const std::string real = test::readFile(corpusFile(QString::fromLatin1(kMatmulSmall)));
        const std::string def =
            R"({"version":"0.6","var":{"in0":{"type":"input","size":12},"kv":{"type":"state","size":8},
            "w":{"type":"file","size":4,"file_name":"value_w.npy"}},
            "dma_queue":{"qA":{"owner":"sync","semaphore_set":[3,4]}},
            "tensor":"TensorE.json","tensor_instr":"TensorE.bin","sync":"Sync.json"})";
        const std::string tar = tarOf(
            {{"./info.json", R"({"tool_version":"1.2.3"})"},
             {"kelf-0.json", R"({"target":"trn3","graphs":[{"name":"sg00","definition":"sg00/def.json"}]})"},
             {"sg00/def.json", def},
             {"sg00/TensorE.json", R"({"dma":[]})"},
             {"sg00/TensorE.bin", std::string(128, 'x')},
             {"sg00/Sync.json",
              R"({"dma":[{"id":0,"queue":"qA","semaphore":3,"desc":[{"from":"in0","to":"SB","from_sizes":[3,4],"to_sizes":[12]}]},
                                                           {"id":1,"queue":"qZ","desc":[]}]})"},
             {"sg00/VECTOR.json", "{not json"},
             {"sg00/tensor_map.json", R"({"value_w":{"dtype":"int8","tf_shape":[2,2],"tf_file":"value_w.npy"}})"},
             {"sg01/ACT.bin", std::string(64, 'y')},
             {"kernel_debug_info.json", "{}"}});
        const NeffInfo n = NeffReader::readBytes(neffAround(real, tar, 1), "synthetic.neff");
        QCOMPARE(n.compression, NeffPayloadCompression::Tar);
        QCOMPARE(n.md5, NeffMd5Check::NotApplicable); // pkg_version 1: no MD5 in the header
        QVERIFY(n.complete);
        QCOMPARE(n.compilerVersion, std::string("1.2.3"));
        QCOMPARE(n.target, std::string("trn3"));
        QVERIFY(n.hasKernelDebugInfo);
        QCOMPARE(n.subgraphs.size(), size_t(2)); // sg01 has no def.json but has members
        const NeffSubgraph &sg = n.subgraphs[0];
        QCOMPARE(sg.variable("kv")->kind, NeffVariableKind::State);
        QCOMPARE(sg.variable("w")->kind, NeffVariableKind::Weight);
        QCOMPARE(sg.variable("w")->dtype, std::string("int8"));
        QCOMPARE(sg.queue("qA")->readBytes, 12ull);
        QCOMPARE(sg.queue("qA")->blockCount, 1ull);
        QCOMPARE(sg.dmaBlocks.size(), size_t(2));
        QVERIFY(hasWarning(n, "does not declare"));
        QVERIFY(hasWarning(n, "not valid JSON"));
        QVERIFY(hasWarning(n, "no readable def.json"));
        auto engineOf = [](const NeffSubgraph &s, const char *file) {
            for (const NeffEngineFile &f : s.engineFiles)
                if (f.name == file)
                    return f.engine;
            return NeffEngine::Unknown;
        };
        QCOMPARE(engineOf(sg, "sg00/TensorE.json"), NeffEngine::Tensor);
        QCOMPARE(engineOf(sg, "sg00/TensorE.bin"), NeffEngine::Tensor);
        QCOMPARE(engineOf(sg, "sg00/Sync.json"), NeffEngine::Sync);
        QCOMPARE(engineOf(sg, "sg00/VECTOR.json"), NeffEngine::Vector);
        QCOMPARE(engineOf(n.subgraphs[1], "sg01/ACT.bin"), NeffEngine::Scalar);
        QCOMPARE(neffEngineFromName("Activation"), NeffEngine::Scalar);
        QCOMPARE(neffEngineFromName("pool"), NeffEngine::GpSimd);
        QCOMPARE(neffEngineFromName("DVE"), NeffEngine::Vector);
        QCOMPARE(neffEngineFromName("default_opcode_table"), NeffEngine::Unknown);
    }

    // A tar header that claims a huge JSON member is never allocated: skipped with a warning.
    void hugeMemberHeader()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromLatin1(kMatmulSmall));
        const std::string real = test::readFile(corpusFile(QString::fromLatin1(kMatmulSmall)));
        const std::string tar = tarOf({{"info.json", R"({"tool_version":"1"})"}}).substr(0, 1024) +
                                tarHeader("sg00/def.json", 077777777777ull) + std::string(4096, '{');
        for (bool gzip : {false, true}) {
            const NeffInfo n = NeffReader::readBytes(neffAround(real, gzip ? gzipOf(tar) : tar), "huge.neff");
            QCOMPARE(n.members.size(), size_t(2));
            QCOMPARE(n.members[1].size, 077777777777ull);
            QVERIFY(!n.complete);
            QVERIFY2(hasWarning(n, "member header claims more bytes") || hasWarning(n, "per-member cap"),
                     qPrintable(warningsText(n)));
            QVERIFY(hasWarning(n, "breaks off"));
        }
        // Under a small budget a real member over the cap is skipped too.
        LoadOptions small;
        small.memoryBudget = 1000;
        const std::string tar2 = tarOf({{"info.json", std::string(2000, ' ') + "{}"}});
        const NeffInfo n2 = NeffReader::readBytes(neffAround(real, tar2), "cap.neff", small);
        QVERIFY2(hasWarning(n2, "per-member cap"), qPrintable(warningsText(n2)));
        QVERIFY(n2.compilerVersion.empty());
    }

    void memoryBudgetStopsTheWalk()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-nkipy/matmul_large.neff"));
        LoadOptions opt;
        opt.memoryBudget = uint64_t(1) << 20; // matmul_large's tar is 9,285,120 bytes
        const NeffInfo n =
            NeffReader::read(corpusFile(QStringLiteral("neuron-nkipy/matmul_large.neff")).toStdString(), opt);
        QVERIFY(!n.complete);
        QVERIFY(n.members.size() < 72);
        QVERIFY2(hasWarning(n, "exceeds the memory budget"), qPrintable(warningsText(n)));
        QCOMPARE(n.md5, NeffMd5Check::Ok);
    }

    void cancelAndProgress()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-nkipy/matmul_large.neff"));
        const std::string path = corpusFile(QStringLiteral("neuron-nkipy/matmul_large.neff")).toStdString();
        std::atomic<bool> cancel{true};
        LoadOptions opt;
        opt.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, NeffReader::read(path, opt));
        std::vector<int> seen;
        LoadOptions p;
        p.progress = [&](int permille) { seen.push_back(permille); };
        NeffReader::read(path, p);
        QVERIFY(!seen.empty());
        QCOMPARE(seen.back(), 1000);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    }

    void missingFile()
    {
        QVERIFY_THROWS_EXCEPTION(ImportError, NeffReader::read("/nonexistent/x.neff"));
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(ImportError, NeffReader::read(dir.path().toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestNeffReader)
#include "tst_neffreader.moc"
