#pragma once
// Fans one worker out over the machine's cores: the chunked hashing of a file and the serializer's
// parallel blocks both run a worker that takes its next item from a shared atomic counter.
#include <algorithm>
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

} // namespace lanescope
