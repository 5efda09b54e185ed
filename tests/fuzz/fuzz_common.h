#pragma once
// Shared by the libFuzzer harnesses: the options every harness loads with, and a walk over a loaded
// Trace that checks the model's invariants, so a reader that "succeeds" with an inconsistent model is a
// finding too (the sanitizers catch the out-of-bounds reads; checkTrace() catches the silent cases).
//
// A harness may only let ImportError (a clear error) and nothing else escape the reader; anything else
// (std::out_of_range, std::bad_alloc under the budget, LoadCancelled without a cancel flag) reaches
// libFuzzer as an uncaught exception and is reported as a crash.
#include "io/folder/profilefolder.h"
#include "io/input/inputbuffer.h"
#include "io/input/loadoptions.h"
#include "model/trace.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace lanescope::fuzz {

// A budget that keeps every run far below libFuzzer's -rss_limit_mb (2 GiB by default): a reader that
// ignores the budget shows up as an out-of-memory report instead of a slow test.
inline LoadOptions fuzzOptions()
{
    LoadOptions o;
    o.memoryBudget = uint64_t(64) << 20;
    return o;
}

[[noreturn]] inline void violated(const char *what)
{
    std::fprintf(stderr, "lanescope fuzz: model invariant violated: %s\n", what);
    std::abort();
}

#define LANESCOPE_FUZZ_CHECK(cond)                                                                          \
    do {                                                                                                    \
        if (!(cond))                                                                                        \
            ::lanescope::fuzz::violated(#cond);                                                             \
    } while (0)

// Touches every record of the model the way the views do (names, paths, ranges, parents, flows).
inline void checkTrace(const Trace &t)
{
    const size_t nStrings = t.strings().size();
    auto validString = [&](StringId id) { return !id.isValid() || id.value < nStrings; };
    volatile size_t sink = 0;

    for (const TrackGroup &g : t.groups()) {
        LANESCOPE_FUZZ_CHECK(validString(g.name));
        LANESCOPE_FUZZ_CHECK(!g.parent.isValid() || g.parent.value < t.groups().size());
        sink = sink + t.str(g.name).size();
    }
    const auto slices = t.allSlices();
    const auto instants = t.allInstants();
    const auto counters = t.allCounterSamples();
    for (uint32_t ti = 0; ti < t.tracks().size(); ++ti) {
        const Track &tr = t.tracks()[ti];
        const TrackId id(ti);
        LANESCOPE_FUZZ_CHECK(validString(tr.name));
        LANESCOPE_FUZZ_CHECK(tr.group.isValid() && tr.group.value < t.groups().size());
        LANESCOPE_FUZZ_CHECK(uint64_t(tr.sliceBegin) + tr.sliceCount <= slices.size());
        LANESCOPE_FUZZ_CHECK(uint64_t(tr.instantBegin) + tr.instantCount <= instants.size());
        LANESCOPE_FUZZ_CHECK(uint64_t(tr.counterBegin) + tr.counterCount <= counters.size());
        sink = sink + t.trackPath(id).size();
        const auto s = t.slices(id);
        for (size_t i = 0; i < s.size(); ++i) {
            LANESCOPE_FUZZ_CHECK(s[i].duration >= 0);
            LANESCOPE_FUZZ_CHECK(s[i].duration <= tr.maxDuration);
            int64_t end = 0;
            LANESCOPE_FUZZ_CHECK(!__builtin_add_overflow(s[i].start, s[i].duration, &end));
            LANESCOPE_FUZZ_CHECK(i == 0 || s[i - 1].start <= s[i].start);
            LANESCOPE_FUZZ_CHECK(s[i].depth <= tr.maxDepth);
            LANESCOPE_FUZZ_CHECK(validString(s[i].name) && validString(s[i].category));
            const SliceId sid = t.sliceId(id, uint32_t(i));
            LANESCOPE_FUZZ_CHECK(t.trackOfSlice(sid) == id);
            const SliceId p = t.parent(sid);
            LANESCOPE_FUZZ_CHECK(!p.isValid() || t.trackOfSlice(p) == id);
            sink = sink + t.str(s[i].name).size();
        }
        if (!s.empty()) {
            // What the timeline asks for: the whole track, and a window in the middle.
            const auto all = t.sliceRange(id, t.startNs(), t.endNs());
            LANESCOPE_FUZZ_CHECK(all.first <= all.second && all.second <= s.size());
            const int64_t mid = s[s.size() / 2].start;
            const auto part = t.sliceRange(id, mid, mid);
            LANESCOPE_FUZZ_CHECK(part.first <= part.second && part.second <= s.size());
        }
        const auto in = t.instants(id);
        for (size_t i = 0; i < in.size(); ++i)
            LANESCOPE_FUZZ_CHECK(validString(in[i].name));
        const auto c = t.counterSamples(id);
        for (size_t i = 1; i < c.size(); ++i)
            LANESCOPE_FUZZ_CHECK(c[i - 1].ts <= c[i].ts);
    }
    for (const Flow &f : t.flows()) {
        LANESCOPE_FUZZ_CHECK(f.from.isValid() && f.from.value < slices.size());
        LANESCOPE_FUZZ_CHECK(f.to.isValid() && f.to.value < slices.size());
        sink = sink + t.flowsFrom(f.from).size() + t.flowsTo(f.to).size();
    }
    LANESCOPE_FUZZ_CHECK(t.empty() || t.startNs() <= t.endNs());
    for (const Warning &w : t.diagnostics().warnings())
        sink = sink + Diagnostics::format(w).size();
    sink = sink + t.memoryUsage();
    (void)sink;
}

inline std::string_view asView(const uint8_t *data, size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

// What the JSON harnesses run: the bytes (possibly gzip/zstd/zip) through InputBuffer and
// `Importer::import` under the fuzz options. A loaded trace must keep the model's invariants; an
// error must name the file.
template <typename Importer>
void importAndCheck(std::string_view bytes, const std::string &name)
{
    const LoadOptions options = fuzzOptions();
    try {
        InputBuffer input = InputBuffer::fromBytes(bytes, name, options);
        checkTrace(Importer::import(input, name, options));
    } catch (const ImportError &e) {
        LANESCOPE_FUZZ_CHECK(e.file() == name);
    }
}

// The folder harnesses' scan of their scratch tree: an existing, readable folder always scans, so an
// error here is a finding.
inline ProfileFolder scanFolder(const std::string &root, const LoadOptions &options)
{
    try {
        return ProfileFolder::scan(root, options);
    } catch (const ImportError &e) {
        std::fprintf(stderr, "lanescope fuzz: %s\n", e.what());
        violated("the scan of an existing, readable folder failed");
    }
}

} // namespace lanescope::fuzz
