// Hostile files: what a viewer is handed by colleagues, CI artifacts and the internet. Every case is
// generated at test time inside a QTemporaryDir, from real corpus files where there is one to start
// from (truncations, flipped bytes, patched headers and section tables) or synthetically (bombs, deep
// nesting, huge strings, tar members with escaping names, FIFOs and symbolic-link loops).
//
// Each case must end within a time bound with either a partial load plus counted warnings, or a clear
// error that names the file (and "at byte" where a position is meaningful): never a crash, never
// unbounded memory (peak RSS is measured where a case could blow up), never a file written outside
// the case's folder. Loads go through TraceLoader::load (what the GUI and the CLI call), NEFFs through
// NeffReader::read (TraceLoader does not load NEFFs on their own).
//
// This file: text formats (Chrome/Kineto JSON, neuron-profile JSON), truncations and flipped bytes of
// every reader's corpus input, compression, folders and devices. NEFF and NTFF structure cases are in
// tst_hostilebinaries.cpp, the fuzzers' old findings in tst_fuzzregressions.cpp; shared helpers in
// tests/common/hostile.h. The huge-string case uses LANESCOPE_HOSTILE_STRING_MB megabytes (default 100).
#include "compress.h"
#include "corpus.h"
#include "hostiletestcase.h"

#include "io/chrome/chromejsonimporter.h"
#include "io/folder/profilefolder.h"
#include "io/folder/profilefolderloader.h"
#include "io/input/inputbuffer.h"
#include "io/neff/neffreader.h"
#include "io/neuronprofile/neuronprofilejsonimporter.h"
#include "io/ntff/ntffimporter.h"
#include "io/traceloader.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <set>

#include <sys/stat.h>
#include <unistd.h>

using namespace lanescope;
using namespace lanescope::test;

namespace {

struct Source
{
    const char *name;
    const char *relative;
    bool neff;        // NeffReader::read instead of TraceLoader::load
    bool partialOk;   // a cut file may still load (with a warning)
    bool cutWarns;    // a partial load always carries a warning (a bare JSON array cut between events: a note)
};
// A JSON file cut inside its event array loads every complete event with one warning
// (docs/diagnostics.md), plain or compressed (a cut .gz: the stream ends early).
const Source kSources[] = {
    {"kineto-object", "kineto/docs__after_fix_trace.json", false, true, true},
    {"kineto-gzip", "hta/negative_queue_length_values_check__rank0.json.gz", false, true, true},
    {"torch-array", "generated-torch-cpu/rmsnorm_naive.trace.json", false, true, false}, // unterminated arrays are accepted
    {"chrome-gzip", "catapult/webview.json.gz", false, true, true},
    {"ntff", "neuron-profile-json/profile_128x128x256.ntff", false, true, true},
    {"neuron-profile-json", "neuron-profile-json/profile_128x128x256.json", false, true, true},
    {"neff", "neuron-cs149-asst4/stream_256k_fd1k.neff", true, true, true},
};

} // namespace

class TestHostileFiles : public HostileTestCase
{
    Q_OBJECT

private slots:
    // ---- derived from real files ----

    void truncatedAtManyOffsets_data()
    {
        QTest::addColumn<int>("source");
        for (int i = 0; i < int(std::size(kSources)); ++i)
            QTest::newRow(kSources[i].name) << i;
    }

    void truncatedAtManyOffsets()
    {
        QFETCH(int, source);
        const Source &src = kSources[source];
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromUtf8(src.relative));
        const std::string full = readFile(lanescope::test::corpusFile(QString::fromUtf8(src.relative)));
        QVERIFY2(!full.empty(), src.relative);
        // the first bytes one by one (headers), then 40 cuts spread over the file, then the last bytes
        std::set<size_t> cuts;
        for (size_t i = 0; i < 24 && i < full.size(); ++i)
            cuts.insert(i);
        for (size_t k = 1; k < 40; ++k)
            cuts.insert(full.size() * k / 40);
        for (size_t i = 1; i <= 4 && i < full.size(); ++i)
            cuts.insert(full.size() - i);
        cuts.insert(127);
        cuts.insert(128);
        cuts.insert(1023);
        cuts.insert(1024);
        cuts.insert(1536);
        // cutting only trailing whitespace leaves a complete file
        size_t meaningful = full.size();
        while (meaningful > 0 && std::strchr(" \t\r\n", full[meaningful - 1]))
            --meaningful;
        int loaded = 0, failed = 0;
        uint64_t warnings = 0;
        const QString p = m_scratch.path(QStringLiteral("truncated-%1").arg(QString::fromUtf8(src.name)));
        for (size_t cut : cuts) {
            if (cut >= full.size())
                continue;
            QVERIFY(writeFile(p, std::string_view(full).substr(0, cut)));
            const Outcome o = src.neff ? loadNeff(p) : loadTrace(p);
            // An error always names the file; the JSON and binary readers also say where.
            VERIFY_OUTCOME(o, p, boundMs(10), !src.neff);
            loaded += o.ok;
            failed += !o.ok;
            warnings += o.warnings;
            if (o.ok && cut > 0 && cut < meaningful && !src.partialOk)
                QFAIL(qPrintable(QStringLiteral("%1 cut at %2 of %3 bytes loaded without an error")
                                     .arg(QString::fromUtf8(src.name)).arg(cut).arg(full.size())));
            if (o.ok && cut > 0 && cut < meaningful && src.cutWarns && o.warnings == 0)
                QFAIL(qPrintable(QStringLiteral("%1 cut at %2 of %3 bytes loaded without a warning")
                                     .arg(QString::fromUtf8(src.name)).arg(cut).arg(full.size())));
        }
        qInfo("%s: %d cuts: %d partial loads (%llu warnings), %d clear errors", src.name, int(cuts.size()), loaded,
              (unsigned long long)warnings, failed);
        QVERIFY(failed > 0);
        if (src.partialOk && std::string_view(src.name) != "neff") // a cut NEFF payload breaks the header's data_size
            QVERIFY2(loaded > 0 && warnings > 0, "a cut file that can load partly never did (or without a warning)");
    }

    void flippedBytes_data() { truncatedAtManyOffsets_data(); }

    void flippedBytes()
    {
        QFETCH(int, source);
        const Source &src = kSources[source];
        LANESCOPE_REQUIRE_CORPUS_FILE(QString::fromUtf8(src.relative));
        const std::string full = readFile(lanescope::test::corpusFile(QString::fromUtf8(src.relative)));
        QVERIFY(!full.empty());
        std::mt19937_64 rng(0x1a9e5c09e + uint64_t(source));
        const QString p = m_scratch.path(QStringLiteral("flipped-%1").arg(QString::fromUtf8(src.name)));
        int loaded = 0, failed = 0;
        QElapsedTimer total;
        total.start();
        constexpr int kMutants = 120;
        for (int m = 0; m < kMutants; ++m) {
            std::string b = full;
            const int flips = 1 + int(rng() % 8);
            for (int k = 0; k < flips; ++k) {
                // half the flips in the first 2 KiB, where headers and tables live
                const size_t at = (rng() & 1) ? size_t(rng() % std::min<size_t>(b.size(), 2048)) : size_t(rng() % b.size());
                switch (rng() % 4) {
                case 0: b[at] = char(b[at] ^ (1 << (rng() % 8))); break;
                case 1: b[at] = char(0xff); break;
                case 2: b[at] = '\0'; break;
                default: b[at] = "\"{[]},:\\"[rng() % 8]; break;
                }
            }
            QVERIFY(writeFile(p, b));
            const Outcome o = src.neff ? loadNeff(p) : loadTrace(p);
            VERIFY_OUTCOME(o, p, boundMs(10), false);
            loaded += o.ok;
            failed += !o.ok;
        }
        qInfo("%s: %d mutants: %d loaded, %d clear errors, %lld ms", src.name, kMutants, loaded, failed,
              (long long)total.elapsed());
        QCOMPARE(loaded + failed, kMutants);
    }

    void gzipCorruptMidway()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("catapult/webview.json.gz"));
        const std::string gz = readFile(lanescope::test::corpusFile(QStringLiteral("catapult/webview.json.gz")));
        QVERIFY(gz.size() > 100000);
        std::string bad = gz;
        const size_t mid = gz.size() / 2;
        for (size_t i = mid; i < mid + 64; ++i)
            bad[i] = char(bad[i] ^ 0xa5);
        const QString p = m_scratch.fresh(QStringLiteral("corrupt-midway.json.gz"));
        QVERIFY(writeFile(p, bad));
        const Outcome o = loadTrace(p);
        VERIFY_OUTCOME(o, p, boundMs(10), true);
        QVERIFY2(!o.ok, "a gzip stream corrupt mid-way loaded");
        QVERIFY2(contains(o.error, "corrupt gzip"), o.error.c_str());
        // the position is in the compressed file, at or after the damage (zlib notices a little later)
        const size_t at = std::stoull(o.error.substr(o.error.find("at byte ") + 8));
        QVERIFY2(at >= mid && at <= gz.size(), o.error.c_str());
        qInfo("%s", o.error.c_str());

        // the same with zstd, compressed here from the decompressed corpus file
        InputBuffer plain = InputBuffer::fromBytes(gz, "webview", {});
        std::string zs = zstdOf(plain.view());
        const size_t zmid = zs.size() / 2;
        for (size_t i = zmid; i < zmid + 64; ++i)
            zs[i] = char(zs[i] ^ 0xa5);
        const QString pz = m_scratch.fresh(QStringLiteral("corrupt-midway.json.zst"));
        QVERIFY(writeFile(pz, zs));
        const Outcome oz = loadTrace(pz);
        VERIFY_OUTCOME(oz, pz, boundMs(10), true);
        QVERIFY2(!oz.ok, "a zstd stream corrupt mid-way loaded");
        QVERIFY2(contains(oz.error, "zstd"), oz.error.c_str());
        // zstd notices at the end of the damaged block: the position is at or after the damage
        const size_t zat = std::stoull(oz.error.substr(oz.error.find("at byte ") + 8));
        QVERIFY2(zat + 4096 > zmid && zat <= zs.size(), oz.error.c_str());
        qInfo("%s", oz.error.c_str());
    }

    // ---- bombs ----

    void compressionBombs_data()
    {
        QTest::addColumn<bool>("zstd");
        QTest::newRow("gzip") << false;
        QTest::newRow("zstd") << true;
    }

    void compressionBombs()
    {
        QFETCH(bool, zstd);
        // 8 GiB of JSON whitespace after a valid head: 128 concatenated members of 64 MiB each (valid
        // gzip / zstd), a few MB on disk. Without the budget this would need 8 GiB.
        constexpr uint64_t kMember = uint64_t(64) << 20;
        constexpr int kMembers = 128;
        const std::string head = "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"}";
        std::string member;
        if (zstd) {
            const std::string spaces(kMember, ' ');
            member = zstdOf(spaces, 3);
        } else {
            Gzip g(1, Z_RLE);
            g.addRepeated(' ', kMember);
            member = g.finish();
        }
        const std::string headPacked = zstd ? zstdOf(head) : gzipOf(head);
        const QString p = m_scratch.fresh(zstd ? QStringLiteral("bomb.json.zst") : QStringLiteral("bomb.json.gz"));
        {
            QFile f(p);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(headPacked.data(), qint64(headPacked.size()));
            for (int i = 0; i < kMembers; ++i)
                f.write(member.data(), qint64(member.size()));
        }
        const uint64_t onDisk = uint64_t(QFileInfo(p).size());
        LoadOptions options;
        options.memoryBudget = uint64_t(256) << 20;
        PeakRss rss;
        const bool measured = rss.reset();
        const Outcome o = loadTrace(p, options);
        const uint64_t growth = rss.growthBytes();
        VERIFY_OUTCOME(o, p, boundMs(20), true);
        QVERIFY2(!o.ok, "a compression bomb loaded");
        QVERIFY2(contains(o.error, "memory budget"), o.error.c_str());
        qInfo("%s bomb: %llu bytes on disk, %llu GiB inflated: %lld ms, peak RSS +%llu MiB: %s", zstd ? "zstd" : "gzip",
              (unsigned long long)onDisk, (unsigned long long)(kMember * kMembers >> 30), (long long)o.ms,
              (unsigned long long)(growth >> 20), o.error.c_str());
        QFile::remove(p);
        if (measured)
            QVERIFY2(growth < options.memoryBudget * 3, qPrintable(QStringLiteral("peak RSS grew %1 MiB for a 256 MiB budget").arg(growth >> 20)));
    }

    // ---- JSON shapes ----

    void deepNesting_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QByteArray>("tail");
        QTest::newRow("in args") << QByteArray("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\",\"args\":{\"x\":")
                                 << QByteArray("}}]}");
        QTest::newRow("bare array") << QByteArray("[") << QByteArray("]");
        QTest::newRow("top-level key") << QByteArray("{\"traceEvents\":[],\"deviceProperties\":") << QByteArray("}");
        QTest::newRow("neuron-profile") << QByteArray("{\"instruction\":[{\"timestamp\":1,\"duration\":1,\"label\":\"Tensor\",\"opcode\":")
                                        << QByteArray("}]}");
        QTest::newRow("unclosed") << QByteArray("{\"traceEvents\":") << QByteArray();
    }

    void deepNesting()
    {
        QFETCH(QByteArray, head);
        QFETCH(QByteArray, tail);
        constexpr int kDepth = 100000;
        std::string json(head.constData(), size_t(head.size()));
        for (int i = 0; i < kDepth; ++i)
            json += (i & 1) ? "{\"k\":" : "[";
        json += "1";
        if (!tail.isEmpty()) {
            for (int i = kDepth; i-- > 0;)
                json += (i & 1) ? "}" : "]";
            json += tail.toStdString();
        }
        const QString p = m_scratch.fresh(QStringLiteral("deep.json"));
        QVERIFY(writeFile(p, json));
        const Outcome o = loadTrace(p);
        VERIFY_OUTCOME(o, p, boundMs(10), true);
        qInfo("%s", o.ok ? qPrintable(QStringLiteral("loaded, %1 warnings").arg(o.warnings)) : o.error.c_str());
        if (!o.ok)
            QVERIFY2(contains(o.error, "nested") || contains(o.error, "end of file") || contains(o.error, "JSON"),
                     o.error.c_str());
    }

    void hugeString()
    {
        const uint64_t mb = uint64_t(envInt("LANESCOPE_HOSTILE_STRING_MB", 100));
        const QString p = m_scratch.fresh(QStringLiteral("huge-string.json"));
        {
            QFile f(p);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":5,\"pid\":1,\"tid\":1,\"name\":\"");
            const QByteArray chunk(1 << 20, 'n');
            for (uint64_t i = 0; i < mb; ++i)
                f.write(chunk);
            f.write("\",\"args\":{\"s\":\"");
            for (uint64_t i = 0; i < 4; ++i)
                f.write(chunk);
            f.write("\"}},{\"ph\":\"X\",\"ts\":2,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"small\"}]}");
        }
        const uint64_t size = uint64_t(QFileInfo(p).size());
        PeakRss rss;
        const bool measured = rss.reset();
        const Outcome o = loadTrace(p);
        const uint64_t growth = rss.growthBytes();
        VERIFY_OUTCOME(o, p, boundMs(30), true);
        qInfo("%llu MiB string: %s in %lld ms, peak RSS +%llu MiB (%.1f x the file)", (unsigned long long)mb,
              o.ok ? "loaded" : o.error.c_str(), (long long)o.ms, (unsigned long long)(growth >> 20),
              double(growth) / double(size));
        QFile::remove(p);
        QVERIFY2(o.ok, o.error.c_str());
        QCOMPARE(o.trace->allSlices().size(), size_t(2));
        // the file in memory, simdjson's index and the interned name: a small multiple of the file
        if (measured)
            QVERIFY2(growth < size * 10, qPrintable(QStringLiteral("peak RSS grew %1 MiB for a %2 MiB file").arg(growth >> 20).arg(size >> 20)));
    }

    void numbersOutOfRange_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("sane"); // events that must survive as slices (the rest may be dropped)
        const QByteArray ok = "{\"ph\":\"X\",\"ts\":10,\"dur\":2,\"pid\":1,\"tid\":1,\"name\":\"fine\"}";
        auto wrap = [&](const char *events) { return "{\"traceEvents\":[" + ok + "," + QByteArray(events) + "]}"; };
        QTest::newRow("ts 1e400") << wrap("{\"ph\":\"X\",\"ts\":1e400,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"}") << 1;
        QTest::newRow("ts -1e400") << wrap("{\"ph\":\"X\",\"ts\":-1e400,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"}") << 1;
        QTest::newRow("ts \"1e400\"") << wrap("{\"ph\":\"X\",\"ts\":\"1e400\",\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"}") << 1;
        QTest::newRow("dur -5") << wrap("{\"ph\":\"X\",\"ts\":5,\"dur\":-5,\"pid\":1,\"tid\":1,\"name\":\"a\"}") << 1;
        QTest::newRow("dur 1e400") << wrap("{\"ph\":\"X\",\"ts\":5,\"dur\":1e400,\"pid\":1,\"tid\":1,\"name\":\"a\"}") << 1;
        QTest::newRow("pid 1e30") << wrap("{\"ph\":\"X\",\"ts\":5,\"dur\":1,\"pid\":1e30,\"tid\":-1e30,\"name\":\"a\"}") << 1;
        QTest::newRow("int64 edges") << wrap("{\"ph\":\"X\",\"ts\":9223372036854775807,\"dur\":9223372036854775807,\"pid\":1,\"tid\":2,\"name\":\"a\"},"
                                             "{\"ph\":\"X\",\"ts\":-9223372036854775808,\"dur\":18446744073709551615,\"pid\":1,\"tid\":3,\"name\":\"b\"}") << 1;
        QTest::newRow("end overflows") << wrap("{\"ph\":\"X\",\"ts\":9223372036854775,\"dur\":9223372036854775,\"pid\":1,\"tid\":2,\"name\":\"a\"},"
                                               "{\"ph\":\"X\",\"ts\":-9223372036854775,\"dur\":1,\"pid\":1,\"tid\":2,\"name\":\"b\"},"
                                               "{\"ph\":\"B\",\"ts\":9223372036854775,\"pid\":1,\"tid\":3,\"name\":\"c\"},"
                                               "{\"ph\":\"E\",\"ts\":-9223372036854775,\"pid\":1,\"tid\":3}") << 1;
        QTest::newRow("B/E 1e308") << wrap("{\"ph\":\"B\",\"ts\":1e308,\"pid\":1,\"tid\":1,\"name\":\"a\"},{\"ph\":\"E\",\"ts\":-1e308,\"pid\":1,\"tid\":1}") << 1;
        QTest::newRow("counter 1e400") << wrap("{\"ph\":\"C\",\"ts\":3,\"pid\":1,\"name\":\"c\",\"args\":{\"v\":1e400,\"w\":-1e400,\"x\":1e30}}") << 1;
        QTest::newRow("flow ids") << wrap("{\"ph\":\"s\",\"ts\":1e400,\"id\":1e30,\"pid\":1,\"tid\":1,\"name\":\"f\",\"cat\":\"c\"},"
                                          "{\"ph\":\"f\",\"ts\":-5,\"id\":\"1e30\",\"pid\":1,\"tid\":1,\"name\":\"f\",\"cat\":\"c\",\"bp\":\"e\"}") << 1;
        QTest::newRow("async 1e400") << wrap("{\"ph\":\"b\",\"ts\":1e400,\"id\":1,\"pid\":1,\"tid\":1,\"name\":\"a\",\"cat\":\"c\"},"
                                             "{\"ph\":\"e\",\"ts\":-5,\"id\":1,\"pid\":1,\"tid\":1,\"name\":\"a\",\"cat\":\"c\"}") << 1;
        QTest::newRow("neuron-profile") << QByteArray("{\"instruction\":[{\"timestamp\":1e400,\"duration\":-5,\"label\":\"Tensor\",\"subgroup\":\"Tensor\",\"opcode\":\"NOP\",\"pc\":1e30},"
                                                      "{\"timestamp\":10,\"duration\":2,\"label\":\"Tensor\",\"subgroup\":\"Tensor\",\"opcode\":\"NOP\",\"pc\":1}],"
                                                      "\"dma\":[{\"timestamp\":-1e400,\"duration\":1e30,\"dma_queue\":\"1e30\",\"dma_engine\":\"-5\",\"transfer_size\":1e400}],"
                                                      "\"semaphore_update\":[{\"id\":\"1e30\",\"timestamp\":1e400,\"value\":-5}]}")
                                        << 1;
        QTest::newRow("neuron-profile int64 edges")
            << QByteArray("{\"instruction\":[{\"timestamp\":9223372036854775807,\"duration\":9223372036854775807,\"label\":\"Tensor\",\"subgroup\":\"Tensor\",\"opcode\":\"NOP\",\"pc\":1},"
                          "{\"timestamp\":-9223372036854775808,\"duration\":9223372036854775807,\"label\":\"Vector\",\"subgroup\":\"Vector\",\"opcode\":\"NOP\",\"pc\":2},"
                          "{\"timestamp\":10,\"duration\":2,\"label\":\"Tensor\",\"subgroup\":\"Tensor\",\"opcode\":\"NOP\",\"pc\":3}],"
                          "\"dma\":[{\"timestamp\":9223372036854775807,\"duration\":9223372036854775807,\"dma_queue\":\"1\",\"dma_engine\":\"1\",\"transfer_size\":64,\"aggregated\":\"no\"},"
                          "{\"timestamp\":-9223372036854775808,\"duration\":9223372036854775807,\"dma_queue\":\"1\",\"dma_engine\":\"1\",\"transfer_size\":64,\"aggregated\":\"no\"}],"
                          "\"ham\":[{\"timestamp\":9223372036854775807,\"duration\":9223372036854775807,\"k\":1,\"n\":2,\"type\":0}],"
                          "\"semaphore_update\":[{\"id\":\"3\",\"timestamp\":-9223372036854775808,\"value\":1}]}")
            << 1;
    }

    void numbersOutOfRange()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, sane);
        const QString p = m_scratch.fresh(QStringLiteral("numbers.json"));
        QVERIFY(writeFile(p, std::string_view(json.constData(), size_t(json.size()))));
        const Outcome o = loadTrace(p);
        VERIFY_OUTCOME(o, p, boundMs(5), true);
        QVERIFY2(o.ok, o.error.c_str());
        QVERIFY(o.trace->allSlices().size() >= size_t(sane));
        std::string warnings;
        for (const Warning &w : o.trace->diagnostics().warnings())
            warnings += "\n  " + Diagnostics::format(w) + " (" + w.firstSeen + ")";
        qInfo("%zu slices, %llu warnings:%s", o.trace->allSlices().size(), (unsigned long long)o.warnings,
              warnings.c_str());
    }

    // ---- folders ----

    void folderWithUnreadableFilesAndLoops()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("generated-torch-cpu/rmsnorm_naive.trace.json"));
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff"));
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.neff"));
        const QString root = m_scratch.work() + QStringLiteral("/folder");
        QDir(root).removeRecursively();
        const QString run = root + QStringLiteral("/i-0hostile_pid_7/20250101_000000");
        QVERIFY(QDir().mkpath(run + QStringLiteral("/sub/deeper")));
        QVERIFY(writeFile(run + QStringLiteral("/trace.json"),
                          readFile(lanescope::test::corpusFile(QStringLiteral("generated-torch-cpu/rmsnorm_naive.trace.json")))));
        const std::string ntff = readFile(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff")));
        QVERIFY(writeFile(run + QStringLiteral("/neff_1234.neff"),
                          readFile(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.neff")))));
        QVERIFY(writeFile(run + QStringLiteral("/1234_vnc_0.ntff"), ntff));
        QVERIFY(writeFile(run + QStringLiteral("/5678_vnc_0.ntff"), ntff.substr(0, ntff.size() / 3))); // cut
        QVERIFY(writeFile(run + QStringLiteral("/neff_9.neff"), std::string(2000, '\x01')));        // not a NEFF
        QVERIFY(writeFile(run + QStringLiteral("/broken.json"), "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":"));
        const QByteArray fifo = (run + QStringLiteral("/stuck.json")).toLocal8Bit();
        QVERIFY(::mkfifo(fifo.constData(), 0600) == 0);
        auto symlink = [&](const char *target, const QString &rel) {
            return ::symlink(target, (run + QLatin1Char('/') + rel).toLocal8Bit().constData()) == 0;
        };
        QVERIFY(symlink("missing.ntff", QStringLiteral("gone.ntff")));   // dangling
        QVERIFY(symlink("self.json", QStringLiteral("self.json")));      // resolves to itself (ELOOP)
        QVERIFY(symlink("..", QStringLiteral("sub/back")));              // folder loop
        QVERIFY(symlink("../../..", QStringLiteral("sub/deeper/top")));  // loop to the scanned folder
        QVERIFY(symlink("../trace.json", QStringLiteral("sub/same_trace.json")));
        const QString secret = run + QStringLiteral("/secret.json");
        QVERIFY(writeFile(secret, "{\"traceEvents\":[]}"));
        QVERIFY(::chmod(secret.toLocal8Bit().constData(), 0) == 0); // root reads it anyway; others cannot

        const QStringList before = listing(m_scratch.outer());
        const Outcome o = loadTrace(root);
        VERIFY_OUTCOME(o, root, boundMs(30), false);
        QVERIFY2(o.ok, o.error.c_str());
        QCOMPARE(listing(m_scratch.outer()), before);
        std::map<std::string, std::string> files;
        for (const auto &[k, v] : o.trace->metadata().entries)
            if (k.rfind("file.", 0) == 0)
                files[k.substr(5)] = v;
        std::string all;
        for (const auto &[k, v] : files)
            all += "\n  " + k + ": " + v;
        qInfo("folder loaded in %lld ms, %llu warnings, files:%s", (long long)o.ms, (unsigned long long)o.warnings, all.c_str());
        const std::string prefix = "i-0hostile_pid_7/20250101_000000/";
        auto status = [&](const char *rel) { return files.count(prefix + rel) ? files[prefix + rel] : std::string("(not listed)"); };
        QVERIFY2(contains(status("stuck.json"), "FIFO"), status("stuck.json").c_str());
        QVERIFY2(contains(status("gone.ntff"), "broken symbolic link"), status("gone.ntff").c_str());
        QVERIFY2(contains(status("self.json"), "loop"), status("self.json").c_str());
        // trace.json and the link to it are one file: loaded once, the other listed as the same file
        QVERIFY2(contains(status("trace.json") + status("sub/same_trace.json"), "loaded"), all.c_str());
        QVERIFY2(contains(status("trace.json") + status("sub/same_trace.json"), "same file"), all.c_str());
        QVERIFY2(o.trace->diagnostics().count("symbolic link loops (not followed)") >= 1 ||
                     contains(status("sub/back/"), "loop") || contains(status("sub/back/"), "same folder"),
                 all.c_str());

        // The same hostile entries opened one by one: each ends at once with an error naming it.
        for (const char *rel : {"stuck.json", "gone.ntff", "self.json", "broken.json", "neff_9.neff", "5678_vnc_0.ntff"}) {
            const QString p = run + QLatin1Char('/') + QLatin1String(rel);
            const Outcome one = loadTrace(p);
            VERIFY_OUTCOME(one, p, boundMs(5), false);
            qInfo("%s: %s", rel, one.ok ? qPrintable(QStringLiteral("loaded, %1 warnings").arg(one.warnings)) : one.error.c_str());
        }
        // A FIFO without a writer, opened directly: ends at once (as an empty file), as a NEFF too.
        const QString fifoPath = run + QStringLiteral("/stuck.json");
        const Outcome asTrace = loadTrace(fifoPath);
        VERIFY_OUTCOME(asTrace, fifoPath, boundMs(5), false);
        QVERIFY(!asTrace.ok);
        const Outcome asNeff = loadNeff(fifoPath);
        VERIFY_OUTCOME(asNeff, fifoPath, boundMs(5), false);
        QVERIFY(!asNeff.ok);
        qInfo("FIFO: %s / %s", asTrace.error.c_str(), asNeff.error.c_str());
        QCOMPARE(listing(m_scratch.outer()), before);
        QDir(root).removeRecursively();
    }

    void devices()
    {
        // Endless or special files: a clear error at once, never a read until the budget is gone.
        for (const char *dev : {"/dev/zero", "/dev/urandom", "/dev/null"}) {
            if (!QFileInfo::exists(QLatin1String(dev)))
                continue;
            const QString p = QLatin1String(dev);
            const Outcome o = loadTrace(p);
            VERIFY_OUTCOME(o, p, boundMs(5), false);
            QVERIFY(!o.ok);
            const Outcome n = loadNeff(p);
            VERIFY_OUTCOME(n, p, boundMs(5), false);
            QVERIFY(!n.ok);
            qInfo("%s: %s / %s", dev, o.error.c_str(), n.error.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestHostileFiles)
#include "tst_hostilefiles.moc"
