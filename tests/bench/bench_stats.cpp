// bench_stats [OCCURRENCES]: milliseconds for DurationStats on one name with 1 M occurrences (default)
// among as many slices of other names, built with lanescope::TraceBuilder on 8 threads of one
// process (random durations 1 us - 10 ms, log-uniform), median of 5. Target: under 50 ms.
#include "analysis/durationstats.h"
#include "model/tracebuilder.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

struct Lcg
{
    uint64_t s = 0x9E3779B97F4A7C15ull;
    uint32_t next()
    {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return uint32_t(s >> 33);
    }
    double unit() { return double(next()) / double(1u << 31); }
};

} // namespace

int main(int argc, char **argv)
{
    const size_t n = argc > 1 ? size_t(std::strtoull(argv[1], nullptr, 10)) : 1000000;
    TraceBuilder b;
    const StringId name = b.intern("aten::mul"), other = b.intern("aten::add"), cat = b.intern("cpu_op");
    const GroupId g = b.addGroup(GroupKind::Process, b.intern("python 1"), {}, 1);
    std::vector<TrackId> tracks;
    for (int t = 0; t < 8; ++t)
        tracks.push_back(b.addTrack(g, TrackKind::Slices, b.intern("thread " + std::to_string(t)), t + 1));
    b.reserveSlices(2 * n);
    Lcg rng;
    std::vector<int64_t> at(tracks.size(), 0);
    for (size_t i = 0; i < 2 * n; ++i) {
        const size_t t = i % tracks.size();
        const auto dur = int64_t(1000.0 * std::pow(10.0, 4.0 * rng.unit())); // 1 us .. 10 ms
        b.addSlice(tracks[t], at[t], dur, i % 2 ? other : name, cat);
        at[t] += dur + 100;
    }
    const Trace trace = b.finish();
    DurationStats::Options o;
    o.pattern = QStringLiteral("^aten::mul$");
    std::vector<double> ms, cpu;
    uint64_t count = 0;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        const auto r = DurationStats::compute(trace, o);
        cpu.push_back(1000.0 * double(std::clock() - c0) / CLOCKS_PER_SEC);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        count = r.rows.empty() ? 0 : r.rows.front().count;
    }
    std::sort(ms.begin(), ms.end());
    std::sort(cpu.begin(), cpu.end());
    // CPU time too: on a shared machine the wall time includes waiting for a core.
    std::printf("bench_stats: %zu slices, %llu occurrences of aten::mul\n"
                "  DurationStats::compute  wall median %8.2f ms, max %8.2f ms; CPU median %8.2f ms (target < 50 ms)\n",
                trace.allSlices().size(), (unsigned long long)count, ms[2], ms[4], cpu[2]);
    return 0;
}
