#include "cachedloader.h"

#include "io/ntff/ntffopcodenaming.h"
#include "io/ranks/multirankloader.h"
#include "io/traceloader.h"
#include "util/contentfingerprint.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
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
    return load(std::vector<std::string>{path}, options);
}

LoadResult CachedLoader::load(const std::vector<std::string> &paths, const LoadOptions &options)
{
    m_pending = {};
    // One path: a file or a folder (TraceLoader); several: a rank set given together (MultiRankLoader).
    const bool set = paths.size() > 1;
    const std::string path = set ? MultiRankLoader::title(paths) : paths.empty() ? std::string() : paths.front();
    auto loadUncached = [&] { return set ? MultiRankLoader::loadFiles(paths, options) : TraceLoader::load(path, options); };
    if (!m_options.enabled)
        return loadUncached();
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::string> notices;
    std::string source = set ? "rank set:" : absolutePath(path);
    if (set)
        for (const std::string &p : paths)
            source += "\n" + absolutePath(p);
    if (!m_cache) {
        m_cache = std::make_unique<TraceCache>(m_options);
        std::string error;
        if (!m_cache->open(&error)) {
            m_cache.reset();
            LoadResult r = loadUncached();
            r.notices.push_back("trace cache unavailable (" + error + "); loaded without it");
            return r;
        }
    }
    options.report(0);

    // The content key: from the signature memo when stat() says nothing changed since the file was
    // last hashed (ctime included, which no tool can set back), else by hashing every byte.
    // An NTFF's trace also depends on the neuron-profile export beside it (opcode names, layers): its
    // content is part of the key, so adding, changing or removing the export rebuilds the entry.
    std::vector<std::string> keyed = paths;
    if (!set)
        for (const std::string &n : NtffOpcodeNaming::neighbours(path))
            keyed.push_back(n);
    const ContentFingerprint::StatSignature sig = ContentFingerprint::statSignature(keyed);
    const auto nowNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
    // A file changed within the last seconds could change again within the same timestamp tick
    // (coarse file system clocks): such a signature is not trusted later ("racy git").
    const bool sigTrustworthy = !sig.hex.empty() && sig.newestNs < nowNs - int64_t(2'000'000'000);
    std::string key = m_options.verifyContent ? std::string() : m_cache->keyForSignature(source, sig.hex);
    const bool hashed = key.empty();
    uint64_t size = 0;
    if (hashed) {
        try {
            const ContentFingerprint fp = ContentFingerprint::ofPaths(keyed);
            key = fp.key();
            size = fp.size;
        } catch (const std::exception &) {
            return loadUncached(); // it names the file and the problem
        }
    } else {
        const size_t dash = key.rfind('-');
        size = dash == std::string::npos ? 0 : std::strtoull(key.c_str() + dash + 1, nullptr, 10);
    }
    const double hashSeconds = secondsSince(t0);
    if (options.cancelled()) {
        LoadResult r;
        r.cancelled = true;
        r.error = path + ": load cancelled";
        return r;
    }
    std::string display = path; // what the importers record: a folder without trailing slashes
    std::error_code ec;
    if (!set && std::filesystem::is_directory(path, ec))
        while (display.size() > 1 && display.back() == '/')
            display.pop_back();
    const std::string signature = sigTrustworthy ? sig.hex : std::string();
    TraceCache::Lookup hit = m_cache->lookup(key, source, display);
    if (hit.status == TraceCache::Status::Hit) {
        m_cache->recordSignature(source, signature, key);
        LoadResult r;
        r.trace = std::move(hit.trace);
        r.fromCache = true;
        r.notices.push_back("loaded from cache in " + seconds(secondsSince(t0))
                            + (hashed ? " (content hashed in " + seconds(hashSeconds) + ")"
                                      : std::string(" (file unchanged since it was hashed)")));
        options.report(1000);
        return r;
    }
    if (hit.status == TraceCache::Status::Stale)
        notices.push_back("cache entry was stale (" + hit.detail + "), rebuilt");
    else if (hit.status == TraceCache::Status::Corrupt)
        notices.push_back("cache entry was corrupt (" + hit.detail + "), rebuilt");
    else if (m_cache->dropOtherEntriesFor(source, key))
        notices.push_back("cache entry was stale (the file changed since it was cached), rebuilt");

    LoadResult r = loadUncached();
    r.notices.insert(r.notices.begin(), notices.begin(), notices.end());
    if (!r.ok())
        return r;
    m_pending = Pending{key, source, signature, size, r.trace};
    if (m_deferStore)
        return r;
    const std::string stored = storePending();
    if (!stored.empty())
        r.notices.push_back(stored);
    return r;
}

std::string CachedLoader::storePending()
{
    if (!m_pending.trace || !m_cache)
        return {};
    Pending p = std::move(m_pending);
    m_pending = {};
    std::string error;
    if (!m_cache->store(p.key, p.path, p.size, *p.trace, &error))
        return "not stored in the trace cache: " + error;
    m_cache->recordSignature(p.path, p.signature, p.key);
    return {};
}

} // namespace lanescope
