// libFuzzer harness: rank detection (core/io/ranks): RankDetection on names and trace heads, and
// RankClock on the clocks the multi-rank loader can hand it. The load of a folder of rank files is
// fuzz_rankload (every file imported: a few hundred times slower per input).
//
// Input: the first line is a path (fromFileName, fromPath), the rest the head of a trace (fromHead,
// fromDistributedInfo); the same bytes also describe up to 8 rank clocks for RankClock::align.
//
// Oracles: a rank found in a name is the digits after a "rank" in it; fromHead reads the first
// complete distributedInfo object, so bytes after it change nothing; RankClock keeps the lowest rank
// at offset 0, says which rule placed each rank and places it by that rule's numbers, and never
// shifts a time the trace builder keeps past int64 (TraceMerger adds the offset as it is).
#include "fuzz_common.h"

#include "io/ranks/rankclock.h"
#include "io/ranks/rankdetection.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

// The times TraceBuilder keeps (tracebuilder.cpp clamps every time into this range).
constexpr int64_t kMinTime = -(int64_t(1) << 60);
constexpr int64_t kMaxTime = (int64_t(1) << 62) - (int64_t(1) << 60);

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

void checkName(std::string_view path)
{
    const int64_t r = RankDetection::fromFileName(path);
    LANESCOPE_FUZZ_CHECK(r >= -1 && r <= 999999999);
    const std::string_view name = path.substr(path.find_last_of('/') == std::string_view::npos ? 0 : path.find_last_of('/') + 1);
    if (r >= 0) {
        const std::string n = lower(name);
        LANESCOPE_FUZZ_CHECK(n.find("rank") != std::string::npos && n.find(std::to_string(r)) != std::string::npos);
    }
    const RankOrigin o = RankDetection::fromPath(path);
    if (!o.found()) {
        LANESCOPE_FUZZ_CHECK(r < 0 && o.source.empty());
    } else if (o.source == "file name") {
        LANESCOPE_FUZZ_CHECK(o.rank == r);
    } else {
        LANESCOPE_FUZZ_CHECK(r < 0 && o.source == "folder name");
        LANESCOPE_FUZZ_CHECK(o.rank == RankDetection::fromFileName(path.substr(0, path.find_last_of('/'))));
    }
}

void checkHead(std::string_view head)
{
    const int64_t r = RankDetection::fromHead(head);
    LANESCOPE_FUZZ_CHECK(r >= -1);
    // The first complete distributedInfo object decides: more text after it changes nothing.
    if (r >= 0)
        LANESCOPE_FUZZ_CHECK(RankDetection::fromHead(std::string(head) + "}\"distributedInfo\": {\"rank\": 7}}") == r);
    LANESCOPE_FUZZ_CHECK(RankDetection::fromDistributedInfo(head) >= -1);
}

// Reads the bytes as little-endian numbers, zeros past the end.
struct Bytes
{
    std::string_view b;
    size_t at = 0;
    uint64_t u64()
    {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i, ++at)
            v |= uint64_t(at < b.size() ? uint8_t(b[at]) : 0) << (8 * i);
        return v;
    }
    uint8_t u8() { return at < b.size() ? uint8_t(b[at++]) : (++at, 0); }
};

// Clocks as MultiRankLoader makes them: ranks >= 0, baseTimeNanoseconds any int64 (std::stoll of the
// metadata), first steps and starts in the builder's time range.
void checkClock(std::string_view bytes)
{
    Bytes in{bytes};
    const size_t n = 1 + in.u8() % 8;
    std::vector<RankClock::Input> clocks(n);
    const auto time = [&] { return std::clamp(int64_t(in.u64()), kMinTime, kMaxTime); };
    for (RankClock::Input &c : clocks) {
        const uint8_t flags = in.u8();
        c.rank = (flags & 4) ? int64_t(in.u64() & INT64_MAX) : int64_t(in.u8() % 4);
        if (flags & 1)
            c.baseNs = (flags & 8) ? int64_t(in.u64()) : int64_t(in.u64() % 4000000000000000000ull); // any, or a real epoch
        c.startNs = time();
        if (flags & 2)
            c.firstStepNs = std::max(c.startNs, time());
    }
    const std::vector<RankClock::Placement> placed = RankClock::align(clocks);
    LANESCOPE_FUZZ_CHECK(placed.size() == n);
    size_t ref = 0;
    for (size_t i = 1; i < n; ++i)
        if (clocks[i].rank < clocks[ref].rank)
            ref = i;
    const bool allBases = std::all_of(clocks.begin(), clocks.end(), [](const RankClock::Input &c) { return c.baseNs.has_value(); });
    LANESCOPE_FUZZ_CHECK(placed[ref].offset == 0);
    const RankClock::Input &r = clocks[ref];
    for (size_t i = 0; i < n; ++i) {
        const RankClock::Placement &p = placed[i];
        const RankClock::Input &c = clocks[i];
        LANESCOPE_FUZZ_CHECK(!p.note.empty() && std::strlen(RankClock::ruleName(p.rule)) > 0);
        (void)RankClock::distanceText(p.apartNs);
        (void)RankClock::distanceText(p.offset);
        if (i == ref)
            continue;
        switch (p.rule) {
        case RankClockRule::BaseTime: {
            LANESCOPE_FUZZ_CHECK(allBases);
            int64_t diff = 0;
            LANESCOPE_FUZZ_CHECK(!__builtin_sub_overflow(*c.baseNs, *r.baseNs, &diff) && p.offset == diff);
            break;
        }
        case RankClockRule::FirstStep: LANESCOPE_FUZZ_CHECK(c.firstStepNs && r.firstStepNs && p.offset == *r.firstStepNs - *c.firstStepNs); break;
        case RankClockRule::TraceStart: LANESCOPE_FUZZ_CHECK(p.offset == r.startNs - c.startNs); break;
        }
        // Every time the rank can hold, shifted, is still an int64 (TraceMerger adds without a check).
        int64_t moved = 0;
        LANESCOPE_FUZZ_CHECK(!__builtin_add_overflow(kMinTime, p.offset, &moved) && !__builtin_add_overflow(kMaxTime, p.offset, &moved));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view bytes = fuzz::asView(data, size);
    const size_t eol = bytes.find('\n');
    const std::string_view path = bytes.substr(0, std::min<size_t>(eol, 4096));
    checkName(path);
    checkHead(eol == std::string_view::npos ? std::string_view() : bytes.substr(eol + 1));
    checkClock(bytes);
    return 0;
}
