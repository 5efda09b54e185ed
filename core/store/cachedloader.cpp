#include "cachedloader.h"

#include "contentfingerprint.h"
#include "io/traceloader.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace lanescope {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string seconds(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f s", s);
    return buf;
}

std::string absolutePath(const std::string &path)
{
    std::error_code ec;
    const auto p = std::filesystem::absolute(path, ec);
    std::string out = ec ? path : p.lexically_normal().string();
    while (out.size() > 1 && out.back() == '/')
        out.pop_back();
    return out;
}

} // namespace

CachedLoader::CachedLoader(CacheOptions options) : m_options(std::move(options)) {}

CachedLoader::~CachedLoader() = default;

LoadResult CachedLoader::load(const std::string &path, const LoadOptions &options)
{
    m_pending = {};
    if (!m_options.enabled)
        return TraceLoader::load(path, options);
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::string> notices;
    ContentFingerprint fp;
    try {
        fp = ContentFingerprint::ofPath(path);
    } catch (const std::exception &) {
        return TraceLoader::load(path, options); // it names the file and the problem
    }
    const double hashSeconds = secondsSince(t0);
    if (options.cancelled()) {
        LoadResult r;
        r.cancelled = true;
        r.error = path + ": load cancelled";
        return r;
    }
    const std::string key = fp.key();
    const std::string source = absolutePath(path);
    if (!m_cache) {
        m_cache = std::make_unique<TraceCache>(m_options);
        std::string error;
        if (!m_cache->open(&error)) {
            m_cache.reset();
            LoadResult r = TraceLoader::load(path, options);
            r.notices.push_back("trace cache unavailable (" + error + "); loaded without it");
            return r;
        }
    }
    options.report(0);
    std::string display = path; // what the importers record: a folder without trailing slashes
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        while (display.size() > 1 && display.back() == '/')
            display.pop_back();
    TraceCache::Lookup hit = m_cache->lookup(key, source, display);
    if (hit.status == TraceCache::Status::Hit) {
        LoadResult r;
        r.trace = std::move(hit.trace);
        r.fromCache = true;
        r.notices.push_back("loaded from cache in " + seconds(secondsSince(t0)) + " (fingerprint " + seconds(hashSeconds)
                            + ")");
        options.report(1000);
        return r;
    }
    if (hit.status == TraceCache::Status::Stale)
        notices.push_back("cache entry was stale (" + hit.detail + "), rebuilt");
    else if (hit.status == TraceCache::Status::Corrupt)
        notices.push_back("cache entry was corrupt (" + hit.detail + "), rebuilt");
    else if (m_cache->dropOtherEntriesFor(source, key))
        notices.push_back("cache entry was stale (the file changed since it was cached), rebuilt");

    LoadResult r = TraceLoader::load(path, options);
    r.notices.insert(r.notices.begin(), notices.begin(), notices.end());
    if (!r.ok())
        return r;
    if (m_deferStore) {
        m_pending = Pending{key, source, fp.size, r.trace};
        return r;
    }
    const std::string stored = store(key, source, fp.size, *r.trace);
    if (!stored.empty())
        r.notices.push_back(stored);
    return r;
}

std::string CachedLoader::store(const std::string &key, const std::string &path, uint64_t size, const Trace &trace)
{
    if (!m_cache)
        return {};
    std::string error;
    if (!m_cache->store(key, path, size, trace, &error))
        return "not stored in the trace cache: " + error;
    return {};
}

std::string CachedLoader::storePending()
{
    if (!m_pending.trace)
        return {};
    Pending p = std::move(m_pending);
    m_pending = {};
    return store(p.key, p.path, p.size, *p.trace);
}

} // namespace lanescope
