// bench_load [FILE] [RUNS]: throughput of the Kineto / Chrome JSON importer on one file.
//
// Prints, each as the median of RUNS (default 5) runs over the same decompressed bytes in memory:
//   decompression   InputBuffer::read of the file (file read + gzip/zstd/zip), reported on its own;
//   (a) bare pass   simdjson On-Demand visiting every field of every event (ph/name/cat read as
//                   strings, every other value's raw token) with a fresh parser per run, like a load:
//                   the floor any On-Demand importer pays. Reference lines: the same with a reused
//                   (warm) parser, and the same also reading every field inside "args";
//   (b) import      ChromeJsonImporter::import of the same bytes (InputBuffer::fromBytes copy made
//                   outside the timed region), the full TraceLoader path minus decompression;
// with MB/s and events/s, resident bytes per slice of the model, and the ratio (b)/(a) (target <= 1.5).
// FILE defaults to the corpus file tracelens/xdit_sd35_rank0.json.gz.
//
// bench_load --floor FILE: the process-to-process yardstick of run-benchmarks.sh: reads and
// decompresses FILE and makes the bare pass (a) once, single-threaded, and exits. A load
// (`lanescope-cli info FILE`) timed as a whole process against it gives the "at most 1.0 times a
// single-threaded simdjson scan of the same bytes" ratio.
#include "io/chrome/chromejsonimporter.h"
#include "io/input/inputbuffer.h"

#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

using namespace lanescope;
namespace sj = simdjson::ondemand;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0 : (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

// Seconds of each run; `prepare` runs untimed before each.
std::vector<double> timeRuns(int runs, const std::function<void()> &prepare, const std::function<void()> &work)
{
    std::vector<double> out;
    for (int i = 0; i < runs; ++i) {
        if (prepare)
            prepare();
        const auto t0 = Clock::now();
        work();
        out.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    return out;
}

struct BareResult
{
    uint64_t events = 0;
    uint64_t checksum = 0; // keeps the compiler from dropping the reads
    std::string error;
};

// Reads every field of an args object (strings unescaped, other values as raw tokens).
void visitArgs(sj::value v, BareResult &r)
{
    sj::object args;
    if (v.get_object().get(args) != simdjson::SUCCESS)
        return;
    for (auto fr : args) {
        sj::field f;
        if (std::move(fr).get(f))
            return;
        r.checksum += f.unescaped_key().value_unsafe().size();
        sj::value a = f.value();
        std::string_view s;
        if (a.get_string().get(s) == simdjson::SUCCESS)
            r.checksum += s.size();
        else
            r.checksum += a.raw_json_token().size();
    }
}

void visitEvents(sj::array events, BareResult &r, bool withArgs)
{
    for (auto er : events) {
        sj::object obj;
        if (er.get_object().get(obj) != simdjson::SUCCESS) {
            ++r.events;
            continue;
        }
        ++r.events;
        for (auto fr : obj) {
            sj::field f;
            if (std::move(fr).get(f)) {
                r.error = "invalid field";
                return;
            }
            const std::string_view key = f.unescaped_key().value_unsafe();
            sj::value v = f.value();
            std::string_view s;
            if (key == "ph" || key == "name" || key == "cat") {
                if (v.get_string().get(s) == simdjson::SUCCESS)
                    r.checksum += s.size() + uint8_t(s.empty() ? 0 : s[0]);
            } else if (withArgs && key == "args") {
                visitArgs(v, r);
            } else {
                // ts, dur, pid, tid, id, args...: the raw token; unread objects/arrays are skipped
                // by the iterator when it moves to the next field.
                s = v.raw_json_token();
                r.checksum += s.size();
            }
        }
    }
}

// With warm == nullptr a fresh parser is made inside the pass, as the importer makes one per load:
// its index allocation (page faults on a first touch) is then paid by both sides of the ratio.
BareResult bareOnDemand(const InputBuffer &input, bool withArgs, sj::parser *warm)
{
    sj::parser fresh;
    sj::parser &parser = warm ? *warm : fresh;
    BareResult r;
    simdjson::padded_string_view psv(input.data(), input.size(), input.capacity());
    sj::document doc;
    if (auto err = parser.iterate(psv).get(doc)) {
        r.error = simdjson::error_message(err);
        return r;
    }
    sj::json_type t;
    if (doc.type().get(t)) {
        r.error = "not JSON";
        return r;
    }
    if (t == sj::json_type::array) {
        sj::array a;
        if (doc.get_array().get(a) == simdjson::SUCCESS)
            visitEvents(a, r, withArgs);
        return r;
    }
    sj::object top;
    if (doc.get_object().get(top)) {
        r.error = "top level is neither an object nor an array";
        return r;
    }
    for (auto fr : top) {
        sj::field f;
        if (std::move(fr).get(f)) {
            r.error = "invalid top-level field";
            return r;
        }
        if (f.unescaped_key().value_unsafe() == "traceEvents") {
            sj::array a;
            if (f.value().get_array().get(a) == simdjson::SUCCESS)
                visitEvents(a, r, withArgs);
        }
    }
    return r;
}

std::string defaultFile()
{
    const char *env = std::getenv("LANESCOPE_CORPUS");
    const std::string dir = env && *env ? env : LANESCOPE_CORPUS_DEFAULT;
    return dir + "/tracelens/xdit_sd35_rank0.json.gz";
}

} // namespace

int floorPass(const std::string &path)
{
    try {
        const InputBuffer input = InputBuffer::read(path, LoadOptions());
        const BareResult r = bareOnDemand(input, false, nullptr);
        if (!r.error.empty()) {
            std::printf("bench_load --floor: %s\n", r.error.c_str());
            return 1;
        }
        std::printf("bench_load --floor: %llu events, %zu bytes, checksum %llu\n", static_cast<unsigned long long>(r.events),
                    input.size(), static_cast<unsigned long long>(r.checksum % 1000));
        return 0;
    } catch (const std::exception &e) {
        std::printf("bench_load --floor: %s\n", e.what());
        return 1;
    }
}

int main(int argc, char **argv)
{
    if (argc == 3 && std::string(argv[1]) == "--floor")
        return floorPass(argv[2]);
    const std::string path = argc > 1 ? argv[1] : defaultFile();
    const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        std::printf("bench_load: SKIP: %s not found (corpus absent? set LANESCOPE_CORPUS or pass a file)\n",
                    path.c_str());
        return 0;
    }
    const LoadOptions options;
    std::printf("bench_load: %s (median of %d runs)\n", path.c_str(), runs);

    // Decompression (and file read), timed on its own.
    InputBuffer source;
    std::vector<double> readTimes;
    try {
        readTimes = timeRuns(runs, nullptr, [&] { source = InputBuffer::read(path, options); });
    } catch (const std::exception &e) {
        std::printf("bench_load: cannot read %s: %s\n", path.c_str(), e.what());
        return 1;
    }
    const double mb = double(source.size()) / 1e6;
    const double readS = median(readTimes);
    std::printf("  input             %.1f MB on disk, %.1f MB decompressed (%s)\n",
                double(source.compressedSize()) / 1e6, mb, InputBuffer::compressionName(source.compression()));
    std::printf("  read+decompress   %8.3f s  %8.0f MB/s of output\n", readS, mb / readS);
    const std::string bytes(source.view());
    source = InputBuffer();

    // (a) bare simdjson On-Demand pass.
    InputBuffer input;
    auto fresh = [&] { input = InputBuffer::fromBytes(bytes, path, options); };
    BareResult bare;
    const double bareS = median(timeRuns(runs, fresh, [&] { bare = bareOnDemand(input, false, nullptr); }));
    if (!bare.error.empty()) {
        std::printf("bench_load: bare pass failed: %s\n", bare.error.c_str());
        return 1;
    }
    std::printf("  (a) bare simdjson %8.3f s  %8.0f MB/s  %8.2f M events/s  (%llu events, checksum %llu)\n", bareS,
                mb / bareS, double(bare.events) / bareS / 1e6, static_cast<unsigned long long>(bare.events),
                static_cast<unsigned long long>(bare.checksum % 1000));

    // For reference only (not the ratio's baseline): a reused, already allocated parser, and the
    // fresh-parser pass that also reads every field inside "args".
    sj::parser warmParser;
    BareResult warm = bareOnDemand(input, false, &warmParser);
    const double warmS = median(timeRuns(runs, fresh, [&] { warm = bareOnDemand(input, false, &warmParser); }));
    std::printf("      warm parser   %8.3f s  %8.0f MB/s  %8.2f M events/s  (reference: parser reused across runs)\n",
                warmS, mb / warmS, double(warm.events) / warmS / 1e6);
    BareResult bareArgs;
    const double bareArgsS = median(timeRuns(runs, fresh, [&] { bareArgs = bareOnDemand(input, true, nullptr); }));
    std::printf("      + args fields %8.3f s  %8.0f MB/s  %8.2f M events/s  (reference: also reads every args value)\n",
                bareArgsS, mb / bareArgsS, double(bareArgs.events) / bareArgsS / 1e6);

    // (b) full import of the same bytes.
    Trace trace;
    std::string error;
    const double importS = median(timeRuns(
        runs,
        [&] {
            fresh();
            trace = Trace();
        },
        [&] {
            try {
                trace = ChromeJsonImporter::import(input, path, options);
            } catch (const std::exception &e) {
                error = e.what();
            }
        }));
    if (!error.empty()) {
        std::printf("bench_load: import failed: %s\n", error.c_str());
        return 1;
    }
    const uint64_t events = trace.stats().eventsRead;
    const size_t slices = trace.allSlices().size();
    std::printf("  (b) import        %8.3f s  %8.0f MB/s  %8.2f M events/s  (%llu events, %zu slices, %zu flows)\n",
                importS, mb / importS, double(events) / importS / 1e6, static_cast<unsigned long long>(events), slices,
                trace.flows().size());
    std::printf(
        "  resident          %.1f bytes/slice (slice records + index), model total %.1f MB (%.1f bytes/event)\n",
        slices ? double(trace.sliceResidentBytes()) / double(slices) : 0.0, double(trace.memoryUsage()) / 1e6,
        events ? double(trace.memoryUsage()) / double(events) : 0.0);
    const double ratio = importS / bareS;
    std::printf("  ratio (b)/(a)     %.2f  (target <= 1.5: %s)\n", ratio, ratio <= 1.5 ? "met" : "NOT met");
    std::printf("  load incl. decompression ~%.3f s  (%.0f MB/s of JSON)\n", readS + importS, mb / (readS + importS));
    return 0;
}
