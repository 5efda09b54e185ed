// bench_systemprofile: SystemProfileImporter throughput on a large generated system_profile.json.
//   bench_systemprofile [--mb M] [--runs R] [--keep DIR] [--stream]
// Writes a system_profile.json of about M MB (default 256) in a temporary directory: 8 NeuronCores,
// per step a framework op (type 99999), nrt_tensor_write / nrt_execute / nrt_tensor_read runtime calls
// (type 11, parent_id = the op) and an nc_exec_running on the device clock (parent_id = nrt_execute),
// a timestamp_sync_point per core every 1000 steps, mem_usage and cpu_util samples. Reads it once into
// memory, imports it R times (default 3) and prints the median events/s and MB/s of the import (the
// read from disk is excluded), wall and CPU time, and the peak resident memory of the import. With
// --stream the import reads the file from disk as a stream (InputStream, windows on the cores: the
// read is included and the text is never held whole). The file is removed afterwards. Not a test.
#include "peakrss.h"

#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"
#include "io/systemprofile/systemprofileimporter.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

using namespace lanescope;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kBase = 1735689600000000000, kLag = 1700000000000000000;

void event(std::string &out, int64_t ts, int64_t dur, const char *name, int core, int type, int64_t id, int64_t parent,
           const char *extra = "")
{
    char buf[512];
    const int n = std::snprintf(buf, sizeof buf,
                                "    {\"timestamp\": %lld, \"duration\": %lld, \"name\": \"%s\", \"group\": \"%s%03d\", \"type\": %d, "
                                "\"id\": %lld, \"parent_id\": %lld, \"instance_id\": \"i-0bench\", \"process_id\": \"1234\", "
                                "\"thread_id\": %d, \"lnc_idx\": \"%d\"%s},\n",
                                static_cast<long long>(ts), static_cast<long long>(dur), name, type == 99999 ? "framework-" : "nrt-nc-",
                                type == 99999 ? 1000 + core : core, type, static_cast<long long>(id), static_cast<long long>(parent),
                                1000 + core, core, extra);
    out.append(buf, size_t(n));
}

} // namespace

int main(int argc, char **argv)
{
    uint64_t mb = 256;
    int runs = 3;
    std::string keep;
    bool stream = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--mb") && i + 1 < argc)
            mb = std::strtoull(argv[++i], nullptr, 10);
        else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--keep") && i + 1 < argc)
            keep = argv[++i];
        else if (!std::strcmp(argv[i], "--stream"))
            stream = true;
        else {
            std::fprintf(stderr, "usage: bench_systemprofile [--mb M] [--runs R] [--keep DIR]\n");
            return 2;
        }
    }
    const fs::path dir = keep.empty() ? fs::temp_directory_path() / ("lanescope-bench-sysprof-" + std::to_string(getpid())) : fs::path(keep);
    fs::create_directories(dir);
    const fs::path file = dir / "system_profile.json";

    std::string out = "{\n  \"trace_events\": [\n";
    std::string mem = "  \"mem_usage\": [\n", cpu = "  \"cpu_util\": [\n";
    const uint64_t target = mb << 20;
    int64_t id = 0, t = kBase, step = 0;
    while (out.size() + mem.size() + cpu.size() < target) {
        for (int core = 0; core < 8; ++core) {
            const int64_t start = t + core * 50'000;
            if (step % 1000 == 0) {
                char extra[128];
                std::snprintf(extra, sizeof extra, ", \"sync_host_ts\": %lld, \"sync_device_ts\": %lld", static_cast<long long>(start),
                              static_cast<long long>(start - kLag));
                event(out, start - kLag, 0, "timestamp_sync_point", core, 3, ++id, 0, extra);
            }
            const int64_t op = ++id;
            event(out, start, 40'000, "aten::matmul", core, 99999, op, 0);
            event(out, start + 1'000, 5'000, "nrt_tensor_write", core, 11, ++id, op, ", \"size\": 1048576, \"tensor_id\": 7, \"tensor_name\": \"x\"");
            const int64_t exec = ++id;
            event(out, start + 7'000, 25'000, "nrt_execute", core, 11, exec, op);
            event(out, start + 8'000 - kLag, 22'000, "nc_exec_running", core, 1, ++id, exec);
            event(out, start + 33'000, 5'000, "nrt_tensor_read", core, 11, ++id, op, ", \"size\": 1048576, \"tensor_id\": 8, \"tensor_name\": \"y\"");
        }
        char buf[256];
        std::snprintf(buf, sizeof buf, "    {\"timestamp\": %lld, \"percent_usage\": %.1f, \"usage\": %lld},\n",
                      static_cast<long long>(t), double(step % 100), static_cast<long long>(step % 100) << 20);
        mem += buf;
        std::snprintf(buf, sizeof buf, "    {\"timestamp\": %lld, \"cpu_id\": %d, \"util\": %.1f},\n", static_cast<long long>(t),
                      int(step % 8), double(step % 97));
        cpu += buf;
        t += 500'000;
        ++step;
    }
    auto close = [](std::string &s) {
        if (s.size() >= 2 && s[s.size() - 2] == ',')
            s.erase(s.size() - 2, 1);
    };
    close(out);
    close(mem);
    close(cpu);
    out += "  ],\n" + mem + "  ],\n" + cpu + "  ]\n}\n";
    {
        std::FILE *f = std::fopen(file.c_str(), "wb");
        if (!f || std::fwrite(out.data(), 1, out.size(), f) != out.size()) {
            std::fprintf(stderr, "bench_systemprofile: cannot write %s\n", file.c_str());
            return 2;
        }
        std::fclose(f);
    }
    const uint64_t bytes = out.size();
    out.clear();
    out.shrink_to_fit();

    std::vector<double> seconds, cpuSeconds; // wall and CPU time (the machine may be shared)
    uint64_t slices = 0, flows = 0, events = 0;
    uint64_t peak = 0;
    for (int r = 0; r < runs; ++r) {
        lanescope::test::resetPeakRss();
        const LoadOptions options;
        std::optional<InputBuffer> in;
        if (!stream)
            in = InputBuffer::read(file.string(), options);
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        std::optional<InputStream> streamed;
        if (stream)
            streamed.emplace(file.string(), options);
        const Trace trace = stream ? SystemProfileImporter::importStream(*streamed, options)
                                   : SystemProfileImporter::import(*in, file.string(), options);
        peak = std::max(peak, lanescope::test::peakRss());
        cpuSeconds.push_back(double(std::clock() - c0) / CLOCKS_PER_SEC);
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        slices = trace.allSlices().size();
        flows = trace.flows().size();
        events = trace.stats().eventsRead;
    }
    std::sort(seconds.begin(), seconds.end());
    std::sort(cpuSeconds.begin(), cpuSeconds.end());
    const double med = seconds[seconds.size() / 2], cpuMed = cpuSeconds[cpuSeconds.size() / 2];
    std::printf("bench_systemprofile: %.1f MB, %llu events (%llu slices, %llu flows)\n", double(bytes) / 1e6,
                static_cast<unsigned long long>(events), static_cast<unsigned long long>(slices), static_cast<unsigned long long>(flows));
    std::printf("  import median of %d: %.3f s wall, %.1f MB/s, %.2f M events/s\n", runs, med, double(bytes) / 1e6 / med,
                double(events) / 1e6 / med);
    std::printf("  import CPU time median: %.3f s, %.1f MB/s\n", cpuMed, double(bytes) / 1e6 / cpuMed);
    std::printf("  peak resident memory of the import (%s): %.1f MB, %.2f x the file\n",
                stream ? "streamed from disk" : "file read into memory first", double(peak) / 1e6, double(peak) / double(bytes));
    if (keep.empty())
        fs::remove_all(dir);
    return 0;
}
