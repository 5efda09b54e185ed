// TraceCache and CachedLoader: a second open is served from the cache (the mapped model file) and
// equals the first; a file changed in place (same size, mtime restored), a new importer version, a
// damaged, cut short or other-version model file and a damaged database are detected and rebuilt
// with a notice; LRU eviction under a cap; concurrent writers; a
// multi-rank set (folder or files given together) keyed over all its files.
// Every case uses its own temporary cache folder, never the user's cache.
#include "corpusorsample.h"
#include "traceequal.h"

#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"
#include "model/depthindex.h"
#include "store/cachedloader.h"
#include "store/mappedmodel.h"
#include "store/traceserializer.h"
#include "store/tracecache.h"
#include "util/contentfingerprint.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <thread>

using namespace lanescope;

namespace {

CacheOptions optionsIn(const QTemporaryDir &dir, uint64_t capBytes = uint64_t(1) << 30)
{
    CacheOptions o;
    o.enabled = true;
    o.dir = dir.path().toStdString() + "/cache";
    o.capBytes = capBytes;
    return o;
}

QString copyTestFile(const QTemporaryDir &dir, const QString &source, const QString &name)
{
    const QString out = dir.filePath(name);
    QFile::remove(out);
    if (!QFile::copy(source, out))
        return {};
    QFile(out).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    return out;
}

bool hasNotice(const LoadResult &r, const char *text)
{
    for (const auto &n : r.notices)
        if (n.find(text) != std::string::npos)
            return true;
    return false;
}

std::string notices(const LoadResult &r)
{
    std::string s;
    for (const auto &n : r.notices)
        s += n + "; ";
    return s;
}

} // namespace

class TestTraceCache : public QObject
{
    Q_OBJECT
private slots:
    void secondOpenComesFromCache_data()
    {
        test::addCorpusOrSampleRows({
            {"ntff", "neuron-cs149-asst4/stream_256k_fd2k.ntff"},
            {"neuron-profile json", "neuron-profile-json/profile_bucketed_128x128x128.json"},
        });
    }

    void secondOpenComesFromCache()
    {
        QFETCH(QString, relative);
        LANESCOPE_REQUIRE_CORPUS_ROW(relative);
        QTemporaryDir tmp;
        const std::string path = test::corpusOrSample(relative, tmp);
        CachedLoader loader(optionsIn(tmp));
        const LoadResult first = loader.load(path);
        QVERIFY2(first.ok(), first.error.c_str());
        QVERIFY(!first.fromCache);
        QVERIFY2(first.notices.empty(), notices(first).c_str());
        const LoadResult second = CachedLoader(optionsIn(tmp)).load(path);
        QVERIFY2(second.ok(), second.error.c_str());
        QVERIFY(second.fromCache);
        QVERIFY2(hasNotice(second, "loaded from cache"), notices(second).c_str());
        const std::string diff = test::traceDifference(*first.trace, *second.trace);
        QVERIFY2(diff.empty(), diff.c_str());
    }

    // A multi-rank set (HTA's real sampled ranks 0 and 1, distributedInfo): as a folder and as files
    // given together, the second open is a cache hit equal to the first; the key covers every member
    // file (one byte changed in one rank file: another key), and the order the files were given in.
    void rankSetComesFromCache()
    {
        const QString a = QStringLiteral("hta/trace_filter__sampled_rank-0.json.gz"), b = QStringLiteral("hta/trace_filter__sampled_rank-1.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(a);
        LANESCOPE_REQUIRE_CORPUS_FILE(b);
        QTemporaryDir tmp;
        QVERIFY(QDir(tmp.path()).mkpath(QStringLiteral("ranks")));
        const std::string r0 = copyTestFile(tmp, test::corpusFile(a), QStringLiteral("ranks/r0.json.gz")).toStdString();
        const std::string r1 = copyTestFile(tmp, test::corpusFile(b), QStringLiteral("ranks/r1.json.gz")).toStdString();
        QVERIFY(!r0.empty() && !r1.empty());
        const std::string folder = tmp.filePath(QStringLiteral("ranks")).toStdString();
        for (const std::vector<std::string> &input : {std::vector<std::string>{folder}, std::vector<std::string>{r0, r1}}) {
            const LoadResult first = CachedLoader(optionsIn(tmp)).load(input);
            QVERIFY2(first.ok(), first.error.c_str());
            QVERIFY(!first.fromCache);
            QCOMPARE(first.trace->metadata().format, std::string("multi-rank"));
            const LoadResult second = CachedLoader(optionsIn(tmp)).load(input);
            QVERIFY2(second.fromCache, notices(second).c_str());
            QCOMPARE(second.trace->metadata().sourcePath, first.trace->metadata().sourcePath);
            const std::string diff = test::traceDifference(*first.trace, *second.trace);
            QVERIFY2(diff.empty(), diff.c_str());
        }
        QCOMPARE(ContentFingerprint::ofPaths({r0, r1}).size, ContentFingerprint::ofPath(folder).size);
        const std::string key = ContentFingerprint::ofPaths({r0, r1}).key();
        QVERIFY(ContentFingerprint::ofPaths({r1, r0}).key() != key);
        QVERIFY(ContentFingerprint::ofPaths({r0, r1}).key() != ContentFingerprint::ofPath(folder).key());
        QFile f(QString::fromStdString(r1));
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 1);
        f.seek(0);
        f.write(bytes);
        f.close();
        QVERIFY(ContentFingerprint::ofPaths({r0, r1}).key() != key);
        QVERIFY(!CachedLoader(optionsIn(tmp)).load(std::vector<std::string>{r0, r1}).fromCache); // a damaged rank 1 is rebuilt (and not readable)
    }

    void disabledCacheWritesNothing()
    {
        QTemporaryDir tmp;
        CacheOptions o = optionsIn(tmp);
        o.enabled = false;
        const LoadResult r = CachedLoader(o).load(LANESCOPE_TEST_DATA "/cli_info_small.json");
        QVERIFY(r.ok());
        QVERIFY(!r.fromCache);
        QVERIFY(!QDir(QString::fromStdString(o.dir)).exists());
    }

    // The same bytes, same size, mtime put back: only the content hash can tell.
    void changedFileWithSameSizeAndMtimeIsRebuilt()
    {
        QTemporaryDir tmp;
        const QString file = copyTestFile(tmp, QStringLiteral(LANESCOPE_TEST_DATA "/cli_info_small.json"), QStringLiteral("t.json"));
        QVERIFY(!file.isEmpty());
        const QDateTime mtime = QFileInfo(file).lastModified();
        const LoadResult first = CachedLoader(optionsIn(tmp)).load(file.toStdString());
        QVERIFY(first.ok());
        QVERIFY(first.trace->strings().find("aten::mm").isValid());

        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        const qsizetype at = bytes.indexOf("aten::mm");
        QVERIFY(at > 0);
        bytes[at + 6] = 'x'; // aten::xm, same length
        f.seek(0);
        f.write(bytes);
        f.close();
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(mtime, QFileDevice::FileModificationTime));
        f.close();
        QCOMPARE(QFileInfo(file).lastModified(), mtime);
        QCOMPARE(QFileInfo(file).size(), qint64(bytes.size()));

        const LoadResult second = CachedLoader(optionsIn(tmp)).load(file.toStdString());
        QVERIFY(second.ok());
        QVERIFY(!second.fromCache);
        QVERIFY2(hasNotice(second, "stale (the file changed"), notices(second).c_str());
        QVERIFY(second.trace->strings().find("aten::xm").isValid());
        QVERIFY(!second.trace->strings().find("aten::mm").isValid());
        const LoadResult third = CachedLoader(optionsIn(tmp)).load(file.toStdString());
        QVERIFY(third.fromCache);
        QVERIFY(third.trace->strings().find("aten::xm").isValid());
    }

    // Once a file has been hashed and left alone for a while, reopening trusts its stat signature
    // (no hashing); a change with size and mtime restored still moves ctime, so it is hashed again.
    void unchangedFileSkipsHashingChangedFileDoesNot()
    {
        QTemporaryDir tmp;
        const QString file = copyTestFile(tmp, QStringLiteral(LANESCOPE_TEST_DATA "/cli_info_small.json"), QStringLiteral("t.json"));
        QVERIFY(!file.isEmpty());
        const QDateTime mtime = QFileInfo(file).lastModified();
        std::this_thread::sleep_for(std::chrono::milliseconds(2200)); // older than the racy window
        const CacheOptions o = optionsIn(tmp);
        QVERIFY(!CachedLoader(o).load(file.toStdString()).fromCache);
        const LoadResult second = CachedLoader(o).load(file.toStdString());
        QVERIFY(second.fromCache);
        QVERIFY2(hasNotice(second, "unchanged since it was hashed"), notices(second).c_str());

        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        bytes[bytes.indexOf("aten::mm") + 6] = 'x';
        f.seek(0);
        f.write(bytes);
        f.close();
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(mtime, QFileDevice::FileModificationTime));
        f.close();
        const LoadResult third = CachedLoader(o).load(file.toStdString());
        QVERIFY(!third.fromCache);
        QVERIFY2(hasNotice(third, "stale (the file changed"), notices(third).c_str());
        QVERIFY(third.trace->strings().find("aten::xm").isValid());
    }

    void newImporterVersionIsRebuilt()
    {
        QTemporaryDir tmp;
        const std::string file = LANESCOPE_TEST_DATA "/cli_info_small.json";
        CacheOptions v1 = optionsIn(tmp);
        v1.importerVersion = 1;
        CacheOptions v2 = v1;
        v2.importerVersion = 2;
        QVERIFY(CachedLoader(v1).load(file).ok());
        QVERIFY(CachedLoader(v1).load(file).fromCache);
        const LoadResult r = CachedLoader(v2).load(file);
        QVERIFY(r.ok());
        QVERIFY(!r.fromCache);
        QVERIFY2(hasNotice(r, "stale (made by importer version 1, this is version 2)"), notices(r).c_str());
        QVERIFY(CachedLoader(v2).load(file).fromCache);
        QVERIFY(!CachedLoader(v1).load(file).fromCache); // and back: never served across versions
    }

    // The entry's model file (MappedModel) damaged as a crash, a full disk or an older Lanescope would
    // leave it: rebuilt from the source with a notice naming the file and what did not fit, never
    // served, never a crash. Offsets of the header (mappedmodel.cpp): magic 0-7, version 8-11, column
    // count 12-15, file size 16-23, meta offset 24-31, meta bytes 32-39, then per column (offset,
    // bytes, width, checksum) 32 bytes from byte 40 in the order strings.bytes, strings.lengths,
    // groups, tracks, slices, ...; the header checksum is its last 8 bytes (464 bytes in all).
    void corruptEntryIsRebuilt_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("expected");
        QTest::newRow("cut short") << QStringLiteral("truncate-half") << QStringLiteral("cut short: ");
        QTest::newRow("cut inside the header") << QStringLiteral("truncate-100") << QStringLiteral("cut short: 100 bytes");
        QTest::newRow("header byte flipped") << QStringLiteral("flip-49") << QStringLiteral("header checksum mismatch");
        QTest::newRow("metadata byte flipped") << QStringLiteral("flip-600") << QStringLiteral("header checksum mismatch");
        QTest::newRow("not a model file") << QStringLiteral("flip-0") << QStringLiteral("not a Lanescope model file");
        QTest::newRow("another version") << QStringLiteral("version") << QStringLiteral("stale (");
        QTest::newRow("tracks damaged") << QStringLiteral("tracks") << QStringLiteral("column tracks");
        QTest::newRow("slices past the end") << QStringLiteral("slices-size") << QStringLiteral("column slices");
        QTest::newRow("missing file") << QStringLiteral("remove") << QStringLiteral("cannot open the cache file");
        // The depth tables (model/depthindex.h): the entries are not hashed, every id is checked instead.
        QTest::newRow("depth entry past the slices") << QStringLiteral("depth-entry") << QStringLiteral("depth index: slice id 4294967295");
        QTest::newRow("depth offsets damaged") << QStringLiteral("depth-offsets") << QStringLiteral("column depth.offsets");
    }

    void corruptEntryIsRebuilt()
    {
        QFETCH(QString, damage);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const std::string file = LANESCOPE_TEST_DATA "/cli_info_small.json";
        const CacheOptions o = optionsIn(tmp);
        const LoadResult first = CachedLoader(o).load(file);
        QVERIFY(first.ok());
        const QString model = QString::fromStdString(TraceCache(o).modelPath(ContentFingerprint::ofPath(file).key()));
        QVERIFY(QFile::exists(model));
        QFile f(model);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        QVERIFY(bytes.size() > 4096);
        auto u64At = [&](qsizetype at) {
            uint64_t v = 0;
            std::memcpy(&v, bytes.constData() + at, 8);
            return v;
        };
        // The header: 40 bytes, then 17 columns of (offset, bytes, width, checksum), then its checksum.
        constexpr qsizetype kColumns = 17, kChecksumAt = 40 + kColumns * 32, kMetaAt = kChecksumAt + 8;
        const uint64_t metaBytes = u64At(32);
        if (damage == QLatin1String("truncate-half")) {
            bytes.truncate(bytes.size() / 2);
        } else if (damage == QLatin1String("truncate-100")) {
            bytes.truncate(100);
        } else if (damage.startsWith(QLatin1String("flip-"))) {
            const qsizetype at = damage.mid(5).toLongLong();
            QVERIFY(at < kMetaAt + qsizetype(metaBytes));
            bytes[at] = char(bytes[at] ^ 0x10);
        } else if (damage == QLatin1String("version")) {
            bytes[8] = char(bytes[8] + 1); // the next version, as a newer Lanescope would write
        } else if (damage == QLatin1String("tracks")) {
            const uint64_t tracksAt = u64At(40 + 3 * 32);
            QVERIFY(u64At(40 + 3 * 32 + 8) > 0);
            bytes[qsizetype(tracksAt)] = char(bytes[qsizetype(tracksAt)] ^ 1);
        } else if (damage == QLatin1String("slices-size")) {
            // A header whose checksum holds but whose slices column runs past the end of the file.
            const uint64_t huge = uint64_t(bytes.size()) * 32;
            std::memcpy(bytes.data() + 40 + 4 * 32 + 8, &huge, 8);
            const uint64_t sum = ContentFingerprint::hashBytes(std::string_view(bytes.constData() + kMetaAt, metaBytes),
                                                               ContentFingerprint::hashBytes(std::string_view(bytes.constData(), kChecksumAt)));
            std::memcpy(bytes.data() + kChecksumAt, &sum, 8);
        } else if (damage == QLatin1String("depth-entry")) {
            const uint64_t entriesAt = u64At(40 + 13 * 32);
            QVERIFY(u64At(40 + 13 * 32 + 8) >= 4);
            std::memset(bytes.data() + entriesAt, 0xff, 4); // slice id 2^32 - 1
        } else if (damage == QLatin1String("depth-offsets")) {
            const uint64_t offsetsAt = u64At(40 + 14 * 32);
            QVERIFY(u64At(40 + 14 * 32 + 8) >= 4);
            bytes[qsizetype(offsetsAt)] = char(bytes[qsizetype(offsetsAt)] ^ 1);
        }
        f.resize(0);
        f.seek(0);
        f.write(bytes);
        f.close();
        if (damage == QLatin1String("remove"))
            QVERIFY(QFile::remove(model));
        const LoadResult r = CachedLoader(o).load(file);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(!r.fromCache);
        QVERIFY2(hasNotice(r, damage == QLatin1String("version") ? "cache entry was stale" : "cache entry was corrupt"), notices(r).c_str());
        QVERIFY2(hasNotice(r, expected.toUtf8().constData()), notices(r).c_str());
        QVERIFY2(damage == QLatin1String("version") || hasNotice(r, model.toUtf8().constData()), notices(r).c_str());
        const std::string diff = test::traceDifference(*first.trace, *r.trace);
        QVERIFY2(diff.empty(), diff.c_str());
        const LoadResult again = CachedLoader(o).load(file);
        QVERIFY(again.fromCache);
        const std::string againDiff = test::traceDifference(*first.trace, *again.trace);
        QVERIFY2(againDiff.empty(), againDiff.c_str());
    }

    // The entry's checks find the same problem whether they run side by side (two cores) or one after
    // the other (a preload that leaves the GUI thread a core: CacheOptions::reserveCore): a depth entry
    // past the slices, and an intact entry opens the same both ways.
    void checksOneAfterAnotherFindTheSame()
    {
        QTemporaryDir tmp;
        const std::string file = LANESCOPE_TEST_DATA "/cli_info_small.json";
        CacheOptions o = optionsIn(tmp);
        QVERIFY(CachedLoader(o).load(file).ok());
        const std::string model = TraceCache(o).modelPath(ContentFingerprint::ofPath(file).key());
        const Trace side = MappedModel::open(model, file, 2);
        const Trace serial = MappedModel::open(model, file, 1);
        const std::string diff = test::traceDifference(side, serial);
        QVERIFY2(diff.empty(), diff.c_str());
        {
            QFile f(QString::fromStdString(model));
            QVERIFY(f.open(QIODevice::ReadWrite));
            QByteArray bytes = f.readAll();
            uint64_t entriesAt = 0;
            std::memcpy(&entriesAt, bytes.constData() + 40 + 13 * 32, 8);
            std::memset(bytes.data() + entriesAt, 0xff, 4); // slice id 2^32 - 1 (the entries are not hashed)
            f.seek(0);
            f.write(bytes);
        }
        QStringList problems;
        for (unsigned threads : {2u, 1u}) {
            try {
                (void)MappedModel::open(model, file, threads);
                QFAIL("a depth entry past the slices was not found");
            } catch (const CorruptCacheEntry &e) {
                problems << QString::fromUtf8(e.what());
            }
        }
        QCOMPARE(problems.size(), 2);
        QVERIFY2(problems[0].contains(QLatin1String("depth index: slice id 4294967295")), qPrintable(problems[0]));
        QCOMPARE(problems[1], problems[0]);
        // Through the cache as a preload opens it: rebuilt with the same notice.
        o.reserveCore = true;
        const LoadResult r = CachedLoader(o).load(file);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(!r.fromCache);
        QVERIFY2(hasNotice(r, "depth index: slice id 4294967295"), notices(r).c_str());
    }

    // A reopened trace views its model file in place: the file is mapped while the trace lives (and
    // only then), the trace equals the parsed one in every column, and storing the entry again
    // (the file replaced by rename) leaves the mapped trace as it was.
    void reopenedTraceViewsTheMappedFile()
    {
        QFile maps(QStringLiteral("/proc/self/maps"));
        if (!maps.open(QIODevice::ReadOnly))
            QSKIP("no /proc/self/maps here");
        maps.close();
        auto mapped = [](const std::string &path) {
            QFile m(QStringLiteral("/proc/self/maps"));
            return m.open(QIODevice::ReadOnly) && m.readAll().contains(QByteArray::fromStdString(path));
        };
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz"));
        QTemporaryDir tmp;
        const std::string file = test::corpusFile(QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz")).toStdString();
        const CacheOptions o = optionsIn(tmp);
        const LoadResult parsed = CachedLoader(o).load(file);
        QVERIFY(parsed.ok() && !parsed.fromCache);
        QVERIFY(parsed.trace->flows().size() > 0 && parsed.trace->args().argCount() > 0);
        const std::string model = TraceCache(o).modelPath(ContentFingerprint::ofPath(file).key());
        QVERIFY(!mapped(model));
        std::shared_ptr<const Trace> reopened = CachedLoader(o).load(file).trace;
        QVERIFY(reopened);
        QVERIFY(mapped(model));
        QString diff = QString::fromStdString(test::traceDifference(*parsed.trace, *reopened));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        { // (the tables hold the mapping too: let them go before the check below that it is unmapped)
            // The depth tables come with it (no walk over the slices on reopen), equal to the parsed trace's.
            QVERIFY(reopened->hasDepthTables());
            const auto built = parsed.trace->depthTables(), read = reopened->depthTables();
            QVERIFY(read->entries.isView() && read->nodes.isView());
            QCOMPARE(read->entries.size(), parsed.trace->allSlices().size());
            QVERIFY(std::equal(built->entries.begin(), built->entries.end(), read->entries.begin(), read->entries.end()));
            QVERIFY(std::equal(built->depthOffsets.begin(), built->depthOffsets.end(), read->depthOffsets.begin(), read->depthOffsets.end()));
            QVERIFY(std::equal(built->trackFirstDepth.begin(), built->trackFirstDepth.end(), read->trackFirstDepth.begin(),
                               read->trackFirstDepth.end()));
            QCOMPARE(read->nodes.size(), built->nodes.size());
            QVERIFY(std::memcmp(read->nodes.data(), built->nodes.data(), built->nodes.size() * sizeof(DepthNode)) == 0);
        }
        {
            TraceCache cache(o);
            QVERIFY(cache.open(nullptr));
            std::string error;
            QVERIFY2(cache.store(ContentFingerprint::ofPath(file).key(), file, 0, *parsed.trace, &error), error.c_str());
        }
        diff = QString::fromStdString(test::traceDifference(*parsed.trace, *reopened));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        reopened.reset();
        QVERIFY(!mapped(model));
        QVERIFY(CachedLoader(o).load(file).fromCache);
    }

    // Column: a view until the first mutable access, which copies the records and lets the keeper go.
    void columnCopiesOnWrite()
    {
        const std::vector<int> backing = {3, 1, 4};
        auto keeper = std::make_shared<int>(0);
        Column<int> c;
        c.view(backing.data(), backing.size(), keeper);
        QVERIFY(c.isView());
        QCOMPARE(keeper.use_count(), 2L);
        const Column<int> &readOnly = c;
        QCOMPARE(readOnly.data(), backing.data());
        QCOMPARE(std::span<const int>(readOnly).size(), size_t(3));
        c.push_back(1);
        QVERIFY(!c.isView());
        QCOMPARE(keeper.use_count(), 1L);
        QCOMPARE(c.toVector(), (std::vector<int>{3, 1, 4, 1}));
        QCOMPARE(backing, (std::vector<int>{3, 1, 4}));
    }

    void damagedDatabaseFileIsReplaced()
    {
        QTemporaryDir tmp;
        const CacheOptions o = optionsIn(tmp);
        QVERIFY(QDir().mkpath(QString::fromStdString(o.dir)));
        QFile db(QString::fromStdString(o.dir + "/trace-cache.sqlite"));
        QVERIFY(db.open(QIODevice::WriteOnly));
        db.write(QByteArray(8192, 'Z'));
        db.close();
        const std::string file = LANESCOPE_TEST_DATA "/cli_info_small.json";
        const LoadResult r = CachedLoader(o).load(file);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(CachedLoader(o).load(file).fromCache);
        QVERIFY(QFile::exists(QString::fromStdString(o.dir + "/trace-cache.sqlite.corrupt")));
    }

    void leastRecentlyUsedIsEvicted()
    {
        QTemporaryDir tmp;
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("catapult/flow.json"));
        const std::string a = test::corpusFile(QStringLiteral("catapult/flow.json")).toStdString();
        const std::string b = test::corpusFile(QStringLiteral("catapult/instant_events.json")).toStdString();
        const std::string c = test::corpusFile(QStringLiteral("catapult/simple_trace.json")).toStdString();
        auto key = [](const std::string &p) { return ContentFingerprint::ofPath(p).key(); };
        CacheOptions o = optionsIn(tmp);
        QVERIFY(!CachedLoader(o).load(a).fromCache);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        QVERIFY(!CachedLoader(o).load(b).fromCache);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        QVERIFY(CachedLoader(o).load(a).fromCache); // a is now more recent than b
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        // Cap below all three entries together (a + c still fits): storing c must evict exactly b.
        uint64_t abBytes = 0, cBytes = 0;
        {
            TraceCache cache(o);
            QVERIFY(cache.open(nullptr));
            abBytes = cache.info().storedBytes;
            QTemporaryDir other;
            const CacheOptions probe = optionsIn(other);
            QVERIFY(CachedLoader(probe).load(c).ok());
            TraceCache probeCache(probe);
            QVERIFY(probeCache.open(nullptr));
            cBytes = probeCache.info().storedBytes;
        }
        // Half of c's size as the margin: record padding makes sizes differ by a few bytes between runs.
        const uint64_t cap = abBytes + cBytes / 2;
        o.capBytes = cap;
        QVERIFY(!CachedLoader(o).load(c).fromCache);
        TraceCache cache(o);
        QVERIFY(cache.open(nullptr));
        QVERIFY(cache.contains(key(a)));
        QVERIFY(!cache.contains(key(b)));
        QVERIFY(cache.contains(key(c)));
        QVERIFY(cache.info().storedBytes <= cap);
        QCOMPARE(cache.info().entries, uint64_t(2));
    }

    void entryBiggerThanTheCapIsNotStored()
    {
        QTemporaryDir tmp;
        const std::string file = LANESCOPE_TEST_DATA "/cli_info_small.json";
        const CacheOptions o = optionsIn(tmp, 100);
        const LoadResult r = CachedLoader(o).load(file);
        QVERIFY(r.ok());
        QVERIFY2(hasNotice(r, "bigger than the cache cap"), notices(r).c_str());
        QVERIFY(!CachedLoader(o).load(file).fromCache);
    }

    // A profile folder's key covers every file in it: one byte changed anywhere changes the key.
    void folderKeyCoversEveryFile()
    {
        QTemporaryDir tmp;
        const std::string folder = SampleFolderWriter::write(tmp.path().toStdString());
        const std::string before = ContentFingerprint::ofPath(folder).key();
        QDirIterator it(QString::fromStdString(folder), QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            const QByteArray original = f.readAll();
            QByteArray changed = original;
            changed[changed.size() / 2] = char(changed[changed.size() / 2] ^ 1);
            f.seek(0);
            f.write(changed);
            f.flush();
            QVERIFY2(ContentFingerprint::ofPath(folder).key() != before, qPrintable(path));
            f.seek(0);
            f.write(original);
            f.close();
            QCOMPARE(ContentFingerprint::ofPath(folder).key(), before);
            ++files;
        }
        QVERIFY(files >= 3); // trace.json + NEFF + NTFF at least
    }

    void clearEmptiesTheCache()
    {
        QTemporaryDir tmp;
        const CacheOptions o = optionsIn(tmp);
        QVERIFY(CachedLoader(o).load(LANESCOPE_TEST_DATA "/cli_info_small.json").ok());
        TraceCache cache(o);
        QVERIFY(cache.open(nullptr));
        QCOMPARE(cache.info().entries, uint64_t(1));
        std::string error;
        QVERIFY2(cache.clear(&error), error.c_str());
        QCOMPARE(cache.info().entries, uint64_t(0));
        QVERIFY(!CachedLoader(o).load(LANESCOPE_TEST_DATA "/cli_info_small.json").fromCache);
    }

    // Several instances (own connections) store and read at once: every load succeeds, every entry
    // stays readable and the database passes its integrity check.
    void concurrentWriters()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("catapult/flow.json"));
        QTemporaryDir tmp;
        const CacheOptions o = optionsIn(tmp);
        const std::vector<std::string> files = {
            test::corpusFile(QStringLiteral("catapult/flow.json")).toStdString(),
            test::corpusFile(QStringLiteral("catapult/instant_events.json")).toStdString(),
            test::corpusFile(QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz")).toStdString(),
            LANESCOPE_TEST_DATA "/cli_info_small.json"};
        std::atomic<int> failures{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int round = 0; round < 3; ++round)
                    for (size_t i = 0; i < files.size(); ++i) {
                        const LoadResult r = CachedLoader(o).load(files[(i + size_t(t)) % files.size()]);
                        if (!r.ok() || hasNotice(r, "corrupt") || hasNotice(r, "not stored") || hasNotice(r, "unavailable"))
                            ++failures;
                    }
            });
        for (auto &t : threads)
            t.join();
        QCOMPARE(failures.load(), 0);
        for (const auto &f : files) {
            const LoadResult r = CachedLoader(o).load(f);
            QVERIFY(r.fromCache);
            const LoadResult fresh = TraceLoader::load(f);
            const std::string diff = test::traceDifference(*fresh.trace, *r.trace);
            QVERIFY2(diff.empty(), diff.c_str());
        }
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open((o.dir + "/trace-cache.sqlite").c_str(), &db), SQLITE_OK);
        sqlite3_stmt *s = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, nullptr), SQLITE_OK);
        QCOMPARE(sqlite3_step(s), SQLITE_ROW);
        QCOMPARE(QByteArray(reinterpret_cast<const char *>(sqlite3_column_text(s, 0))), QByteArray("ok"));
        sqlite3_finalize(s);
        sqlite3_close(db);
    }
};

QTEST_GUILESS_MAIN(TestTraceCache)
#include "tst_tracecache.moc"
