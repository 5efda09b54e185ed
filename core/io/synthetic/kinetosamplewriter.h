#pragma once
// Writes a synthetic but realistic Kineto trace (the sample `make run` opens): PyTorch on one
// NeuronCore, each ProfilerStep#N running an RMSNorm twice, first naive (aten::pow, mean, add, rsqrt,
// mul, mul: six device launches) then fused (one launch). Host side: user annotations, nested cpu_op
// slices with External id / Input Dims, privateuse1_runtime calls (nrt_execute); device side: kernel
// slices on pid = device, tid = stream; ac2g flows from each runtime call to its kernel; M metadata
// with sort indexes; a counter track; a few instants. The output is deterministic for a given seed
// and says everywhere a reader looks that it is synthetic (process names, traceName, a top-level key).
#include <cstdint>
#include <string>

namespace lanescope {

class KinetoSampleWriter
{
public:
    struct Options
    {
        int steps = 8;                     // ProfilerStep#1 .. #steps
        uint64_t seed = 1;                 // jitter of durations and gaps
        int64_t baseTimeUs = 573720829000; // ts of the first event (µs, like Kineto's relative clock)
    };

    // Top-level key set to true in every generated file, so loaders can flag the trace as synthetic.
    static constexpr const char *kSyntheticKey = "synthetic";
    // Process names (both say the data is synthetic).
    static constexpr const char *kProcessName = "python3 (synthetic Lanescope sample)";
    static constexpr const char *kDeviceProcessName = "NeuronCore 0 (synthetic Lanescope sample)";
    // Fixed ids used in the output (useful to tests).
    static constexpr int64_t kHostPid = 31337;
    static constexpr int64_t kDevicePid = 0;
    static constexpr int64_t kDeviceStream = 1;

    // The whole trace as JSON text (object form, Kineto layout: ts/dur in µs with 3 decimals).
    static std::string write(const Options &options);
    // Writes write(options) to `path`; on failure returns false and sets *error (naming the path).
    static bool writeFile(const std::string &path, const Options &options, std::string *error);
};

} // namespace lanescope
