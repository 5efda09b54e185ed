#pragma once
// The one entry point for opening a trace, used by the GUI (LoadJob) and the CLI: fingerprints the
// input (content hash, or the key recorded for its unchanged stat signature: ContentFingerprint),
// serves it from the TraceCache when an up-to-date entry exists, else loads it with
// TraceLoader::load and stores the result. Every cache event becomes a LoadResult notice
// ("loaded from cache in 0.12 s", "cache entry was stale (...), rebuilt"). With the cache disabled
// or unusable this is exactly TraceLoader::load (plus a notice when the cache could not be opened).
#include "io/input/loadoptions.h"
#include "tracecache.h"

#include <memory>
#include <string>
#include <vector>

namespace lanescope {

class CachedLoader
{
public:
    explicit CachedLoader(CacheOptions options = CacheOptions::fromEnvironment());
    ~CachedLoader();

    // When set, load() does not write a freshly loaded trace; storePending() does (the GUI shows the
    // trace first and stores it afterwards on its worker thread).
    void setDeferStore(bool defer) { m_deferStore = defer; }
    LoadResult load(const std::string &path, const LoadOptions &options = {});
    // Several files given together: one multi-rank trace (MultiRankLoader::loadFiles), cached under
    // the content of all of them (ContentFingerprint::ofPaths); one path is load(path).
    LoadResult load(const std::vector<std::string> &paths, const LoadOptions &options = {});
    // Writes the trace kept by the last load() (deferred mode); returns a notice, or empty.
    std::string storePending();

    const CacheOptions &options() const { return m_options; }

private:
    CacheOptions m_options;
    std::unique_ptr<TraceCache> m_cache;
    bool m_deferStore = false;
    struct Pending
    {
        std::string key, path, signature;
        uint64_t size = 0;
        std::shared_ptr<const Trace> trace;
    } m_pending;
};

} // namespace lanescope
