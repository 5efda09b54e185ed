#pragma once
// The one entry point for opening a trace, used by the GUI (LoadJob) and the CLI: fingerprints the
// input, serves it from the TraceCache when an up-to-date entry exists, else loads it with
// TraceLoader::load and stores the result. Every cache event becomes a LoadResult notice
// ("loaded from cache in 0.12 s", "cache entry was stale (...), rebuilt"). With the cache disabled
// or unusable this is exactly TraceLoader::load (plus a notice when the cache could not be opened).
#include "io/loadoptions.h"
#include "tracecache.h"

#include <memory>
#include <string>

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
    // Writes the trace kept by the last load() (deferred mode); returns a notice, or empty.
    std::string storePending();

    const CacheOptions &options() const { return m_options; }

private:
    std::string store(const std::string &key, const std::string &path, uint64_t size, const Trace &trace);

    CacheOptions m_options;
    std::unique_ptr<TraceCache> m_cache;
    bool m_deferStore = false;
    struct Pending
    {
        std::string key, path;
        uint64_t size = 0;
        std::shared_ptr<const Trace> trace;
    } m_pending;
};

} // namespace lanescope
