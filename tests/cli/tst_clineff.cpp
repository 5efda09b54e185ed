// lanescope-cli neff on every NEFF of the corpus, run as a user would (a real process): the header
// fields, the UUID, the payload digest, compiler and target, and the subgraphs with their variables and
// DMA queues, in --json and in the text report; exit status 2 with the file named for what is not a NEFF.
//
// Expected values were read from the files independently with Python's standard library (no Lanescope
// code), with p the corpus path:
//     b = open(p,'rb').read(); pkg, hs, ds, vmaj, vmin = struct.unpack_from('<5Q', b, 0)
//     struct.unpack_from('<I', b, 168) (tpb_count), b[204:220].hex() (uuid), b[220:476].split(b'\0')[0]
//     (network name), struct.unpack_from('<I', b, 476) (requested cores), '<Q' at 544 (feature bits),
//     '<I' at 552 (LNC size), hashlib.md5(b[1024:1024+ds]).hexdigest() (payload digest)
//     t = tarfile.open(fileobj=io.BytesIO(zlib.decompressobj(31).decompress(b[1024:1024+ds])))
//     json.load(t.extractfile('info.json'))['tool_version'], json.load(t.extractfile('kelf-0.json'))['target'],
//     len(t.getmembers()), the sgNN folders; per subgraph d = json.load(t.extractfile('sgNN/def.json')):
//     len(d['var']), sorted(d['dma_queue'])
#include "clirun.h"
#include "corpus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = lanescope::test::CliRun;

struct Expected
{
    const char *file;
    qint64 fileSize, dataSize, versionMajor, lncSize;
    const char *uuid, *network, *featureBits, *md5, *compiler, *target;
    int members;
    QStringList subgraphs;
    int variables; // per subgraph (the subgraphs of one file are alike)
    QStringList queues;
};


QList<Expected> expected()
{
    const QStringList one = {QStringLiteral("sg00")}, two = {QStringLiteral("sg00"), QStringLiteral("sg01")};
    const QStringList poolQ = {QStringLiteral("qPoolIO0"), QStringLiteral("qSPIO0"), QStringLiteral("qSPSpillReload0")};
    const QStringList streamQ = {QStringLiteral("qPoolIO0"), QStringLiteral("qSPIO0")};
    const QStringList smallQ = {QStringLiteral("qPoolDynamic"), QStringLiteral("qSPDynamicHW")};
    const QStringList largeQ = {QStringLiteral("qActDynamicHW"), QStringLiteral("qPoolDynamic"),
                                QStringLiteral("qSPDynamicHW")};
    return {
        {"neuron-cs149-asst4/part2_file_pool_1_float16.neff", 205824, 204800, 1, 1, "8906496653cf4179957ef64f5bdba775",
         "file_pool_1_float16.neff", "0x0", "c466c72b6cd8432eff608695b8cef787", "2.18.121.0+9e31e41a", "sunda", 36, one,
         6, poolQ},
        {"neuron-cs149-asst4/part2_file_pool_1_float32.neff", 390144, 389120, 1, 1, "b8cbba93b2d34a73b43c38f08cef21b6",
         "file_pool_1_float32.neff", "0x0", "9710a0393a2aa3fd47f8affb54a76c86", "2.18.121.0+9e31e41a", "sunda", 36, one,
         6, poolQ},
        {"neuron-cs149-asst4/part2_file_pool_2_float16.neff", 216064, 215040, 1, 1, "c7ef4ac829ed43e098957137ae730f64",
         "file_pool_2_float16.neff", "0x0", "14e8246998686d3a01a9e193f9e249b0", "2.18.121.0+9e31e41a", "sunda", 36, one,
         6, poolQ},
        {"neuron-cs149-asst4/part2_file_pool_2_float32.neff", 400384, 399360, 1, 1, "f4322c53d22645c08a7f91ff7db2194b",
         "file_pool_2_float32.neff", "0x0", "1c73b87a20b3e319e82db7824ee3ffb9", "2.18.121.0+9e31e41a", "sunda", 36, one,
         6, poolQ},
        {"neuron-cs149-asst4/stream_256k_fd1k.neff", 11264, 10240, 1, 1, "3e35b3d8249d4b1599fa3691933d7c87", "file.neff",
         "0x0", "450c45cdca09dd83f25a848d128f2490", "2.18.121.0+9e31e41a", "sunda", 32, one, 4, streamQ},
        {"neuron-cs149-asst4/stream_256k_fd2k.neff", 11264, 10240, 1, 1, "e439e3e7e87a4b70a21c31447e227973", "file.neff",
         "0x0", "af8329bf844f0e864d26e662acdc0127", "2.18.121.0+9e31e41a", "sunda", 32, one, 4, streamQ},
        {"neuron-nkipy/matmul_large.neff", 1516544, 1515520, 2, 2, "25e09fd2caca464a9ec358c85854fd38", "file.neff",
         "0x201c00", "6f8416e1b776ddc322872bfb1a15709a", "2.23.6484.0+3b612583", "cayman", 72, two, 22, largeQ},
        {"neuron-nkipy/matmul_small.neff", 62464, 61440, 2, 2, "00a04c535fd94f07bffdd5eacdefc852", "file.neff",
         "0x209c00", "efe9b3bc98163077b94c8bcdacf51f47", "2.23.6484.0+3b612583", "cayman", 72, two, 6, smallQ},
    };
}

QString dashed(const QString &hex)
{
    return hex.left(8) + QLatin1Char('-') + hex.mid(8, 4) + QLatin1Char('-') + hex.mid(12, 4) + QLatin1Char('-') +
           hex.mid(16, 4) + QLatin1Char('-') + hex.mid(20);
}

} // namespace

class TestCliNeff : public QObject
{
    Q_OBJECT
private slots:
    void corpusNeffJson_data()
    {
        QTest::addColumn<int>("index");
        const QList<Expected> all = expected();
        for (int i = 0; i < all.size(); ++i)
            QTest::newRow(all[i].file) << i;
    }

    void corpusNeffJson()
    {
        QFETCH(int, index);
        const Expected e = expected().at(index);
        const QString rel = QString::fromLatin1(e.file);
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const QString path = lanescope::test::corpusFile(rel);
        const Run r = lanescope::test::runCli({QStringLiteral("neff"), path, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonParseError pe;
        const QJsonObject o = QJsonDocument::fromJson(r.out, &pe).object();
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));

        QCOMPARE(o[QStringLiteral("file_size")].toInteger(), e.fileSize);
        QCOMPARE(o[QStringLiteral("uuid")].toString(), QString::fromLatin1(e.uuid));
        const QJsonObject h = o[QStringLiteral("header")].toObject();
        QCOMPARE(h[QStringLiteral("pkg_version")].toInteger(), qint64(2));
        QCOMPARE(h[QStringLiteral("header_size")].toInteger(), qint64(1024));
        QCOMPARE(h[QStringLiteral("data_size")].toInteger(), e.dataSize);
        QCOMPARE(h[QStringLiteral("version_major")].toInteger(), e.versionMajor);
        QCOMPARE(h[QStringLiteral("version_minor")].toInteger(), qint64(0));
        QCOMPARE(h[QStringLiteral("build_version")].toString(), QString());
        QCOMPARE(h[QStringLiteral("tpb_count")].toInteger(), qint64(1));
        QCOMPARE(h[QStringLiteral("uuid")].toString(), QString::fromLatin1(e.uuid));
        QCOMPARE(h[QStringLiteral("uuid_dashed")].toString(), dashed(QString::fromLatin1(e.uuid)));
        QCOMPARE(h[QStringLiteral("network_name")].toString(), QString::fromLatin1(e.network));
        QCOMPARE(h[QStringLiteral("requested_core_count")].toInteger(), qint64(1));
        QCOMPARE(h[QStringLiteral("feature_bits")].toString(), QString::fromLatin1(e.featureBits));
        QCOMPARE(h[QStringLiteral("lnc_size")].toInteger(), e.lncSize);

        QCOMPARE(o[QStringLiteral("payload_compression")].toString(), QStringLiteral("gzip"));
        QCOMPARE(o[QStringLiteral("complete")].toBool(), true);
        QCOMPARE(o[QStringLiteral("md5")].toString(), QString::fromLatin1(e.md5));
        QCOMPARE(o[QStringLiteral("md5_ok")].toBool(), true);
        QCOMPARE(o[QStringLiteral("compiler_version")].toString(), QString::fromLatin1(e.compiler));
        QCOMPARE(o[QStringLiteral("target")].toString(), QString::fromLatin1(e.target));
        QCOMPARE(int(o[QStringLiteral("members")].toArray().size()), e.members);
        QCOMPARE(int(o[QStringLiteral("warnings")].toArray().size()), 0);

        const QJsonArray sgs = o[QStringLiteral("subgraphs")].toArray();
        QCOMPARE(int(sgs.size()), int(e.subgraphs.size()));
        for (int i = 0; i < sgs.size(); ++i) {
            const QJsonObject sg = sgs[i].toObject();
            QCOMPARE(sg[QStringLiteral("name")].toString(), e.subgraphs[i]);
            QCOMPARE(sg[QStringLiteral("has_definition")].toBool(), true);
            QCOMPARE(int(sg[QStringLiteral("variables")].toArray().size()), e.variables);
            QStringList queues;
            for (const auto &q : sg[QStringLiteral("dma_queues")].toArray())
                queues << q.toObject()[QStringLiteral("name")].toString();
            queues.sort();
            QCOMPARE(queues, e.queues);
        }
        // The instruction-to-op chain: an entry for every engine of every subgraph (its numbers:
        // tst_neffdebuginfo); the NKIPy NEFFs name HLO ops with their Python line.
        const QJsonArray debug = o[QStringLiteral("debug")].toArray();
        QCOMPARE(int(debug.size()), int(e.subgraphs.size()));
        for (const auto &d : debug) {
            const QJsonArray engines = d.toObject()[QStringLiteral("engines")].toArray();
            QCOMPARE(int(engines.size()), 5);
            for (const auto &en : engines)
                QVERIFY(en.toObject()[QStringLiteral("instructions")].toInteger() >= en.toObject()[QStringLiteral("with_bir")].toInteger());
        }
        if (rel.contains(QStringLiteral("nkipy"))) {
            const QJsonArray ops = debug[0].toObject()[QStringLiteral("hlo_ops")].toArray();
            QVERIFY(!ops.isEmpty());
            QVERIFY(ops[0].toObject()[QStringLiteral("hlo")].toString().startsWith(QLatin1Char('%')));
            QVERIFY(ops[0].toObject()[QStringLiteral("source_line")].toInteger() > 0);
        }
    }

    // The text report shows the same facts a reader looks for first.
    void corpusNeffText_data() { corpusNeffJson_data(); }
    void corpusNeffText()
    {
        QFETCH(int, index);
        const Expected e = expected().at(index);
        const QString rel = QString::fromLatin1(e.file);
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const Run r = lanescope::test::runCli({QStringLiteral("neff"), lanescope::test::corpusFile(rel)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString text = QString::fromUtf8(r.out);
        const QString uuid = QString::fromLatin1(e.uuid);
        QVERIFY2(text.contains(QStringLiteral("uuid:             %1 (%2)").arg(uuid, dashed(uuid))), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("network name:     ") + QString::fromLatin1(e.network)));
        QVERIFY(text.contains(QStringLiteral("compiler version:   ") + QString::fromLatin1(e.compiler)));
        QVERIFY(text.contains(QStringLiteral("target:             ") + QString::fromLatin1(e.target)));
        QVERIFY(text.contains(QStringLiteral("feature bits:     ") + QString::fromLatin1(e.featureBits)));
        QVERIFY(text.contains(QStringLiteral("members (%1):").arg(e.members)));
        QVERIFY(text.contains(QStringLiteral(", computed ") + QString::fromLatin1(e.md5)));
        for (const QString &sg : e.subgraphs)
            QVERIFY2(text.contains(sg), qPrintable(sg));
    }

    // An NTFF is not a NEFF: exit status 2 and an error that names the file.
    void notANeff()
    {
        const QString rel = QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const Run r = lanescope::test::runCli({QStringLiteral("neff"), lanescope::test::corpusFile(rel)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("stream_256k_fd1k.ntff"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void missingFile()
    {
        QTemporaryDir tmp;
        const Run r = lanescope::test::runCli({QStringLiteral("neff"), tmp.filePath(QStringLiteral("absent.neff"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("absent.neff"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliNeff)
#include "tst_clineff.moc"
