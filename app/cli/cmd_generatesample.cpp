// lanescope-cli generate-sample -o FILE [--steps N] [--seed S]: writes the synthetic Kineto sample.
// lanescope-cli generate-sample --folder DIR [--seed S]: writes the synthetic TorchNeuron-shaped profile
// folder DIR/synthetic_rmsnorm_profile (trace.json + system_profile.json + NEFF/NTFF pairs).
// --capture no-sync|no-warmup writes it captured the wrong way (DIR/synthetic_rmsnorm_no_sync, ..._no_warmup),
// for the capture checks of `lanescope-cli insights` (docs/insights.md).
// --layout native writes the native PyTorch capture's layout instead (DIR/profile_output/<instance>_pid_<pid>/
// <timestamp>/: trace.json, neff_<H>_vnc_0.neff, profile_nc_0_session_<S>.ntff, the runtime's .pb files).
#include "commands.h"

#include "io/synthetic/kinetosamplewriter.h"
#include "io/synthetic/samplefolderwriter.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace lanescope::cli {

namespace {

template <class T> bool parseNumber(const std::string &text, T &value)
{
    const char *end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end && !text.empty();
}

int usageError(const std::string &message)
{
    std::fprintf(
        stderr,
        "lanescope-cli generate-sample: %s\nusage: lanescope-cli generate-sample -o FILE [--steps N] [--seed S]\n"
        "       lanescope-cli generate-sample --folder DIR [--seed S] [--variant naive|torch.rms_norm|torch.compile]\n"
        "       lanescope-cli generate-sample --folder DIR --compare-set [--seed S]   (one folder per variant)\n"
        "       lanescope-cli generate-sample --folder DIR --capture no-sync|no-warmup [--seed S]\n"
        "       lanescope-cli generate-sample --folder DIR --layout native [--seed S] [--variant torch.rms_norm|torch.compile]\n"
        "         the native PyTorch capture's layout: profile_output/<instance>_pid_<pid>/<timestamp>/ with trace.json,\n"
        "         neff_<H>_vnc_0.neff, profile_nc_0_session_<S>.ntff and ntrace.pb, trace_info.pb, cpu_util.pb, host_mem.pb\n"
        "         a capture taken the wrong way: no-sync = no torch.neuron.synchronize() before prof.step() (device side\n"
        "         of the last executions missing), no-warmup = no warm-up before profiling (nrt_load inside the step)\n",
        message.c_str());
    return kExitUnreadable;
}

int generateFolder(const std::string &dir, const Args &args)
{
    SampleFolderWriter::Options options;
    const std::string seed = flagValue(args, "--seed");
    if (!seed.empty() && !parseNumber(seed, options.seed))
        return usageError("--seed must be a non-negative integer, got '" + seed + "'");
    options.variant = flagValue(args, "--variant");
    options.capture = flagValue(args, "--capture");
    if (hasFlag(args, "--capture") && options.capture.empty())
        return usageError("--capture needs no-sync or no-warmup");
    options.layout = flagValue(args, "--layout");
    if (hasFlag(args, "--layout") && options.layout != SampleFolderWriter::kNativeLayout)
        return usageError("--layout needs native (the default layout is written without --layout), got '" + options.layout + "'");
    if (!options.layout.empty() && hasFlag(args, "--compare-set"))
        return usageError("--compare-set writes the default layout; use it without --layout");
    try {
        if (hasFlag(args, "--compare-set")) {
            for (const std::string &folder : SampleFolderWriter::writeComparison(dir, options))
                std::printf("wrote %s\n", folder.c_str());
            std::printf("compare them: lanescope-cli diff A B, or lanescope A B C (synthetic RMSNorm variants, seed %llu)\n",
                        static_cast<unsigned long long>(options.seed));
            return kExitOk;
        }
        const std::string folder = SampleFolderWriter::write(dir, options);
        if (!options.layout.empty() && options.variant.empty())
            options.variant = "torch.rms_norm"; // what write() chose for the native layout
        const std::vector<SampleFolderWriter::Execution> runs = SampleFolderWriter::executions(options);
        const size_t neffs = size_t(std::count_if(runs.begin(), runs.end(), [](const auto &x) { return x.step == 1; }));
        const size_t ntffs = runs.size() - (options.capture == "no-sync" ? std::min(runs.size(), SampleFolderWriter::kLostExecutions) : 0);
        std::printf("wrote %s (synthetic TorchNeuron-shaped profile folder%s: trace.json + %s + %zu NEFFs + "
                    "%zu NTFFs, %d profiled steps, seed %llu%s)\n",
                    folder.c_str(), options.layout.empty() ? "" : ", native PyTorch capture layout",
                    options.layout.empty() ? "system_profile.json" : "ntrace.pb + 3 session .pb files", neffs, ntffs,
                    SampleFolderWriter::kActiveSteps,
                    static_cast<unsigned long long>(options.seed),
                    options.capture.empty() ? "" : ("; captured wrong: " + options.capture).c_str());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "lanescope-cli generate-sample: %s\n", e.what());
        return kExitUnreadable;
    }
    return kExitOk;
}

} // namespace

int cmdGenerateSample(const Args &args)
{
    const std::string folder = flagValue(args, "--folder");
    if (!folder.empty() || hasFlag(args, "--folder")) {
        if (folder.empty())
            return usageError("--folder needs a folder (--folder DIR)");
        if (!flagValue(args, "-o").empty() || !flagValue(args, "--output").empty())
            return usageError("use either -o FILE or --folder DIR, not both");
        return generateFolder(folder, args);
    }
    std::string out = flagValue(args, "-o");
    if (out.empty())
        out = flagValue(args, "--output");
    if (out.empty())
        return usageError("missing the output file (-o FILE) or folder (--folder DIR)");

    KinetoSampleWriter::Options options;
    const std::string steps = flagValue(args, "--steps");
    if (!steps.empty() && (!parseNumber(steps, options.steps) || options.steps < 1 || options.steps > 100000))
        return usageError("--steps must be an integer from 1 to 100000, got '" + steps + "'");
    const std::string seed = flagValue(args, "--seed");
    if (!seed.empty() && !parseNumber(seed, options.seed))
        return usageError("--seed must be a non-negative integer, got '" + seed + "'");

    const std::filesystem::path path(out);
    if (path.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(path.parent_path(), ec);
        if (ec) {
            std::fprintf(stderr, "lanescope-cli generate-sample: %s: cannot create folder: %s\n",
                         path.parent_path().string().c_str(), ec.message().c_str());
            return kExitUnreadable;
        }
    }
    std::string error;
    if (!KinetoSampleWriter::writeFile(out, options, &error)) {
        std::fprintf(stderr, "lanescope-cli generate-sample: %s\n", error.c_str());
        return kExitUnreadable;
    }
    std::printf("wrote %s (synthetic Kineto trace, %d steps, seed %llu)\n", out.c_str(), options.steps,
                static_cast<unsigned long long>(options.seed));
    return kExitOk;
}

} // namespace lanescope::cli
