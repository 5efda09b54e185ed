#pragma once
// Fans work out over the machine's cores: runOnCores runs one worker on each; parallelFor and
// parallelForChunks hand out items from a shared counter (the serializer's blocks, the trace
// builder's sorts and passes over the slices).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace lanescope {

// Runs `worker()` on min(maxThreads, hardware threads) threads, this thread included (at least one),
// and returns when every run has returned.
template <class F>
void runOnCores(size_t maxThreads, F &&worker)
{
    const size_t threads = std::min<size_t>(maxThreads, std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto &t : pool)
        t.join();
}

// Runs job(i) for i in [0, n) on up to maxThreads cores, each thread taking the next i from a shared
// counter (so uneven jobs balance).
template <class F>
void parallelFor(size_t n, size_t maxThreads, const F &job)
{
    std::atomic<size_t> next{0};
    runOnCores(std::min(n, maxThreads), [&] {
        for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;)
            job(i);
    });
}

// Runs fn(begin, end) over [0, n) in chunks of `chunk` items, on up to maxThreads cores.
template <class F>
void parallelForChunks(size_t n, size_t chunk, size_t maxThreads, const F &fn)
{
    parallelFor((n + chunk - 1) / chunk, maxThreads, [&](size_t c) { fn(c * chunk, std::min(n, c * chunk + chunk)); });
}

} // namespace lanescope
