// TraceSerializer: every corpus format survives Trace -> column blocks -> Trace record by record, and
// every kind of damage to a block is reported as CorruptCacheEntry.
#include "corpusorsample.h"
#include "traceequal.h"

#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"
#include "model/tracebuilder.h"
#include "store/traceserializer.h"
#include "util/contentfingerprint.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;

class TestTraceSerializer : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip_data()
    {
        test::addCorpusOrSampleRows({
            {"ntff", "neuron-cs149-asst4/stream_256k_fd1k.ntff"},
            {"neuron-profile json", "neuron-profile-json/profile_128x128x256.json"},
            {"flows", "perfetto/flow_events_json_v2.json"},
            {"counters", "catapult/instance_counters.json"},
            {"warnings", "speedscope/too-many-end-events.json"},
        });
    }

    void roundTrip()
    {
        QFETCH(QString, relative);
        LANESCOPE_REQUIRE_CORPUS_ROW(relative);
        QTemporaryDir tmp;
        const std::string path = test::corpusOrSample(relative, tmp);
        const LoadResult r = TraceLoader::load(path);
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &original = *r.trace;
        QVERIFY(!original.empty());
        std::vector<CacheBlock> blocks = TraceSerializer::serialize(original);
        uint64_t raw = 0, packed = 0;
        for (const CacheBlock &b : blocks) {
            raw += b.rawSize;
            packed += b.data.size();
        }
        QVERIFY(packed < raw); // zstd did something
        const Trace restored = TraceSerializer::deserialize(std::move(blocks), original.metadata().sourcePath);
        const std::string diff = test::traceDifference(original, restored);
        QVERIFY2(diff.empty(), diff.c_str());
        // The per-file reports of a folder travel typed with the trace.
        const auto &fa = original.metadata().files, &fb = restored.metadata().files;
        QCOMPARE(fb.size(), fa.size());
        for (size_t i = 0; i < fa.size(); ++i) {
            QCOMPARE(fb[i].path, fa[i].path);
            QCOMPARE(fb[i].kind, fa[i].kind);
            QCOMPARE(fb[i].outcome, fa[i].outcome);
            QCOMPARE(fb[i].detail, fa[i].detail);
        }
        if (relative.isEmpty()) {
            QVERIFY(fa.size() > 10);
            // The sample's expected filtering travels as notes (severity is part of the record).
            QVERIFY(restored.diagnostics().total(DiagnosticSeverity::Note) > 0);
            QCOMPARE(restored.diagnostics().total(DiagnosticSeverity::Warning), uint64_t(0));
        }
        if (relative.contains(QLatin1String("flow")))
            QVERIFY(!restored.flows().empty());
        if (relative.contains(QLatin1String("counters")))
            QVERIFY(!restored.allCounterSamples().empty());
        if (relative.contains(QLatin1String("warnings")))
            QVERIFY(!restored.diagnostics().empty());
    }

    void restoredPathIsWhereItWasOpened()
    {
        QTemporaryDir tmp;
        const std::string folder = SampleFolderWriter::write(tmp.path().toStdString());
        const LoadResult r = TraceLoader::load(folder);
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace restored = TraceSerializer::deserialize(TraceSerializer::serialize(*r.trace), "/elsewhere/copy");
        QCOMPARE(restored.metadata().sourcePath, std::string("/elsewhere/copy"));
        QVERIFY(restored.metadata().find("folder"));
        QCOMPARE(*restored.metadata().find("folder"), std::string("/elsewhere/copy"));
    }

    // A file report whose kind or outcome this build does not know is a damaged entry, not a crash.
    void unknownFileReportKindIsCorrupt()
    {
        TraceBuilder b;
        b.metadata().files.push_back({"x.bin", FileFormat(200), FileOutcome::Loaded, ""});
        const Trace t = b.finish();
        QVERIFY_THROWS_EXCEPTION(CorruptCacheEntry, TraceSerializer::deserialize(TraceSerializer::serialize(t), "x"));
    }

    // A column bigger than kPartBytes is split into parts and put back together in order.
    void multiPartColumn()
    {
        TraceBuilder b;
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("p"));
        const TrackId t = b.addTrack(g, TrackKind::Slices, b.intern("t"));
        const StringId name = b.intern("s");
        const size_t n = TraceSerializer::kPartBytes / sizeof(Slice) + 1000;
        b.reserveSlices(n);
        for (size_t i = 0; i < n; ++i)
            b.addSlice(t, int64_t(i) * 10, 5, name, StringId(0));
        const Trace original = b.finish();
        std::vector<CacheBlock> blocks = TraceSerializer::serialize(original);
        QCOMPARE(std::count_if(blocks.begin(), blocks.end(), [](const CacheBlock &c) { return c.column == "slices"; }), 2);
        std::reverse(blocks.begin(), blocks.end()); // the database returns rows in any order
        const Trace restored = TraceSerializer::deserialize(std::move(blocks), {});
        const std::string diff = test::traceDifference(original, restored);
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void damage_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        // Damage to the stored bytes is caught by the checksum of the compressed frame ...
        QTest::newRow("flipped byte") << QStringLiteral("flip") << QStringLiteral("slices part 0: checksum mismatch");
        QTest::newRow("truncated frame") << QStringLiteral("truncate") << QStringLiteral("checksum mismatch");
        QTest::newRow("checksum mismatch") << QStringLiteral("checksum") << QStringLiteral("checksum mismatch");
        QTest::newRow("not zstd") << QStringLiteral("garbage") << QStringLiteral("checksum mismatch");
        QTest::newRow("empty blob") << QStringLiteral("empty") << QStringLiteral("checksum mismatch");
        // ... and where the checksum was rewritten to match, by the frame itself (its header, its end). A
        // frame that still decodes to the recorded size under a rewritten checksum is trusted: the
        // checksum is the integrity check (zstd's own would hash the six times larger content again).
        QTest::newRow("not zstd, checksum rewritten") << QStringLiteral("garbage+sum") << QStringLiteral("zstd frame");
        QTest::newRow("truncated, checksum rewritten") << QStringLiteral("truncate+sum") << QStringLiteral("truncated");
        QTest::newRow("wrong recorded size") << QStringLiteral("size") << QStringLiteral("recorded size");
        QTest::newRow("missing column") << QStringLiteral("drop") << QStringLiteral("missing");
    }

    void damage()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        const LoadResult r = TraceLoader::load(LANESCOPE_TEST_DATA "/cli_info_small.json");
        QVERIFY2(r.ok(), r.error.c_str());
        std::vector<CacheBlock> blocks = TraceSerializer::serialize(*r.trace);
        auto slices = std::find_if(blocks.begin(), blocks.end(), [](const CacheBlock &c) { return c.column == "slices"; });
        QVERIFY(slices != blocks.end());
        if (kind.startsWith(QLatin1String("flip")))
            slices->data[slices->data.size() / 2] ^= 0x5a;
        else if (kind.startsWith(QLatin1String("truncate")))
            slices->data.resize(slices->data.size() - 3);
        else if (kind == QLatin1String("checksum"))
            slices->checksum ^= 1;
        else if (kind == QLatin1String("size"))
            slices->rawSize += 32;
        else if (kind == QLatin1String("drop"))
            blocks.erase(slices);
        else if (kind.startsWith(QLatin1String("garbage")))
            slices->data = std::string(64, 'x');
        else if (kind == QLatin1String("empty"))
            slices->data.clear();
        if (kind.endsWith(QLatin1String("+sum")))
            slices->checksum = ContentFingerprint::hashBytes(slices->data);
        try {
            TraceSerializer::deserialize(std::move(blocks), {});
            QFAIL("a damaged entry was restored");
        } catch (const CorruptCacheEntry &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceSerializer)
#include "tst_traceserializer.moc"
