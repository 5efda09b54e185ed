// bench_analysis [TRACE]: milliseconds to build the LaunchIndex and compute the operator, kernel and
// device tables (what the GUI's Analysis panel recomputes on every range selection), median of 5.
// Default input: the corpus's tracelens/xdit_sd35_rank0.json.gz (62 MB of Kineto JSON).
#include "analysis/devicesummary.h"
#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using namespace lanescope;

static double medianMs(const std::function<void()> &f)
{
    std::vector<double> ms;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[2];
}

int main(int argc, char **argv)
{
    const std::string path = argc > 1 ? argv[1] : std::string(LANESCOPE_CORPUS_DEFAULT) + "/tracelens/xdit_sd35_rank0.json.gz";
    const LoadResult r = TraceLoader::load(path);
    if (!r.ok()) {
        std::fprintf(stderr, "bench_analysis: %s\n", r.error.c_str());
        return 2;
    }
    const Trace &t = *r.trace;
    LaunchIndex index;
    const double build = medianMs([&] { index = LaunchIndex::build(t); });
    OpTable::Options oo;
    const double ops = medianMs([&] { (void)OpTable::compute(t, index, oo); });
    oo.groupByShapes = true;
    const double opsShapes = medianMs([&] { (void)OpTable::compute(t, index, oo); });
    const double kernels = medianMs([&] { (void)KernelTable::compute(t, index, KernelTable::Options()); });
    const double devices = medianMs([&] { (void)DeviceSummary::compute(t, index, DeviceSummary::Options()); });
    OpTable::Options half;
    half.hasRange = true;
    half.t0 = t.startNs();
    half.t1 = t.startNs() + (t.endNs() - t.startNs()) / 2;
    const double opsRange = medianMs([&] { (void)OpTable::compute(t, index, half); });
    std::printf("bench_analysis %s\n  slices %zu, ops+runtime %zu, device work %zu\n", path.c_str(), t.allSlices().size(),
                index.opSlices().size(), index.work().size());
    std::printf("  LaunchIndex::build      %8.2f ms\n  OpTable                 %8.2f ms\n  OpTable by shapes       %8.2f ms\n"
                "  OpTable half range      %8.2f ms\n  KernelTable             %8.2f ms\n  DeviceSummary           %8.2f ms\n"
                "  all (index + 3 tables)  %8.2f ms\n",
                build, ops, opsShapes, opsRange, kernels, devices, build + ops + kernels + devices);
    return 0;
}
