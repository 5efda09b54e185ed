#pragma once
// What every importer takes (progress, cancel, memory budget) and returns (a trace or a clear error).
#include "importerror.h"
#include "memorybudget.h"
#include "model/trace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lanescope {

struct LoadOptions
{
    // Called with 0..1000, throttled by the caller's own logic; may be empty.
    std::function<void(int permille)> progress;
    // Checked once per chunk; when it becomes true the load stops with LoadResult::cancelled.
    const std::atomic<bool> *cancel = nullptr;
    // Upper bound for decompressed input, parse index and model memory; exceeding it is a clear error.
    // 16 GiB, or what $LANESCOPE_MEMORY_BUDGET says (memorybudget.h).
    uint64_t memoryBudget = MemoryBudget::fromEnvironment();

    // JSON event arrays are parsed in windows of about this many bytes (JsonWindowSplitter), on this
    // many threads besides the one that reads and merges (1: one window after another on the caller's
    // thread). The trace is the same for every setting; tests force tiny windows. 1 MiB: a window and
    // its parse index stay in a core's cache, and the cores start on the first window early (16 MiB
    // windows took 1.3 times as long on the 62 MB xdit trace and faulted in 2.5 times the memory).
    size_t jsonWindowBytes = size_t(1) << 20;
    unsigned jsonThreads = 2;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(int permille) const { if (progress) progress(permille); }
};

struct LoadResult
{
    std::shared_ptr<const Trace> trace; // set on success
    std::string error;                  // set on failure: "file: at byte N: problem"
    bool cancelled = false;
    // What the user should hear about that is not an error, e.g. "loaded from cache in 0.12 s" or
    // "cache entry was stale (...), rebuilt" (core/store/cachedloader.h).
    std::vector<std::string> notices;
    bool fromCache = false;
    bool ok() const { return trace != nullptr; }
};

} // namespace lanescope
