// bench_cache [FILE] [RUNS]: first load vs reopening from the trace cache (core/store).
//
// Prints, each the median of RUNS (default 3) runs, for FILE (default: the corpus file
// tracelens/xdit_sd35_rank0.json.gz):
//   first load      TraceLoader::load (read + decompress + parse + build), what an uncached open costs;
//   store           CachedLoader::storePending: the model file written (MappedModel) + its SQLite entry
//                   (the GUI does this after showing the trace, so it is not part of the first open);
//   fingerprint     ContentFingerprint::ofPath alone (hashing every byte of the file), what a reopen
//                   costs extra when the file's stat signature changed (or LANESCOPE_CACHE_VERIFY=1);
//   cache load      CachedLoader::load on a warm cache: stat signature + SQLite lookup + mapping the
//                   model file (its header checks, the strings interned again, the index checks); the
//                   columns are views of the mapping, nothing is copied
//                   (the file was written more than 2 s before, else it is hashed: see CachedLoader);
//   touch every     reading every slice, arg, flow, instant and counter of the reopened trace once (what
//                   the page faults of the mapping cost the first reader that needs all of it);
//   zstd entry      for comparison, the earlier cache form: TraceSerializer::deserialize of the
//                   compressed blocks held in memory (checksums, zstd, unshuffling into owned arrays);
// with MB/s of the input file, CPU seconds, the model file size and the ratio first/cache (target >= 25).
// Where the cache load goes: "open" (TraceCache::open: the SQLite file, its pragmas and schema check,
// paid once per CachedLoader) and "map" (MappedModel::open alone); the rest is the fingerprint memo,
// the SQLite lookup and the entry's access time. Process to process (with the first frame and peak
// memory): tests/bench/bench_reopen.sh.
// The cache lives in a temporary folder that is removed afterwards (never the user's cache).
#include "io/traceloader.h"
#include "store/cachedloader.h"
#include "store/mappedmodel.h"
#include "store/tracecache.h"
#include "store/traceserializer.h"
#include "util/contentfingerprint.h"

#include <QTemporaryDir>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0 : (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// CPU seconds of the process (all threads, user + system): on a loaded machine the wall clock
// mostly measures the other processes.
double cpuNow()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    const std::string file = argc > 1 ? argv[1] : std::string(LANESCOPE_CORPUS_DEFAULT) + "/tracelens/xdit_sd35_rank0.json.gz";
    const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) {
        std::printf("SKIP: %s not found (pass a trace file or folder)\n", file.c_str());
        return 0;
    }
    QTemporaryDir tmp;
    CacheOptions options;
    options.enabled = true;
    options.dir = tmp.path().toStdString();
    options.capBytes = uint64_t(64) << 30;
    const double mb = double(ContentFingerprint::ofPath(file).size) / 1e6;

    std::vector<double> first, store, hash, cached, firstCpu, cachedCpu, opens, maps, touches, restores;
    size_t slices = 0;
    std::shared_ptr<const Trace> loaded;
    for (int i = 0; i < runs; ++i) {
        auto t0 = Clock::now();
        const double c0 = cpuNow();
        const LoadResult r = TraceLoader::load(file);
        first.push_back(since(t0));
        firstCpu.push_back(cpuNow() - c0);
        if (!r.ok()) {
            std::fprintf(stderr, "bench_cache: %s\n", r.error.c_str());
            return 1;
        }
        slices = r.trace->allSlices().size();
        loaded = r.trace;
    }
    {
        CachedLoader writer(options);
        writer.setDeferStore(true);
        const LoadResult r = writer.load(file);
        if (!r.ok() || r.fromCache) {
            std::fprintf(stderr, "bench_cache: the first load failed or came from the cache\n");
            return 1;
        }
        const auto t0 = Clock::now();
        const std::string notice = writer.storePending();
        store.push_back(since(t0));
        if (!notice.empty()) {
            std::fprintf(stderr, "bench_cache: %s\n", notice.c_str());
            return 1;
        }
    }
    for (int i = 0; i < runs; ++i) {
        auto t0 = Clock::now();
        ContentFingerprint::ofPath(file);
        hash.push_back(since(t0));
        t0 = Clock::now();
        const double c0 = cpuNow();
        const LoadResult r = CachedLoader(options).load(file);
        cached.push_back(since(t0));
        cachedCpu.push_back(cpuNow() - c0);
        if (!r.fromCache || r.trace->allSlices().size() != slices) {
            std::fprintf(stderr, "bench_cache: reopening did not come from the cache\n");
            return 1;
        }
    }
    const std::string model = TraceCache(options).modelPath(ContentFingerprint::ofPath(file).key());
    uint64_t checksum = 0; // keeps the reads
    for (int i = 0; i < runs; ++i) {
        auto t0 = Clock::now();
        TraceCache opened(options);
        opened.open(nullptr);
        opens.push_back(since(t0));
        t0 = Clock::now();
        const Trace mapped = MappedModel::open(model, file);
        maps.push_back(since(t0));
        t0 = Clock::now();
        for (const Slice &sl : mapped.allSlices())
            checksum += uint64_t(sl.duration) + sl.name.value;
        for (uint32_t a = 0; a < mapped.args().setCount(); ++a)
            for (const Arg &arg : mapped.args().args(ArgSetId(a)))
                checksum += arg.value.u;
        for (const Flow &f : mapped.flows())
            checksum += f.externalId;
        for (const Instant &in : mapped.allInstants())
            checksum += uint64_t(in.ts);
        for (const CounterSample &c : mapped.allCounterSamples())
            checksum += uint64_t(c.ts);
        touches.push_back(since(t0));
    }
    const std::vector<CacheBlock> blocks = TraceSerializer::serialize(*loaded);
    for (int i = 0; i < runs; ++i) {
        std::vector<CacheBlock> copy = blocks;
        const auto t0 = Clock::now();
        const Trace restored = TraceSerializer::deserialize(std::move(copy), file);
        restores.push_back(since(t0));
        if (restored.allSlices().size() != slices)
            return 1;
    }
    TraceCache cache(options);
    cache.open(nullptr);
    const CacheInfo info = cache.info();
    const double f = median(first), s = median(store), h = median(hash), c = median(cached);
    const double fc = median(firstCpu), cc = median(cachedCpu);
    std::printf("file            %s (%.1f MB on disk, %zu slices)\n", file.c_str(), mb, slices);
    std::printf("first load      %.3f s  %8.1f MB/s   cpu %.3f s\n", f, mb / f, fc);
    std::printf("store           %.3f s  (model file %.1f MB; the model uses %.1f MB in memory)\n", s,
                double(info.storedBytes) / 1e6, double(loaded->memoryUsage()) / 1e6);
    std::printf("fingerprint     %.3f s  %8.1f MB/s   (hashing every byte; skipped while stat() says unchanged)\n", h, mb / h);
    std::printf("cache load      %.3f s  %8.1f MB/s   cpu %.3f s\n", c, mb / c, cc);
    const double o = median(opens), m = median(maps), d = median(restores);
    std::printf("  of which       open %.3f s, map %.3f s, lookup and the rest %.3f s\n", o, m, std::max(0.0, c - o - m));
    std::printf("touch every     %.3f s  (every record of the reopened trace read once; checksum %llu)\n", median(touches),
                static_cast<unsigned long long>(checksum % 1000));
    std::printf("zstd entry      %.3f s  (the earlier cache form: %.1f MB of zstd blocks restored into owned arrays)\n", d,
                double(std::accumulate(blocks.begin(), blocks.end(), uint64_t(0),
                                       [](uint64_t n, const CacheBlock &b) { return n + b.data.size(); }))
                    / 1e6);
    std::printf("ratio           %.1fx faster from the cache, %.1fx less cpu (target >= 25x: %s)\n", f / c, fc / cc,
                f / c >= 25 ? "met" : "NOT met");
    return 0;
}
