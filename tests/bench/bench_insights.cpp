// bench_insights: time of Insights::run after load (LaunchIndex built once beforehand, as the GUI
// keeps it; also the time with the index), median of R runs, on the given traces.
//   bench_insights [--runs R] PATH...
// Without PATH: the TraceLens xdit trace of the corpus (tracelens/xdit_sd35_rank0.json.gz), the
// issue 17 target (< 100 ms after load); `make bench` also runs it on the ~1 GB trace gen_kineto
// tiles from that file (target < 2 s). Wall clock and this thread's CPU time (the rules run on one
// thread; on a loaded machine the wall clock also counts waiting for a core), then each rule alone.
// Not a test.
#include "benchinputs.h"

#include "analysis/devicesummary.h"
#include "analysis/enginebreakdown.h"
#include "analysis/insights/insightcontext.h"
#include "analysis/insights/insights.h"
#include "analysis/insights/keymetrics.h"
#include "analysis/insights/ruleregistry.h"
#include "analysis/kerneltable.h"
#include "analysis/optable.h"
#include "analysis/launchindex.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <algorithm>
#include <ctime>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

double ms(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// CPU time of this thread in ms: on a shared, loaded machine the wall clock also counts the time
// other processes held the cores (insights run on one thread).
double cpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    int runs = 5;
    std::vector<std::string> paths;
    if (!lanescope::test::benchInputs(argc, argv, "bench_insights", runs, paths))
        return 2;
    for (const std::string &path : paths) {
        auto t0 = std::chrono::steady_clock::now();
        const LoadResult loaded = TraceLoader::load(path);
        if (!loaded.ok()) {
            std::fprintf(stderr, "bench_insights: %s\n", loaded.error.c_str());
            return 2;
        }
        const double loadMs = ms(t0);
        const Trace &trace = *loaded.trace;
        std::vector<double> withIndex, after, tables, afterCpu;
        size_t findings = 0;
        for (int r = 0; r < runs; ++r) {
            t0 = std::chrono::steady_clock::now();
            const LaunchIndex index = LaunchIndex::build(trace);
            const double indexMs = ms(t0);
            t0 = std::chrono::steady_clock::now();
            const double c0 = cpuMs();
            findings = Insights::run(trace, index, {}).findings.size();
            afterCpu.push_back(cpuMs() - c0);
            after.push_back(ms(t0));
            withIndex.push_back(after.back() + indexMs);
            // The tables the rules read, alone (what the Analysis docks compute anyway).
            t0 = std::chrono::steady_clock::now();
            (void)OpTable::compute(trace, index, {});
            (void)KernelTable::compute(trace, index, {});
            (void)DeviceSummary::compute(trace, index, {});
            (void)EngineBreakdown::compute(trace);
            tables.push_back(ms(t0));
        }
        // Per rule, after the tables (computed once per context) are in place.
        {
            const LaunchIndex index = LaunchIndex::build(trace);
            InsightContext ctx(trace, index, {});
            t0 = std::chrono::steady_clock::now();
            double c0 = cpuMs();
            ctx.ops();
            ctx.kernels();
            ctx.devices();
            ctx.busyIntervals();
            ctx.engines();
            ctx.launchCounts();
            std::printf("  context tables + launch counts: %.1f ms (cpu %.1f ms)\n", ms(t0), cpuMs() - c0);
            t0 = std::chrono::steady_clock::now();
            c0 = cpuMs();
            (void)KeyMetrics::compute(ctx);
            std::printf("  key metrics: %.1f ms (cpu %.1f ms)\n", ms(t0), cpuMs() - c0);
            for (const auto &rule : RuleRegistry::defaults().rules()) {
                std::vector<Finding> out;
                t0 = std::chrono::steady_clock::now();
                c0 = cpuMs();
                rule->evaluate(ctx, out);
                std::printf("  %-18s %.2f ms (cpu %.2f ms)\n", std::string(rule->id()).c_str(), ms(t0), cpuMs() - c0);
            }
        }
        std::sort(after.begin(), after.end());
        std::sort(withIndex.begin(), withIndex.end());
        std::sort(tables.begin(), tables.end());
        std::sort(afterCpu.begin(), afterCpu.end());
        std::printf("%s: %zu slices, load %.0f ms; insights %.1f ms after load (cpu %.1f ms; %.1f ms with the LaunchIndex; the op, kernel, "
                    "device and engine tables alone %.1f ms), %zu findings, median of %d\n",
                    std::filesystem::path(path).filename().c_str(), trace.allSlices().size(), loadMs, after[after.size() / 2],
                    afterCpu[afterCpu.size() / 2], withIndex[withIndex.size() / 2], tables[tables.size() / 2], findings, runs);
    }
    return 0;
}
