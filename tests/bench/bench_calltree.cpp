// bench_calltree: the call tree (issue 30) after load, median of R runs, on the given traces.
//   bench_calltree [--runs R] PATH...
// Without PATH: the TraceLens xdit trace of the corpus (tracelens/xdit_sd35_rank0.json.gz; target:
// the tree in under 200 ms); `make bench` also runs it on the ~1 GB trace gen_kineto tiles from that
// file (target < 3 s). What the Flame Graph dock waits for, each on its own:
//   tree        CallTree::compute, each thread apart, with the occurrences the dock keeps
//   merged      CallTree::compute with the threads merged
//   bottom-up   CallTreeBottomUp::compute over the tree (the dock's "Self time")
//   folded      CallTree::folded (what `lanescope-cli tree --format folded` writes)
//   source      SourceLines::compute over the merged tree (the Source dock and `lanescope-cli source`
//               wait for the merged tree, then this)
// The LaunchIndex is built once beforehand (the Session keeps one per trace). Baseline, measured in
// the same run: one pass over every slice that reads its start, duration, depth and name (the floor
// any tree over the slices pays); each time is also printed as a multiple of it. Not a test.
#include "benchinputs.h"

#include "analysis/calltree.h"
#include "analysis/calltreebottomup.h"
#include "analysis/launchindex.h"
#include "analysis/sourcelines.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

double ms(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double timeIt(int runs, const std::function<void()> &work)
{
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        work();
        t.push_back(ms(t0));
    }
    return median(t);
}

} // namespace

int main(int argc, char **argv)
{
    int runs = 5;
    std::vector<std::string> paths;
    if (!lanescope::test::benchInputs(argc, argv, "bench_calltree", runs, paths))
        return 2;
    int status = 0;
    for (const std::string &path : paths) {
        auto t0 = std::chrono::steady_clock::now();
        const LoadResult loaded = TraceLoader::load(path);
        if (!loaded.ok()) {
            std::fprintf(stderr, "bench_calltree: %s\n", loaded.error.c_str());
            return 2;
        }
        const double loadMs = ms(t0);
        const Trace &trace = *loaded.trace;
        t0 = std::chrono::steady_clock::now();
        const LaunchIndex index = LaunchIndex::build(trace);
        const double indexMs = ms(t0);

        volatile int64_t sink = 0;
        const double floor = timeIt(runs, [&] {
            int64_t s = 0;
            for (const Slice &x : trace.allSlices())
                s += x.start + x.duration + x.depth + x.name.value;
            sink = s;
        });
        CallTree::Options each;
        each.keepOccurrences = true;
        CallTree::Result tree;
        const double treeMs = timeIt(runs, [&] { tree = CallTree::compute(trace, index, each); });
        CallTree::Options merged;
        merged.mergeThreads = true;
        CallTree::Result mergedTree;
        const double mergedMs = timeIt(runs, [&] { mergedTree = CallTree::compute(trace, index, merged); });
        const size_t mergedNodes = mergedTree.nodes.size();
        size_t sourceLines = 0, sourceFiles = 0;
        const double sourceMs = timeIt(runs, [&] {
            const std::vector<SourceFile> files = SourceLines::compute(mergedTree);
            sourceFiles = files.size();
            sourceLines = 0;
            for (const SourceFile &f : files)
                sourceLines += f.lines.size();
        });
        size_t upNodes = 0;
        const double upMs = timeIt(runs, [&] { upNodes = CallTreeBottomUp::compute(tree).nodes.size(); });
        size_t foldedBytes = 0;
        const double foldedMs = timeIt(runs, [&] { foldedBytes = CallTree::folded(tree, CallTree::Weight::Cpu).size(); });

        const double slices = double(trace.allSlices().size());
        const bool big = std::filesystem::file_size(path) > (512ull << 20);
        const double goal = big ? 3000 : 200;
        std::printf("%s: %.0f slices, load %.0f ms, LaunchIndex %.0f ms; median of %d\n", std::filesystem::path(path).filename().c_str(),
                    slices, loadMs, indexMs, runs);
        std::printf("  floor (one pass over the slices) %8.1f ms\n", floor);
        std::printf("  tree (each thread, occurrences)  %8.1f ms  %5.1fx floor  %.1f M slices/s  %zu nodes, %zu occurrences\n", treeMs,
                    treeMs / floor, slices / treeMs / 1e3, tree.nodes.size(), tree.occurrences.size());
        std::printf("  merged threads                   %8.1f ms  %5.1fx floor  %zu nodes\n", mergedMs, mergedMs / floor, mergedNodes);
        std::printf("  bottom-up                        %8.1f ms  %5.1fx floor  %zu nodes\n", upMs, upMs / floor, upNodes);
        std::printf("  folded                           %8.1f ms  %5.1fx floor  %.1f MB\n", foldedMs, foldedMs / floor, double(foldedBytes) / 1e6);
        std::printf("  source lines (merged tree ->)    %8.1f ms  %5.1fx floor  %zu files, %zu lines\n", sourceMs, sourceMs / floor, sourceFiles,
                    sourceLines);
        const double dock = treeMs + upMs;
        std::printf("  goal: the tree in under %.0f ms: %.0f ms, %s (tree + bottom-up %.0f ms)\n", goal, treeMs, treeMs < goal ? "met" : "NOT met",
                    dock);
        if (treeMs >= goal)
            status = 1;
        (void)sink;
    }
    return status;
}
