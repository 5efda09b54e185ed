// TraceCache and CachedLoader: a second open is served from the cache and equals the first; a file
// changed in place (same size, mtime restored), a new importer version, damaged blocks and a damaged
// database are detected and rebuilt with a notice; LRU eviction under a cap; concurrent writers; a
// multi-rank set (folder or files given together) keyed over all its files.
// Every case uses its own temporary cache folder, never the user's cache.
#include "corpusorsample.h"
#include "traceequal.h"

#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"
#include "store/cachedloader.h"
#include "store/tracecache.h"
#include "util/contentfingerprint.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

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

// Runs one SQL statement against the cache database, as a damaging outsider would.
bool tamper(const CacheOptions &o, const char *sql)
{
    sqlite3 *db = nullptr;
    const std::string path = o.dir + "/trace-cache.sqlite";
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
        return false;
    sqlite3_busy_timeout(db, 10000);
    const bool ok = sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK && sqlite3_changes(db) > 0;
    sqlite3_close(db);
    return ok;
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

    void corruptEntryIsRebuilt_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated blob") << QStringLiteral("UPDATE blocks SET data = substr(data, 1, length(data) - 4) WHERE column_name = 'slices'")
                                        << QStringLiteral("corrupt");
        QTest::newRow("zeroed blob") << QStringLiteral("UPDATE blocks SET data = zeroblob(40) WHERE column_name = 'tracks'")
                                     << QStringLiteral("tracks part 0: checksum mismatch");
        QTest::newRow("checksum mismatch") << QStringLiteral("UPDATE blocks SET checksum = checksum + 1 WHERE column_name = 'strings.bytes'")
                                           << QStringLiteral("checksum mismatch");
        QTest::newRow("missing block") << QStringLiteral("DELETE FROM blocks WHERE column_name = 'header'")
                                       << QStringLiteral("missing");
    }

    void corruptEntryIsRebuilt()
    {
        QFETCH(QString, sql);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const std::string file = LANESCOPE_TEST_DATA "/cli_info_small.json";
        const CacheOptions o = optionsIn(tmp);
        const LoadResult first = CachedLoader(o).load(file);
        QVERIFY(first.ok());
        QVERIFY(tamper(o, sql.toUtf8().constData()));
        const LoadResult r = CachedLoader(o).load(file);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(!r.fromCache);
        QVERIFY2(hasNotice(r, "cache entry was corrupt"), notices(r).c_str());
        QVERIFY2(hasNotice(r, expected.toUtf8().constData()), notices(r).c_str());
        const std::string diff = test::traceDifference(*first.trace, *r.trace);
        QVERIFY2(diff.empty(), diff.c_str());
        const LoadResult again = CachedLoader(o).load(file);
        QVERIFY(again.fromCache);
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
