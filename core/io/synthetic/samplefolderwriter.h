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
//       neff_<H>.neff                                   x 6, one per program (device graph)
//       <H>_instid_<S>_vnc_0.ntff                        x 18, one per device execution (S = step - 1)
//
// Captured the way TorchNeuron is meant to be profiled: torch.profiler.schedule(wait=1, warmup=1,
// active=3) with torch.neuron.synchronize() before prof.step(), so the window holds kActiveSteps steps
// (ProfilerStep#1..#3, numbered as PyTorch names the active steps) of the same work and similar length,
// no nrt_load or compilation (that ran in the warm-up step), every execution's device side with its NTFF,
// placed at its nc_exec_running sync point. Every capture check of docs/insights.md passes.
// Each step: x in (aten::to, nrt_tensor_write), the three variants one after the other: naive (aten::pow, mean, rsqrt, mul: four separate device
// executions, each loading and storing the whole tensor), torch.rms_norm (one fused execution) and
// torch.compile (one execution that sums squares on the Tensor engine). Host side: user annotations,
// cpu_op slices, privateuse1_runtime nrt_execute calls and privateuse1_driver nc_exec_running events
// carrying the NEFF hash in their args, joined by "External id". Device side: NEFFs (NeffWriter) and
// NTFFs (NtffWriter) with equal uuids; engines and DMA queues are busy in a simulated tile pipeline
// (load -> compute -> store, two tiles in flight), so the naive variant shows more instructions, more
// DMA traffic and more time. Each NEFF carries the debug chain (NeffDebugWriter: instruction -> BIR ->
// Penguin -> HLO -> scope), so the NTFF timeline gets "HLO ops" / "layers" lanes, and the XLA ones an
// hlo_stats.json (naive: HloMacCount 0; torch.compile: its dot's 512 x 4096 MACs; torch.rms_norm is an
// NKI kernel without HLO level or hlo_stats.json: sampleprogramops.h), so the operator table has device
// FLOPs and MFU. Everything says it is synthetic; nothing is a measurement. The output is
// byte-identical for a given seed.
//
// Layouts (Options::layout):
//   ""        the environment-variable / `inspect` capture above (neff_<H>.neff, <H>_instid_<S>_vnc_0.ntff)
//             with the system_profile.json AWS's tools export;
//   "native"  the native PyTorch capture (NeuronConfig + NeuronProfiler) as documented (formats.md section 1):
//               profile_output/i-0synthetic0000000_pid_4242/20250101_000000/
//                 trace.json                              the same framework trace
//                 neff_<H>_vnc_0.neff                     the one program (torch.rms_norm, or --variant torch.compile)
//                 profile_nc_0_session_<S>.ntff           one per NeuronCore and session: one session per step (S = step - 1)
//                 ntrace.pb, trace_info.pb                system trace, protobuf (NtraceWriter, docs/ntrace.md): the
//                                                         runtime calls, nc_exec_running and a sync point per execution
//                 cpu_util.pb, host_mem.pb                host samples, protobuf
//             no system_profile.json (not exported yet): the NTFFs are placed at their nc_exec_running by the
//             sync points of ntrace.pb.
//             One program only: a session's NTFF covers one NEFF here (naive's four programs are refused).
//
// Capture variants (Options::capture; the capture checks of docs/insights.md name them):
//   "no-sync"    the loop misses torch.neuron.synchronize(): the profiler exports before the device
//                finishes, so the last kLostExecutions executions (of the last step) have their nrt_execute
//                call (returning at once) but no nc_exec_running, no hardware event and no NTFF
//   "no-warmup"  no warm-up step before the active ones: the first call of each NEFF loads it inside
//                ProfilerStep#1 (an nrt_load runtime call of kLoadNs before its nrt_execute)
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
        std::string layout;     // "" (env-var / inspect capture + system_profile.json) or "native"
    };

    static constexpr const char *kFolderName = "synthetic_rmsnorm_profile";
    static constexpr const char *kNativeFolderName = "profile_output"; // the native layout's top folder
    static constexpr const char *kNativeLayout = "native";
    // The Neuron protobuf files the native layout holds (the system trace and host samples).
    static std::vector<std::string> nativeProtobufFiles();
    static constexpr const char *kInstanceId = "i-0synthetic0000000";
    static constexpr int64_t kPid = 4242;
    static constexpr const char *kTimestampFolder = "20250101_000000";
    static constexpr const char *kProcessName = "python3 (synthetic Lanescope sample)";
    static constexpr int kActiveSteps = 3;           // ProfilerStep#1 .. #3 (schedule active=3)
    static constexpr size_t kLostExecutions = 2;     // "no-sync": the device side of the last two is missing
    static constexpr int64_t kLoadNs = 30'000'000;   // "no-warmup": one nrt_load (about 30 ms) per NEFF

    // The capture variants ("no-sync", "no-warmup") and the folder each writes by default.
    static std::vector<std::string> captureVariants();
    static std::string captureFolderName(const std::string &capture); // "synthetic_rmsnorm_no_sync", ...

    // The top folder `options` writes: options.folderName, else the layout's or capture variant's.
    static std::string folderName(const Options &options);

    // One device execution: a program (NEFF) run once in one step.
    struct Execution
    {
        std::string variant; // "naive", "torch.rms_norm", "torch.compile"
        std::string op;      // host op that launches it, e.g. "aten::pow"
        std::string hash;    // <H> of neff_<H>.neff (decimal, like the runtime's)
        std::string uuid;    // 32 hex digits, the same in the NEFF and its NTFFs
        std::string neffFile; // file names inside the timestamp folder
        std::string ntffFile; // <H>_instid_<step - 1>_vnc_0.ntff (native: profile_nc_0_session_<step - 1>.ntff)
        int step = 1;         // the ProfilerStep#N that launches it
    };

    // The device executions in host order for `options`: kActiveSteps steps of the six programs (naive's
    // four, torch.rms_norm's, torch.compile's; fewer with options.variant), each step in the same order.
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
