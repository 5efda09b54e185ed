#include "tracecache.h"

#include "io/traceloader.h"
#include "mappedmodel.h"
#include "traceserializer.h"

#include <QStandardPaths>

#include <sqlite3.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace lanescope {

namespace {

constexpr int kSchemaVersion = 3; // PRAGMA user_version of the cache database (3: the model in .lsmodel files)
constexpr const char *kModelSuffix = ".lsmodel";
constexpr int kBusyTimeoutMs = 30000;

int64_t nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A prepared statement that finalizes itself.
class Statement
{
public:
    Statement(sqlite3 *db, const char *sql) { m_rc = sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr); }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;
    bool ok() const { return m_rc == SQLITE_OK && m_stmt; }
    sqlite3_stmt *get() const { return m_stmt; }
    Statement &bind(int i, const std::string &s)
    {
        sqlite3_bind_text(m_stmt, i, s.data(), int(s.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement &bind(int i, int64_t v)
    {
        sqlite3_bind_int64(m_stmt, i, v);
        return *this;
    }
    int step() { return sqlite3_step(m_stmt); }
    void reset() { sqlite3_reset(m_stmt); }
    int64_t i64(int c) const { return sqlite3_column_int64(m_stmt, c); }
    std::string text(int c) const
    {
        const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, c));
        return p ? std::string(p, size_t(sqlite3_column_bytes(m_stmt, c))) : std::string();
    }

private:
    sqlite3_stmt *m_stmt = nullptr;
    int m_rc = SQLITE_ERROR;
};

uint64_t envUInt(const char *name, uint64_t fallback)
{
    const char *v = std::getenv(name);
    if (!v || !*v)
        return fallback;
    char *end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    return end && *end == '\0' ? n : fallback;
}

} // namespace

CacheOptions CacheOptions::fromEnvironment()
{
    CacheOptions o;
    const char *off = std::getenv("LANESCOPE_NO_CACHE");
    o.enabled = !(off && *off && std::string(off) != "0");
    const char *dir = std::getenv("LANESCOPE_CACHE_DIR");
    if (dir && *dir)
        o.dir = dir;
    o.capBytes = envUInt("LANESCOPE_CACHE_MAX_MB", o.capBytes >> 20) << 20;
    o.verifyContent = envUInt("LANESCOPE_CACHE_VERIFY", 0) != 0;
    return o;
}

TraceCache::TraceCache(CacheOptions options) : m_options(std::move(options))
{
    if (m_options.dir.empty())
        m_options.dir = defaultDir();
    if (m_options.importerVersion == 0)
        m_options.importerVersion = TraceLoader::kImporterVersion;
}

TraceCache::~TraceCache()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

std::string TraceCache::defaultDir()
{
    const char *dir = std::getenv("LANESCOPE_CACHE_DIR");
    if (dir && *dir)
        return dir;
    // The generic location, so the GUI and the CLI (which have different application names) share it.
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation).toStdString() + "/lanescope";
}

std::string TraceCache::databasePath() const { return m_options.dir + "/trace-cache.sqlite"; }

std::string TraceCache::modelPath(const std::string &key) const
{
    // Keys are ContentFingerprint::key() (hex digits, a dash, digits); anything else is replaced.
    std::string name = key;
    for (char &c : name)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_'))
            c = '_';
    return m_options.dir + "/" + name + kModelSuffix;
}

bool TraceCache::exec(const char *sql, std::string *error)
{
    char *msg = nullptr;
    const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, &msg);
    if (rc != SQLITE_OK && error)
        *error = databasePath() + ": " + (msg ? msg : sqlite3_errstr(rc));
    sqlite3_free(msg);
    return rc == SQLITE_OK;
}

bool TraceCache::createSchema(std::string *error)
{
    // page_size applies only to a new database (before WAL is on): big pages suit big blobs.
    exec("PRAGMA page_size=65536");
    if (!exec("PRAGMA journal_mode=WAL", error))
        return false;
    exec("PRAGMA synchronous=NORMAL");
    exec("PRAGMA mmap_size=1073741824");
    // A reopen writes a row or two (last access, signature): closing must not checkpoint the WAL into
    // the database for that, with its two fsyncs (several ms of a 60 ms reopen). The WAL is
    // checkpointed by SQLite's automatic checkpoint instead, every 64 pages (4 MB of 64 KB pages, about
    // 30 reopens), and by clear().
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    exec("PRAGMA wal_autocheckpoint=64");
    if (!exec("BEGIN IMMEDIATE", error))
        return false;
    int version = -1;
    {
        Statement v(m_db, "PRAGMA user_version"); // finalized before any DROP (else "table is locked")
        version = v.ok() && v.step() == SQLITE_ROW ? int(v.i64(0)) : -1;
    }
    bool ok = true;
    if (version != kSchemaVersion) {
        // A newer or older layout: the cache is only a cache, start over.
        ok = exec("DROP TABLE IF EXISTS blocks", error) && exec("DROP TABLE IF EXISTS entries", error)
            && exec("DROP TABLE IF EXISTS signatures", error)
            && exec("CREATE TABLE signatures(source_path TEXT PRIMARY KEY, signature TEXT NOT NULL, key TEXT NOT NULL,"
                    " recorded_at INTEGER NOT NULL)",
                    error)
            && exec("CREATE TABLE entries(key TEXT PRIMARY KEY, importer_version INTEGER NOT NULL, layout TEXT NOT NULL,"
                    " source_path TEXT NOT NULL, source_size INTEGER NOT NULL, stored_bytes INTEGER NOT NULL,"
                    " created_at INTEGER NOT NULL, last_access INTEGER NOT NULL)",
                    error)
            && exec("CREATE INDEX entries_by_path ON entries(source_path)", error)
            && exec("CREATE INDEX entries_by_access ON entries(last_access)", error)
            && exec(("PRAGMA user_version=" + std::to_string(kSchemaVersion)).c_str(), error);
    }
    if (!ok) {
        exec("ROLLBACK");
        return false;
    }
    return exec("COMMIT", error);
}

bool TraceCache::open(std::string *error)
{
    if (m_db)
        return true;
    std::error_code ec;
    std::filesystem::create_directories(m_options.dir, ec);
    if (ec) {
        if (error)
            *error = m_options.dir + ": cannot create the cache folder: " + ec.message();
        return false;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
    int busyRetries = 0, freshStarts = 0;
    for (;;) {
        const int rc = sqlite3_open_v2(databasePath().c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
        if (rc == SQLITE_OK) {
            sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
            std::string why;
            if (createSchema(&why))
                return true;
            if (error)
                *error = why;
        } else if (error) {
            *error = databasePath() + ": " + sqlite3_errstr(rc);
        }
        const int code = (m_db ? sqlite3_errcode(m_db) : rc) & 0xff;
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        if ((code == SQLITE_BUSY || code == SQLITE_LOCKED) && std::chrono::steady_clock::now() < deadline) {
            // Another process is creating the schema or switching the file to WAL at the same moment:
            // SQLite reports that lock conflict at once, without the busy handler, so wait and retry.
            std::this_thread::sleep_for(std::chrono::milliseconds(std::min(10 + 10 * busyRetries++, 200)));
            continue;
        }
        if ((code != SQLITE_NOTADB && code != SQLITE_CORRUPT) || freshStarts++ == 1)
            return false;
        // Not a database (or damaged beyond use): move it aside and start a fresh one.
        std::filesystem::rename(databasePath(), databasePath() + ".corrupt", ec);
        std::filesystem::remove(databasePath() + "-wal", ec);
        std::filesystem::remove(databasePath() + "-shm", ec);
    }
}

TraceCache::Lookup TraceCache::lookup(const std::string &key, const std::string &sourcePath,
                                      const std::string &displayPath)
{
    Lookup out;
    if (!m_db)
        return out;
    const std::string layout = MappedModel::layoutTag();
    {
        Statement e(m_db, "SELECT importer_version, layout FROM entries WHERE key = ?");
        e.bind(1, key);
        if (!e.ok() || e.step() != SQLITE_ROW)
            return out;
        const auto version = uint32_t(e.i64(0));
        if (version != m_options.importerVersion || e.text(1) != layout) {
            out.status = Status::Stale;
            out.detail = version != m_options.importerVersion
                ? "made by importer version " + std::to_string(version) + ", this is version "
                    + std::to_string(m_options.importerVersion)
                : "stored in another record layout";
            e.reset();
            remove(key);
            return out;
        }
    }
    // The model is used in place: the trace's columns view the mapped file (MappedModel).
    try {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const unsigned threads = m_options.reserveCore ? std::max(1u, cores - 1) : cores;
        out.trace = std::make_shared<const Trace>(MappedModel::open(modelPath(key), displayPath, threads));
        out.status = Status::Hit;
    } catch (const StaleModelFile &e) {
        out.status = Status::Stale;
        out.detail = e.what();
        remove(key);
        return out;
    } catch (const CorruptCacheEntry &e) {
        out.status = Status::Corrupt;
        out.detail = e.what();
        remove(key);
        return out;
    }
    Statement touch(m_db, "UPDATE entries SET last_access = ?, source_path = ? WHERE key = ?");
    touch.bind(1, nowMs()).bind(2, sourcePath).bind(3, key);
    touch.step(); // best effort: a busy database only costs LRU precision
    return out;
}

bool TraceCache::dropOtherEntriesFor(const std::string &sourcePath, const std::string &key)
{
    if (!m_db)
        return false;
    std::vector<std::string> keys;
    {
        Statement s(m_db, "SELECT key FROM entries WHERE source_path = ? AND key <> ?");
        s.bind(1, sourcePath).bind(2, key);
        while (s.step() == SQLITE_ROW)
            keys.push_back(s.text(0));
    }
    for (const auto &k : keys)
        remove(k);
    return !keys.empty();
}

bool TraceCache::remove(const std::string &key)
{
    if (!m_db || !exec("BEGIN IMMEDIATE"))
        return false;
    Statement e(m_db, "DELETE FROM entries WHERE key = ?");
    e.bind(1, key);
    const bool ok = e.step() == SQLITE_DONE;
    exec(ok ? "COMMIT" : "ROLLBACK");
    // A process that mapped the file keeps reading it: unlinking does not touch a mapping.
    std::error_code ec;
    std::filesystem::remove(modelPath(key), ec);
    return ok;
}

std::string TraceCache::keyForSignature(const std::string &sourcePath, const std::string &signature)
{
    if (!m_db || signature.empty())
        return {};
    Statement s(m_db, "SELECT key FROM signatures WHERE source_path = ? AND signature = ?");
    s.bind(1, sourcePath).bind(2, signature);
    return s.step() == SQLITE_ROW ? s.text(0) : std::string();
}

void TraceCache::recordSignature(const std::string &sourcePath, const std::string &signature, const std::string &key)
{
    if (!m_db || signature.empty())
        return;
    Statement s(m_db, "INSERT OR REPLACE INTO signatures(source_path, signature, key, recorded_at) VALUES(?, ?, ?, ?)");
    s.bind(1, sourcePath).bind(2, signature).bind(3, key).bind(4, nowMs());
    s.step(); // best effort: without it the next open hashes the file again
}

bool TraceCache::contains(const std::string &key)
{
    if (!m_db)
        return false;
    Statement s(m_db, "SELECT 1 FROM entries WHERE key = ?");
    s.bind(1, key);
    return s.step() == SQLITE_ROW;
}

void TraceCache::evict(uint64_t keepBytes)
{
    // Inside the caller's transaction: oldest last_access first until the total fits.
    Statement total(m_db, "SELECT COALESCE(SUM(stored_bytes), 0) FROM entries");
    if (total.step() != SQLITE_ROW)
        return;
    auto sum = uint64_t(total.i64(0));
    if (sum <= keepBytes)
        return;
    std::vector<std::pair<std::string, uint64_t>> victims;
    {
        Statement s(m_db, "SELECT key, stored_bytes FROM entries ORDER BY last_access ASC, created_at ASC");
        while (sum > keepBytes && s.step() == SQLITE_ROW) {
            victims.emplace_back(s.text(0), uint64_t(s.i64(1)));
            sum -= std::min(sum, victims.back().second);
        }
    }
    Statement e(m_db, "DELETE FROM entries WHERE key = ?");
    std::error_code ec;
    for (const auto &[k, n] : victims) {
        e.bind(1, k).step();
        e.reset();
        std::filesystem::remove(modelPath(k), ec);
    }
}

bool TraceCache::store(const std::string &key, const std::string &sourcePath, uint64_t sourceSize, const Trace &trace,
                       std::string *error)
{
    if (!m_db) {
        if (error)
            *error = "cache is not open";
        return false;
    }
    const uint64_t bytes = MappedModel::fileSize(trace);
    if (bytes > m_options.capBytes) {
        if (error)
            *error = "the entry (" + std::to_string(bytes >> 20) + " MB) is bigger than the cache cap ("
                + std::to_string(m_options.capBytes >> 20) + " MB)";
        return false;
    }
    // The file first (written beside and renamed over: a reader that mapped the old one keeps it),
    // then its entry: an entry never names a file that is not complete.
    if (!MappedModel::write(trace, modelPath(key), error))
        return false;
    if (!exec("BEGIN IMMEDIATE", error))
        return false;
    auto fail = [&](const char *what) {
        if (error)
            *error = databasePath() + ": " + what + ": " + sqlite3_errmsg(m_db);
        exec("ROLLBACK");
        return false;
    };
    {
        Statement de(m_db, "DELETE FROM entries WHERE key = ?");
        if (de.bind(1, key).step() != SQLITE_DONE)
            return fail("removing the old entry");
        const int64_t now = nowMs();
        Statement e(m_db, "INSERT INTO entries(key, importer_version, layout, source_path, source_size, stored_bytes,"
                          " created_at, last_access) VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
        e.bind(1, key).bind(2, int64_t(m_options.importerVersion)).bind(3, MappedModel::layoutTag());
        e.bind(4, sourcePath).bind(5, int64_t(sourceSize)).bind(6, int64_t(bytes)).bind(7, now).bind(8, now);
        if (e.step() != SQLITE_DONE)
            return fail("writing the entry");
        // Older entries go first; this one has the newest last_access and stays (it fits the cap).
        evict(m_options.capBytes);
    }
    return exec("COMMIT", error);
}

bool TraceCache::clear(std::string *error)
{
    if (!m_db && !open(error))
        return false;
    if (!exec("BEGIN IMMEDIATE", error))
        return false;
    if (!exec("DELETE FROM entries", error) || !exec("DELETE FROM signatures", error)) {
        exec("ROLLBACK");
        return false;
    }
    if (!exec("COMMIT", error))
        return false;
    for (const std::string &file : modelFiles()) {
        std::error_code ec;
        std::filesystem::remove(file, ec);
    }
    // Give the space back (VACUUM fails harmlessly while another instance reads).
    exec("PRAGMA wal_checkpoint(TRUNCATE)");
    exec("VACUUM");
    return true;
}

CacheInfo TraceCache::info()
{
    CacheInfo i;
    i.path = databasePath();
    i.capBytes = m_options.capBytes;
    if (m_db) {
        Statement s(m_db, "SELECT COUNT(*), COALESCE(SUM(stored_bytes), 0) FROM entries");
        if (s.step() == SQLITE_ROW) {
            i.entries = uint64_t(s.i64(0));
            i.storedBytes = uint64_t(s.i64(1));
        }
    }
    std::error_code ec;
    for (const char *suffix : {"", "-wal"}) {
        const auto n = std::filesystem::file_size(i.path + suffix, ec);
        if (!ec)
            i.fileBytes += n;
    }
    for (const std::string &file : modelFiles()) {
        const auto n = std::filesystem::file_size(file, ec);
        if (!ec)
            i.fileBytes += n;
    }
    return i;
}

std::vector<std::string> TraceCache::modelFiles() const
{
    std::vector<std::string> out;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(m_options.dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == kModelSuffix)
            out.push_back(it->path().string());
    return out;
}

} // namespace lanescope
