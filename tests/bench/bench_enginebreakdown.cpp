// bench_enginebreakdown: time of EngineBreakdown::compute (whole trace, 120 buckets) and of a range
// of half the trace, on the given traces (NTFF, neuron-profile JSON, folders).
//   bench_enginebreakdown [--runs R] [--generate N] PATH...
// Without PATH: the largest NTFF of the corpus (neuron-cs149-asst4/stream_256k_fd1k.ntff) when
// present. --generate N adds a synthetic NeuronCore trace of N instructions over the 5 engines (a
// wait every 8th, overlaps on Tensor, 64 layers of consecutive instructions as neuron-profile JSON names
// them) plus N/4 DMA packets on 32 queues. Also times OpBreakdown by layer (engines --by layer) on the
// same trace, as a ratio to the engine breakdown measured in the same run. Not a test.
#include "analysis/enginebreakdown.h"
#include "analysis/opbreakdown.h"
#include "model/hierarchynames.h"
#include "io/traceloader.h"
#include "model/trace.h"
#include "model/tracebuilder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <array>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

double medianMs(const Trace &trace, const EngineBreakdown::Options &o, int runs, size_t &rows)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const EngineBreakdownResult r = EngineBreakdown::compute(trace, o);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        rows = r.engines.size() + r.dma.size();
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

Trace generate(size_t n)
{
    TraceBuilder b;
    const GroupId core = b.addGroup(GroupKind::NeuronCore, b.intern("NeuronCore 0"));
    const std::array<const char *, 5> lanes = {"Tensor", "Vector", "Scalar", "GpSimd", "Sync"};
    std::array<TrackId, 5> tracks;
    for (size_t i = 0; i < lanes.size(); ++i)
        tracks[i] = b.addTrack(core, TrackKind::Async, b.intern(lanes[i]));
    const std::array<StringId, 4> ops = {b.intern("MATMUL"), b.intern("ACTIVATE"), b.intern("TENSOR_LOAD"),
                                         b.intern("DRAIN")};
    const StringId wait = b.intern("EVENT_SEMAPHORE"), cat = b.intern("instruction");
    std::mt19937_64 rng(42);
    b.reserveSlices(n + n / 4);
    std::array<int64_t, 5> t{};
    const StringId kLayer = b.intern(HierarchyNames::kLayer.arg);
    std::vector<ArgSetId> layers;
    for (int l = 0; l < 64; ++l) {
        const std::array<Arg, 1> args = {Arg::makeString(kLayer, b.intern("layer_" + std::to_string(l)))};
        layers.push_back(b.addArgs(args));
    }
    for (size_t i = 0; i < n; ++i) {
        const size_t e = i % 5;
        const int64_t dur = 20 + int64_t(rng() % 400);
        b.addSlice(tracks[e], t[e], dur, i % 8 == 0 ? wait : ops[rng() % ops.size()], cat, layers[i * 64 / std::max<size_t>(n, 1)]);
        t[e] += e == 0 ? dur / 2 : dur + int64_t(rng() % 200); // Tensor instructions overlap
    }
    const StringId kSize = b.intern("transfer_size"), dmaName = b.intern("DMA packet"), dmaCat = b.intern("dma");
    std::vector<TrackId> queues;
    for (int q = 0; q < 32; ++q)
        queues.push_back(b.addTrack(core, TrackKind::Async, b.intern("q" + std::to_string(q))));
    std::vector<int64_t> qt(queues.size(), 0);
    for (size_t i = 0; i < n / 4; ++i) {
        const size_t q = i % queues.size();
        const std::array<Arg, 1> args = {Arg::makeInt(kSize, 2048)};
        b.addSlice(queues[q], qt[q], 100, dmaName, dmaCat, b.addArgs(args));
        qt[q] += 100 + int64_t(rng() % 1000);
    }
    return b.finish();
}

void bench(const std::string &name, const Trace &trace, double loadMs, int runs)
{
    size_t rows = 0;
    EngineBreakdown::Options whole;
    whole.buckets = 120;
    const double wholeMs = medianMs(trace, whole, runs, rows);
    const EngineBreakdownResult w = EngineBreakdown::compute(trace, whole);
    EngineBreakdown::Options half = whole;
    half.startNs = w.startNs;
    half.endNs = w.startNs + (w.endNs - w.startNs) / 2;
    size_t halfRows = 0;
    const double halfMs = medianMs(trace, half, runs, halfRows);
    const double slices = double(trace.allSlices().size());
    std::printf("%s\n  %.0f slices, load %.1f ms; breakdown whole trace %.3f ms (%.1f M slices/s, %zu rows), "
                "first half %.3f ms (median of %d)\n",
                name.c_str(), slices, loadMs, wholeMs, slices / wholeMs / 1e3, rows, halfMs, runs);
    std::vector<double> ms;
    size_t layerRows = 0;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        layerRows = OpBreakdown::compute(trace, OpBreakdown::By::Layer).rows.size();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("  by layer %.3f ms (%zu rows, %.2fx the engine breakdown)\n", ms[ms.size() / 2], layerRows,
                wholeMs > 0 ? ms[ms.size() / 2] / wholeMs : 0.0);
}

} // namespace

int main(int argc, char **argv)
{
    int runs = 5;
    size_t generated = 0;
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--generate" && i + 1 < argc)
            generated = size_t(std::max(0LL, std::atoll(argv[++i])));
        else
            paths.push_back(a);
    }
    if (generated) {
        const auto g0 = std::chrono::steady_clock::now();
        const Trace trace = generate(generated);
        bench("generated " + std::to_string(generated) + " instructions", trace,
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g0).count(), runs);
    }
    if (paths.empty() && !generated) {
        const char *env = std::getenv("LANESCOPE_CORPUS");
        const std::filesystem::path corpus = env ? env : LANESCOPE_CORPUS_DEFAULT;
        const auto file = corpus / "neuron-cs149-asst4" / "stream_256k_fd1k.ntff";
        if (!std::filesystem::exists(file)) {
            std::printf("bench_enginebreakdown: no PATH given and %s not found; skipped\n", file.c_str());
            return 0;
        }
        paths.push_back(file.string());
    }
    for (const std::string &path : paths) {
        const auto l0 = std::chrono::steady_clock::now();
        const LoadResult loaded = TraceLoader::load(path);
        const double loadMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - l0).count();
        if (!loaded.ok()) {
            std::fprintf(stderr, "bench_enginebreakdown: %s\n", loaded.error.c_str());
            return 2;
        }
        bench(path, *loaded.trace, loadMs, runs);
    }
    return 0;
}
