// bench_ntff: NtffReader throughput on a large generated NTFF.
//   bench_ntff [--records N] [--runs R] [--keep DIR]
// Generates a v5 NTFF with NtffWriter (default 30 million 16-byte records: instruction begin/end
// pairs on 5 engines, pipelined DMA packets on 16 engines x 2 queues, semaphore updates, throttle
// rows) in a temporary directory, reads it once into memory, then decodes it R times (default 3)
// and prints the median records/s and MB/s. The file is removed afterwards. Not a test.
#include "io/ntff/ntffreader.h"
#include "io/synthetic/ntffwriter.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

using namespace lanescope;
namespace fs = std::filesystem;

namespace {

NtffProfile benchLayout()
{
    NtffProfile layout;
    layout.uuid = "a08a1d38c5ac4a80844d420a60bec4bb";
    layout.neffName = "bench.neff";
    layout.runtimeVersion = "2.29.40 (f954c)";
    layout.driverVersion = "2.25.0 ()";
    layout.collectivesVersion = "2.29.41 ()";
    layout.instanceType = "trn1.32xlarge";
    layout.subgraphName = "sg00";
    // 4096 instructions per engine: NOTIFY start at pc 0, a realistic opcode mix, NOTIFY end last
    const std::vector<uint8_t> mix = {0x01, 0x02, 0x21, 0xa0, 0xa2, 0xa4, 0xa5, 0xaa, 0xab, 0xb8, 0x41};
    for (int e = 1; e <= kNtffEngineCount; ++e) {
        std::vector<uint8_t> ops(4096), hints(4096, 0);
        for (size_t pc = 0; pc < ops.size(); ++pc)
            ops[pc] = mix[(pc * 7 + size_t(e)) % mix.size()];
        ops.front() = ops.back() = 0xa6;
        hints.front() = 2;
        hints.back() = 3;
        NtffProgram p = NtffWriter::makeProgram(static_cast<NtffEngine>(e), ops, hints);
        p.runtimeBlocks = {{0, 40, 0}, {41, 1, 2}, {4000, 96, 0}};
        layout.programs.push_back(std::move(p));
    }
    for (uint32_t e = 0; e < 16; ++e) {
        layout.dmaQueues.push_back({e, 0, 2, "qPoolDynamic", {}});
        layout.dmaQueues.push_back({e, 1, 2, "qSPSpillReload0", {}});
    }
    return layout;
}

// About 70 % instruction records, 22 % DMA, 8 % events, a few throttle rows.
void generate(NtffWriter &w, uint64_t targetRecords)
{
    std::mt19937_64 rng(42);
    for (int e = 1; e <= kNtffEngineCount; ++e)
        w.addInstruction(static_cast<NtffEngine>(e), 0, 0, 1000);
    std::vector<int64_t> engineTime(kNtffEngineCount, 2000);
    int64_t dmaTime = 2000, eventTime = 2000, throttleTime = 2000;
    uint64_t step = 0;
    while (w.recordCount() < targetRecords) {
        const uint64_t r = rng();
        const uint32_t kind = uint32_t(r % 100);
        if (kind < 70) {
            const size_t e = (r >> 8) % kNtffEngineCount;
            const uint32_t pc = 1 + uint32_t((r >> 16) % 4094);
            const int64_t b = engineTime[e] + int64_t((r >> 32) % 5000);
            const int64_t d = 100 + int64_t((r >> 44) % 20000);
            w.addInstruction(static_cast<NtffEngine>(e + 1), pc, b, b + d, uint32_t((r >> 20) % 64), uint16_t(r >> 24),
                             uint16_t(r >> 40));
            engineTime[e] = b + d;
        } else if (kind < 92) {
            const uint32_t engine = uint32_t((r >> 8) % 16), queue = uint32_t((r >> 12) % 2);
            dmaTime += int64_t((r >> 16) % 3000);
            w.addDmaPacket(engine, queue, dmaTime, dmaTime + 2000 + int64_t((r >> 32) % 50000),
                           uint32_t(4 + (r >> 40) % 65536), uint16_t(r >> 48));
        } else if (kind < 99 || step % 1000) {
            eventTime += int64_t((r >> 16) % 4000);
            w.addSemaphoreUpdate(uint8_t(r >> 8), eventTime, uint32_t(r >> 32), uint8_t(1 + (r >> 24) % 6));
        } else {
            throttleTime = std::max(throttleTime, eventTime) + 1000;
            w.addThrottle(throttleTime, uint32_t(1 + (r >> 8) % 8), 8, (r >> 16) % 2 ? 99 : 0);
        }
        ++step;
    }
    for (int e = 1; e <= kNtffEngineCount; ++e)
        w.addInstruction(static_cast<NtffEngine>(e), 4095, engineTime[size_t(e - 1)], engineTime[size_t(e - 1)] + 500);
}

std::string readFile(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::string data;
    in.seekg(0, std::ios::end);
    data.resize(size_t(in.tellg()));
    in.seekg(0);
    in.read(data.data(), std::streamsize(data.size()));
    return data;
}

} // namespace

int main(int argc, char **argv)
{
    uint64_t records = 30'000'000;
    int runs = 3;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--records"))
            records = std::strtoull(argv[++i], nullptr, 10);
        else if (!std::strcmp(argv[i], "--runs"))
            runs = std::max(1, std::atoi(argv[++i]));
    }

    std::error_code ec;
    const fs::path dir = fs::temp_directory_path() / ("lanescope_bench_ntff_" + std::to_string(::getpid()));
    fs::create_directories(dir, ec);
    if (ec) {
        std::fprintf(stderr, "bench_ntff: cannot create %s: %s\n", dir.c_str(), ec.message().c_str());
        return 1;
    }
    const fs::path file = dir / "bench.ntff";
    int rc = 0;
    try {
        const auto g0 = std::chrono::steady_clock::now();
        {
            NtffWriter w(benchLayout());
            generate(w, records);
            w.save(file.string());
        }
        const double genS = std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count();
        const std::string data = readFile(file);
        fs::remove_all(dir, ec);
        std::printf("bench_ntff: generated %.1f MB NTFF in %.1f s (file removed, decoding from memory)\n",
                    double(data.size()) / 1e6, genS);

        std::vector<double> seconds;
        NtffProfile last;
        for (int run = 0; run < runs; ++run) {
            last = NtffProfile{};
            const auto t0 = std::chrono::steady_clock::now();
            last = NtffReader::read(data, file.string());
            seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            std::printf("  run %d: %.3f s\n", run + 1, seconds.back());
        }
        std::sort(seconds.begin(), seconds.end());
        const double median = seconds[seconds.size() / 2];
        std::printf("records:        %llu (%zu instruction rows, %zu dma rows, %zu semaphore rows, %zu throttle rows)\n",
                    (unsigned long long)last.recordsRead, last.instructions.size(), last.dma.size(),
                    last.semaphores.size(), last.throttle.size());
        std::printf("median decode:  %.3f s of %d runs\n", median, runs);
        std::printf("throughput:     %.1f million records/s, %.0f MB/s\n", double(last.recordsRead) / median / 1e6,
                    double(data.size()) / median / 1e6);
        std::printf("target:         >= 20 million records/s: %s\n",
                    double(last.recordsRead) / median >= 20e6 ? "met" : "NOT met");
        for (const auto &w : last.diagnostics.warnings())
            std::printf("  warning: %s\n", Diagnostics::format(w).c_str());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bench_ntff: %s\n", e.what());
        rc = 1;
    }
    fs::remove_all(dir, ec);
    return rc;
}
