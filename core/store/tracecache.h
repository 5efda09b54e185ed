#pragma once
// The per-user cache of loaded traces: one SQLite database (WAL, busy timeout, every change in one
// transaction, so concurrent instances share it safely) indexing each trace's model file
// (<dir>/<key>.lsmodel, MappedModel: the model's arrays as they are in memory, memory-mapped and used in
// place on reopen), keyed by the content fingerprint and size of the input and the importer version.
// Least-recently-used entries (and their files) are evicted once the stored bytes exceed a cap.
//
//   entries(key PRIMARY KEY, importer_version, layout, source_path, source_size, stored_bytes,
//           created_at, last_access)   -- layout: MappedModel::layoutTag(); stored_bytes: the file's size
//   signatures(source_path PRIMARY KEY, signature, key, recorded_at)
//     -- the content key last hashed for a path and the stat signature it had then (ContentFingerprint)
#include "model/trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct sqlite3;

namespace lanescope {

struct CacheOptions
{
    bool enabled = true;
    std::string dir;                           // empty: TraceCache::defaultDir()
    uint64_t capBytes = uint64_t(4) << 30;     // stored bytes (model files) kept at most
    uint32_t importerVersion = 0;              // 0: TraceLoader::kImporterVersion (tests set others)
    // Hash the whole input on every open even when its stat signature (ctime included) is the one
    // recorded when it was last hashed. Env LANESCOPE_CACHE_VERIFY=1.
    bool verifyContent = false;
    // Leave a core to the caller's thread while an entry is opened: its checks run side by side only
    // where a core is left over. The window's preload sets it (its GUI thread builds the window
    // meanwhile, and the window is what the user waits for); everything else waits for the load.
    bool reserveCore = false;

    // enabled unless LANESCOPE_NO_CACHE=1; dir from LANESCOPE_CACHE_DIR; cap from LANESCOPE_CACHE_MAX_MB.
    static CacheOptions fromEnvironment();
};

struct CacheInfo
{
    std::string path;
    uint64_t entries = 0;
    uint64_t storedBytes = 0;
    uint64_t fileBytes = 0; // the database file (and its WAL) and the model files on disk
    uint64_t capBytes = 0;
};

class TraceCache
{
public:
    enum class Status { Hit, Miss, Stale, Corrupt };
    struct Lookup
    {
        Status status = Status::Miss;
        std::shared_ptr<const Trace> trace; // on Hit
        std::string detail;                 // on Stale / Corrupt: why
    };

    explicit TraceCache(CacheOptions options);
    ~TraceCache();
    TraceCache(const TraceCache &) = delete;
    TraceCache &operator=(const TraceCache &) = delete;

    // $LANESCOPE_CACHE_DIR, else <generic cache location>/lanescope.
    static std::string defaultDir();
    std::string databasePath() const;
    // The model file of an entry.
    std::string modelPath(const std::string &key) const;
    // Opens (creating) the database. A file that is not a database is moved aside and recreated.
    bool open(std::string *error);
    bool isOpen() const { return m_db != nullptr; }

    // key: ContentFingerprint::key(); sourcePath: the absolute path (recorded for staleness checks);
    // displayPath: the path as the user gave it (the restored trace's metadata says it). A stale or
    // corrupt entry is removed before returning.
    Lookup lookup(const std::string &key, const std::string &sourcePath, const std::string &displayPath);
    // Entries stored for `sourcePath` under another key (the file changed since); removed.
    bool dropOtherEntriesFor(const std::string &sourcePath, const std::string &key);
    // Stores (replacing) the entry, then evicts least-recently-used entries over the cap. An entry
    // bigger than the cap on its own is not stored (returns false with the reason).
    bool store(const std::string &key, const std::string &sourcePath, uint64_t sourceSize, const Trace &trace,
               std::string *error);
    bool remove(const std::string &key);
    // The content key recorded for `sourcePath` when it had this stat signature, or empty.
    std::string keyForSignature(const std::string &sourcePath, const std::string &signature);
    void recordSignature(const std::string &sourcePath, const std::string &signature, const std::string &key);
    bool clear(std::string *error);
    CacheInfo info();
    bool contains(const std::string &key);

private:
    bool exec(const char *sql, std::string *error = nullptr);
    void evict(uint64_t keepBytes);
    std::vector<std::string> modelFiles() const;
    bool createSchema(std::string *error);

    CacheOptions m_options;
    sqlite3 *m_db = nullptr;
};

} // namespace lanescope
