// bench_chain [FILE...] [--slices N]: cost of the dependency graph (core/analysis/dependencygraph.h)
// and of chain queries.
// For each FILE (default: the corpus file tracelens/xdit_sd35_rank0.json.gz when present) and for a
// generated trace of N slices (default 20,000,000; 0 skips it: nested trees over 300 thread lanes,
// one flow per 16 slices between neighbouring lanes), prints:
//   graph build      ms, explicit edges, resident bytes per slice
//   chain            ms per query (median of 5) for the deepest slice and the root of its stack, with the
//                    node cap DependencyChain::kDefaultMaxNodes; nodes found
//   critical path    ms for the root's chain
#include "analysis/dependencychain.h"
#include "analysis/dependencygraph.h"
#include "corpus.h"
#include "io/traceloader.h"
#include "model/tracebuilder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

using Clock = std::chrono::steady_clock;
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

struct Lcg
{
    uint64_t state = 0x2545f4914f6cdd1dull;
    uint32_t next()
    {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return uint32_t(state >> 33);
    }
    uint32_t below(uint32_t n) { return next() % n; }
};

size_t addTree(TraceBuilder &b, Lcg &rng, TrackId track, StringId name, StringId cat, int64_t start, int64_t dur,
               int depth, size_t budget, std::vector<uint32_t> &added)
{
    if (budget == 0)
        return 0;
    added.push_back(b.addSlice(track, start, dur, name, cat));
    size_t n = 1;
    if (depth >= 8 || dur < 40)
        return n;
    const uint32_t kids = depth == 0 ? 1 + rng.below(3) : rng.below(4);
    const int64_t slot = kids ? dur / int64_t(kids) : 0;
    for (uint32_t k = 0; k < kids && n < budget; ++k) {
        const int64_t childDur = slot * (50 + rng.below(45)) / 100;
        n += addTree(b, rng, track, name, cat, start + int64_t(k) * slot + (slot - childDur) / 2, childDur, depth + 1,
                     budget - n, added);
    }
    return n;
}

Trace generate(size_t sliceCount)
{
    constexpr int kLanes = 300;
    TraceBuilder b;
    b.reserveSlices(sliceCount);
    Lcg rng;
    const StringId name = b.intern("op"), cat = b.intern("cpu_op"), flowCat = b.intern("fwdbwd");
    std::vector<TrackId> tracks;
    for (int p = 0; p * 10 < kLanes; ++p) {
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("python " + std::to_string(p)), {}, 100 + p);
        for (int t = 0; t < 10; ++t)
            tracks.push_back(b.addTrack(g, TrackKind::Slices, b.intern("thread " + std::to_string(t)), t + 1));
    }
    std::vector<std::vector<uint32_t>> perTrack(tracks.size());
    const size_t perThread = sliceCount / tracks.size();
    for (size_t t = 0; t < tracks.size(); ++t) {
        size_t budget = t + 1 == tracks.size() ? sliceCount - perThread * (tracks.size() - 1) : perThread;
        int64_t ts = 0;
        while (budget > 0) {
            const int64_t dur = 200'000 + rng.below(400'000);
            budget -= addTree(b, rng, tracks[t], name, cat, ts, dur, 0, budget, perTrack[t]);
            ts += dur + 1'000 + rng.below(20'000);
        }
    }
    for (size_t t = 0; t + 1 < tracks.size(); ++t) // lane t -> lane t + 1, every 16th slice
        for (size_t i = 0; i < perTrack[t].size() && i < perTrack[t + 1].size(); i += 16)
            b.addFlow(FlowEnd::slice(perTrack[t][i]), FlowEnd::slice(perTrack[t + 1][i]), flowCat, flowCat, i);
    return b.finish();
}

void run(const std::string &label, const Trace &trace)
{
    std::printf("== %s: %zu slices, %zu flows\n", label.c_str(), trace.allSlices().size(), trace.flows().size());
    const auto t0 = Clock::now();
    const DependencyGraph g = DependencyGraph::build(trace);
    const auto t1 = Clock::now();
    std::printf("  graph build      %.1f ms, %zu explicit edges, %.2f bytes/slice (%.1f MB)\n", ms(t0, t1), g.edgeCount(),
                g.bytesPerSlice(), double(g.memoryUsage()) / 1e6);
    // Probes: the deepest slice and the longest root of the track with most slices.
    const auto all = trace.allSlices();
    if (all.empty())
        return;
    uint32_t deep = UINT32_MAX;
    for (const Track &t : trace.tracks()) // thread-like tracks: on async ones depth is a row
        if (t.kind == TrackKind::Slices)
            for (uint32_t i = t.sliceBegin; i < t.sliceBegin + t.sliceCount; ++i)
                if (deep == UINT32_MAX || all[i].depth > all[deep].depth)
                    deep = i;
    if (deep == UINT32_MAX)
        return;
    uint32_t root = deep; // the root of the deepest stack
    while (g.parent(SliceId(root)).isValid())
        root = g.parent(SliceId(root)).value;
    for (const auto &[name, id] : {std::pair<const char *, uint32_t>{"deepest slice", deep}, {"root of it", root}}) {
        std::vector<double> times;
        size_t nodes = 0;
        for (int k = 0; k < 5; ++k) {
            const auto a = Clock::now();
            const DependencyChain c = DependencyChain::query(g, SliceId(id));
            times.push_back(ms(a, Clock::now()));
            nodes = c.upstream().size() + c.downstream().size();
        }
        std::sort(times.begin(), times.end());
        std::printf("  chain (%s)  %.3f ms median, %zu nodes\n", name, times[times.size() / 2], nodes);
    }
    const DependencyChain c = DependencyChain::query(g, SliceId(root));
    const auto a = Clock::now();
    int64_t total = 0;
    const auto path = c.criticalPath(&total);
    std::printf("  critical path    %.3f ms (%zu slices, %.3f ms long)\n", ms(a, Clock::now()), path.size(), double(total) / 1e6);
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<std::string> files;
    size_t slices = 20'000'000;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--slices") == 0 && i + 1 < argc)
            slices = size_t(std::strtoull(argv[++i], nullptr, 10));
        else
            files.emplace_back(argv[i]);
    }
    if (files.empty()) {
        const QString xdit = lanescope::test::corpusFile(QStringLiteral("tracelens/xdit_sd35_rank0.json.gz"));
        if (!xdit.isEmpty())
            files.push_back(xdit.toStdString());
    }
    for (const auto &f : files) {
        const LoadResult r = TraceLoader::load(f);
        if (!r.ok()) {
            std::fprintf(stderr, "bench_chain: %s\n", r.error.c_str());
            return 2;
        }
        run(f, *r.trace);
    }
    if (slices > 0) {
        const auto t0 = Clock::now();
        const Trace t = generate(slices);
        std::printf("(generated in %.1f ms)\n", ms(t0, Clock::now()));
        run("generated", t);
    }
    return 0;
}
