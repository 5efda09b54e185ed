#pragma once
// Writes the bundled sample profile folder: SYNTHETIC data shaped like what TorchNeuron writes for the
// RMSNorm case study (y = x * rsqrt(mean(x^2) + eps) * w, x: [512, 4096] bf16 on one NeuronCore):
//
//   synthetic_rmsnorm_profile/
//     README_SYNTHETIC.txt                              says what this is (listed as ignored)
//     i-0synthetic0000000_pid_4242/20250101_000000/
//       trace.json                                      Kineto framework trace, "synthetic": true
//       system_profile.json                             system trace: framework ops, nrt_* runtime calls,
//                                                       nc_exec_running on a device clock + sync points
//       neff_<H>.neff + <H>_instid_0_vnc_0.ntff          x 6, one pair per device execution
//
// Three variants run one after the other: naive (aten::pow, mean, rsqrt, mul: four separate device
// executions, each loading and storing the whole tensor), torch.rms_norm (one fused execution) and
// torch.compile (one execution that sums squares on the Tensor engine). Host side: user annotations,
// cpu_op slices, privateuse1_runtime nrt_execute calls and privateuse1_driver nc_exec_running events
// carrying the NEFF hash in their args, joined by "External id". Device side: NEFFs (NeffWriter) and
// NTFFs (NtffWriter) with equal uuids; engines and DMA queues are busy in a simulated tile pipeline
// (load -> compute -> store, two tiles in flight), so the naive variant shows more instructions, more
// DMA traffic and more time. Everything says it is synthetic; nothing is a measurement. The output is
// byte-identical for a given seed.
//
// Capture variants (Options::capture; the capture checks of docs/insights.md name them):
//   "no-sync"    the loop misses torch.neuron.synchronize(): the profiler exports before the device
//                finishes, so the last kLostExecutions executions have their nrt_execute call (returning
//                at once) but no nc_exec_running, no hardware event and no NTFF (their NEFFs stay unpaired)
//   "no-warmup"  no warm-up iteration before profiling: the first call of each NEFF loads it inside the
//                step (an nrt_load runtime call of kLoadNs before its nrt_execute)
#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

class SampleFolderWriter
{
public:
    struct Options
    {
        uint64_t seed = 1;      // NEFF hashes, uuids and duration jitter
        std::string variant;    // only this variant ("naive", "torch.rms_norm", "torch.compile"); empty: all three
        std::string folderName; // empty: kFolderName, or the capture variant's folder (captureFolderName)
        std::string capture;    // "" (captured the right way), "no-sync" or "no-warmup"
    };

    static constexpr const char *kFolderName = "synthetic_rmsnorm_profile";
    static constexpr const char *kInstanceId = "i-0synthetic0000000";
    static constexpr int64_t kPid = 4242;
    static constexpr const char *kTimestampFolder = "20250101_000000";
    static constexpr const char *kProcessName = "python3 (synthetic Lanescope sample)";
    static constexpr size_t kLostExecutions = 2;     // "no-sync": the device side of the last two is missing
    static constexpr int64_t kLoadNs = 30'000'000;   // "no-warmup": one nrt_load (about 30 ms) per NEFF

    // The capture variants ("no-sync", "no-warmup") and the folder each writes by default.
    static std::vector<std::string> captureVariants();
    static std::string captureFolderName(const std::string &capture); // "synthetic_rmsnorm_no_sync", ...

    struct Execution
    {
        std::string variant; // "naive", "torch.rms_norm", "torch.compile"
        std::string op;      // host op that launches it, e.g. "aten::pow"
        std::string hash;    // <H> of neff_<H>.neff (decimal, like the runtime's)
        std::string uuid;    // 32 hex digits, the same in the NEFF and the NTFF
        std::string neffFile; // file names inside the timestamp folder
        std::string ntffFile;
    };

    // The six executions, in host order, for `options`.
    static std::vector<Execution> executions(const Options &options);
    static std::vector<Execution> executions() { return executions(Options()); }
    // Relative path of the folder holding trace.json and the NEFF/NTFF pairs.
    static std::string runFolder(const Options &options);
    static std::string runFolder() { return runFolder(Options()); }
    // The three variants in run order.
    static std::vector<std::string> variants();
    // One profile folder per variant (synthetic_rmsnorm_naive, ..._rms_norm, ..._compile), for comparing
    // them; returns the folders in variant order. Throws like write().
    static std::vector<std::string> writeComparison(const std::string &outDir, const Options &options);

    // Writes `outDir`/synthetic_rmsnorm_profile/... (or options.folderName) (creating folders; existing files of the same
    // names are replaced, nothing else is touched) and returns the path of the profile folder.
    // Throws std::runtime_error naming the path on I/O errors.
    static std::string write(const std::string &outDir, const Options &options);
    static std::string write(const std::string &outDir) { return write(outDir, Options()); }
};

} // namespace lanescope
