#include "capturerules.h"

#include "insightcontext.h"
#include "insighttext.h"
#include "model/trace.h"
#include "steprules.h"
#include "util/textutil.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace lanescope {

namespace {

constexpr const char *kNeuronSync = "call torch.neuron.synchronize() inside the profiling loop, right before prof.step() "
                                    "(model(x); loss.backward(); optimizer.step(); torch.neuron.synchronize(); prof.step())";
constexpr const char *kCudaSync = "call torch.cuda.synchronize() inside the profiling loop, right before prof.step() "
                                  "(model(x); loss.backward(); optimizer.step(); torch.cuda.synchronize(); prof.step())";

bool hasArg(const Trace &trace, const Slice &s, StringId key) { return key.isValid() && LaunchIndex::findArg(trace, s.args, key); }

std::string count(size_t n, size_t of) { return std::to_string(n) + " of " + std::to_string(of); }

// The calls' names, "nrt_execute" or "cudaLaunchKernel, cudaMemcpyAsync", at most three.
std::string callNames(const Trace &trace, const std::vector<uint32_t> &calls)
{
    std::vector<std::string> names;
    for (uint32_t c : calls) {
        std::string n(trace.str(trace.slice(SliceId(c)).name));
        if (std::find(names.begin(), names.end(), n) == names.end() && names.size() < 3)
            names.push_back(std::move(n));
    }
    return insighttext::join(names, ", ");
}

void addSpan(Finding &f, const Trace &trace, uint32_t slice)
{
    f.addEvent(slice);
    if (f.ranges.size() < Finding::kMaxEvents)
        f.ranges.emplace_back(trace.slice(SliceId(slice)).start, trace.slice(SliceId(slice)).end());
}

// Total time covered by the slices (nested or overlapping ones counted once).
int64_t coveredTime(const Trace &trace, std::vector<uint32_t> slices)
{
    std::sort(slices.begin(), slices.end(), [&](uint32_t a, uint32_t b) { return trace.slice(SliceId(a)).start < trace.slice(SliceId(b)).start; });
    int64_t total = 0, at = INT64_MIN;
    for (uint32_t s : slices) {
        const Slice &x = trace.slice(SliceId(s));
        const int64_t from = std::max(at, x.start);
        if (x.end() > from)
            total += x.end() - from;
        at = std::max(at, x.end());
    }
    return total;
}

std::string ratioText(double r)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", r);
    return buf;
}

} // namespace

bool CaptureRules::isLaunchCall(std::string_view name)
{
    return name.starts_with("nrt_execute") || name.find("LaunchKernel") != std::string_view::npos ||
           name.find("GraphLaunch") != std::string_view::npos || name.find("LaunchCooperativeKernel") != std::string_view::npos;
}

bool CaptureRules::isNeuronCall(std::string_view name) { return name.starts_with("nrt_"); }

std::vector<uint32_t> CaptureRules::launchCalls(InsightContext &ctx)
{
    const Trace &trace = ctx.trace();
    std::vector<uint32_t> calls;
    for (uint32_t s : ctx.index().opSlices()) {
        const Slice &x = trace.slice(SliceId(s));
        if (ctx.index().role(SliceId(s)) == LaunchIndex::Role::Runtime && ctx.startsInRange(x.start) && isLaunchCall(trace.str(x.name)))
            calls.push_back(s);
    }
    std::sort(calls.begin(), calls.end(), [&](uint32_t a, uint32_t b) { return trace.slice(SliceId(a)).start < trace.slice(SliceId(b)).start; });
    return calls;
}

void DeviceMissingRule::evaluate(InsightContext &ctx, std::vector<Finding> &out) const
{
    const Trace &trace = ctx.trace();
    const std::vector<uint32_t> calls = CaptureRules::launchCalls(ctx);
    if (calls.empty())
        return;
    std::unordered_set<uint32_t> launched;
    size_t executions = 0;
    for (const LaunchIndex::Work &w : ctx.index().work())
        if (LaunchIndex::isExecutionLevel(w.kind)) {
            ++executions;
            if (w.launcher.isValid())
                launched.insert(w.launcher.value);
        }
    size_t first = 0; // the calls after the last one whose device work is there
    for (size_t i = 0; i < calls.size(); ++i)
        if (launched.count(calls[i]))
            first = i + 1;
    if (executions > 0 && first == 0)
        return; // device work there but linked to no call: capture-uncorrelated says so
    const std::vector<uint32_t> missing(calls.begin() + std::ptrdiff_t(first), calls.end());
    if (missing.empty())
        return;
    const bool neuron = CaptureRules::isNeuronCall(trace.str(trace.slice(SliceId(missing.front())).name));
    const int64_t from = trace.slice(SliceId(missing.front())).start;
    Finding f;
    f.rule = std::string(id());
    f.severity = Severity::High;
    if (executions == 0) {
        f.title = std::to_string(calls.size()) + " launch calls (" + callNames(trace, calls) + ") but no device work in the trace";
        f.detail = "the runtime calls that launch device work are there, the device side of all of them is absent: device time "
                   "columns (ops self_device, kernels, devices) are empty. The profiler exported before the device finished, or "
                   "device activity was not captured";
    } else {
        f.title = "Device work missing at the end: " + count(missing.size(), calls.size()) + " launch calls have no device side";
        f.detail = count(missing.size(), calls.size()) + " launch calls (" + callNames(trace, missing) + ") from " +
                   insighttext::ns(from - trace.startNs()) + " after the trace start to its end have no device " +
                   (neuron ? "execution" : "kernel") + ", while the " + std::to_string(first) +
                   " calls before them have theirs: the profiler exported before the device finished, so device totals "
                   "miss the last work";
    }
    f.action = std::string(neuron ? kNeuronSync : kCudaSync);
    f.value = double(missing.size());
    f.threshold = 0;
    for (uint32_t c : missing)
        f.addEvent(c);
    f.ranges.emplace_back(from, std::max(from, ctx.spanEnd()));
    out.push_back(std::move(f));
}

void UncorrelatedRule::evaluate(InsightContext &ctx, std::vector<Finding> &out) const
{
    const Trace &trace = ctx.trace();
    const StringId runtimeCat = trace.strings().find("privateuse1_runtime"), driverCat = trace.strings().find("privateuse1_driver");
    const StringId externalId = trace.strings().find("External id"), correlation = trace.strings().find("correlation");
    // Neuron: the privateuse1 events TorchNeuron writes, each with the id that joins it.
    size_t neuronEvents = 0;
    std::vector<uint32_t> unjoined;
    if (runtimeCat.isValid() || driverCat.isValid()) {
        const auto slices = trace.allSlices();
        for (uint32_t i = 0; i < slices.size(); ++i) {
            const Slice &s = slices[i];
            const bool runtime = s.category == runtimeCat && runtimeCat.isValid(), driver = s.category == driverCat && driverCat.isValid();
            if ((!runtime && !driver) || !ctx.startsInRange(s.start))
                continue;
            ++neuronEvents;
            if (!hasArg(trace, s, runtime ? externalId : correlation))
                unjoined.push_back(i);
        }
    }
    // CUDA (and other Kineto devices): kernels, memcpy and memset without their runtime call.
    size_t gpuWork = 0;
    std::vector<uint32_t> unlinked;
    bool runtimeCalls = false;
    for (uint32_t s : ctx.index().opSlices())
        runtimeCalls = runtimeCalls || ctx.index().role(SliceId(s)) == LaunchIndex::Role::Runtime;
    for (const LaunchIndex::Work &w : ctx.index().work()) {
        const bool gpu = w.kind == LaunchIndex::WorkKind::Kernel || w.kind == LaunchIndex::WorkKind::Memcpy ||
                         w.kind == LaunchIndex::WorkKind::Memset;
        if (!gpu || !runtimeCalls || !ctx.startsInRange(w.start))
            continue;
        ++gpuWork;
        if (!w.launcher.isValid())
            unlinked.push_back(w.slice.value);
    }
    const bool gpuFires = gpuWork > 0 && 100.0 * double(unlinked.size()) / double(gpuWork) >= kGpuThresholdPercent;
    if (unjoined.empty() && !gpuFires)
        return;
    Finding f;
    f.rule = std::string(id());
    std::vector<std::string> parts, actions;
    if (!unjoined.empty()) {
        parts.push_back(count(unjoined.size(), neuronEvents) +
                        " Neuron runtime / driver events (privateuse1_runtime without \"External id\", privateuse1_driver "
                        "without \"correlation\") are not joined to framework ops" +
                        (unjoined.size() == neuronEvents ? ", so key_averages' self_privateuse1 / device columns are zero"
                                                         : ", so their device time is missing from the op table"));
        actions.push_back("profile with NeuronConfig(correlate_device_time=True) (torch.profiler.profile(activities=[CPU, "
                          "PrivateUse1], experimental_config=NeuronConfig(..., correlate_device_time=True)))");
    }
    if (gpuFires) {
        parts.push_back(count(unlinked.size(), gpuWork) +
                        " kernels / memcpy / memset have no link to the runtime call that launched them (no \"correlation\" "
                        "arg shared with a runtime call, no ac2g flow), so the op table cannot give them a launching op");
        actions.push_back("keep CUPTI correlation in the export: profile with activities=[CPU, CUDA] in one torch.profiler.profile "
                          "(not CUDA alone), and do not strip \"correlation\" args or ac2g flow events when post-processing");
    }
    f.title = "Device time not correlated with framework ops: " +
              (unjoined.empty() ? count(unlinked.size(), gpuWork) + " kernels unlinked" : count(unjoined.size(), neuronEvents) + " Neuron events unjoined");
    f.detail = insighttext::join(parts, "; ");
    f.action = insighttext::join(actions, "; ");
    const size_t bad = unjoined.size() + unlinked.size(), all = (unjoined.empty() ? 0 : neuronEvents) + (gpuFires ? gpuWork : 0);
    f.value = all ? 100.0 * double(bad) / double(all) : 0;
    f.threshold = unjoined.empty() ? kGpuThresholdPercent : 0;
    f.severity = f.value >= 50 ? Severity::High : Severity::Medium;
    for (uint32_t s : unjoined)
        addSpan(f, trace, s);
    if (gpuFires)
        for (uint32_t s : unlinked)
            addSpan(f, trace, s);
    out.push_back(std::move(f));
}

bool NoWarmupRule::isLoadOrCompile(std::string_view name)
{
    const std::string n = text::lower(name);
    return n.starts_with("nrt_load") || n.find("neuronx-cc") != std::string::npos || n.find("neuronx_cc") != std::string::npos ||
           n.find("neuron_parallel_compile") != std::string::npos || n.find("compile_fx") != std::string::npos ||
           n.find("autotun") != std::string::npos;
}

void NoWarmupRule::evaluate(InsightContext &ctx, std::vector<Finding> &out) const
{
    const Trace &trace = ctx.trace();
    const std::vector<uint32_t> steps = ctx.steps();
    int64_t s0 = ctx.spanStart(), s1 = ctx.spanEnd();
    if (!steps.empty()) {
        s0 = trace.slice(SliceId(steps.front())).start;
        s1 = trace.slice(SliceId(steps.front())).end();
    }
    std::vector<uint32_t> loads;
    std::unordered_map<uint32_t, bool> loadName; // by name id: the name test lower-cases once per name
    for (uint32_t s : ctx.index().opSlices()) {
        const Slice &x = trace.slice(SliceId(s));
        if (x.start < s0 || x.start > s1 || !ctx.startsInRange(x.start))
            continue;
        const auto [it, added] = loadName.try_emplace(x.name.value, false);
        if (added)
            it->second = isLoadOrCompile(trace.str(x.name));
        if (it->second)
            loads.push_back(s);
    }
    const int64_t loadTime = coveredTime(trace, loads);
    double ratio = 0;
    int64_t first = 0, rest = 0;
    if (steps.size() >= StepRules::kMinSteps) {
        std::vector<int64_t> d;
        for (uint32_t s : steps)
            d.push_back(trace.slice(SliceId(s)).duration);
        first = d.front();
        rest = StepRules::median(std::vector<int64_t>(d.begin() + 1, d.end()));
        ratio = rest > 0 ? double(first) / double(rest) : 0;
    }
    const bool slow = ratio >= kThresholdRatio;
    if (loads.empty() && !slow)
        return;
    const int64_t added = slow ? first - rest : loadTime;
    std::string where = steps.empty() ? std::string("the profiled window") : std::string(trace.str(trace.slice(SliceId(steps.front())).name));
    Finding f;
    f.rule = std::string(id());
    f.severity = Severity::Medium;
    f.title = "No warm-up before the profiled window: " + where + (slow ? " takes " + ratioText(ratio) + " x the other steps' median" : " holds program loads / compilation");
    std::vector<std::string> parts;
    if (slow)
        parts.push_back(where + " takes " + insighttext::ns(first) + ", the median of the other " + std::to_string(steps.size() - 1) +
                        " steps " + insighttext::ns(rest));
    if (!loads.empty()) {
        std::vector<std::string> names;
        for (uint32_t s : loads) {
            std::string n(trace.str(trace.slice(SliceId(s)).name));
            if (std::find(names.begin(), names.end(), n) == names.end() && names.size() < 3)
                names.push_back(std::move(n));
        }
        parts.push_back(std::to_string(loads.size()) + " program load / compilation event(s) (" + insighttext::join(names, ", ") +
                        ") inside " + where + ", " + insighttext::ns(loadTime) + " in all");
    }
    parts.push_back("the warm-up adds " + insighttext::ns(added) + " to every total that covers " + where +
                    " (ProfilerStep*, the CPU total of the ops around it, the window)");
    f.detail = insighttext::join(parts, "; ");
    f.action = "keep warm-up out of the window: torch.profiler.profile(schedule=torch.profiler.schedule(wait=1, warmup=1, "
               "active=N), ...) with prof.step() once per iteration, or run a few iterations (compilation, nrt_load) before "
               "entering the profiler";
    f.value = slow ? ratio : double(loadTime);
    f.threshold = slow ? kThresholdRatio : 0;
    f.recoverableNs = added;
    std::sort(loads.begin(), loads.end(), [&](uint32_t a, uint32_t b) { return trace.slice(SliceId(a)).duration > trace.slice(SliceId(b)).duration; });
    if (!steps.empty())
        addSpan(f, trace, steps.front());
    for (uint32_t s : loads)
        addSpan(f, trace, s);
    out.push_back(std::move(f));
}

void FewStepsRule::evaluate(InsightContext &ctx, std::vector<Finding> &out) const
{
    const Trace &trace = ctx.trace();
    const std::vector<uint32_t> steps = ctx.steps();
    if (steps.empty())
        return; // no ProfilerStep#N: nothing says how the window was scheduled (docs/insights.md)
    std::vector<int64_t> d;
    for (uint32_t s : steps)
        d.push_back(trace.slice(SliceId(s)).duration);
    const int64_t med = StepRules::median(d), p90 = StepRules::percentile(d, 0.9);
    const double spread = med > 0 ? double(p90) / double(med) : 0;
    const bool few = steps.size() < kMinSteps;
    if (!few && spread <= kMaxSpread)
        return;
    Finding f;
    f.rule = std::string(id());
    f.severity = Severity::Medium;
    const auto [lo, hi] = std::minmax_element(d.begin(), d.end());
    const std::string stats = std::to_string(steps.size()) + " step(s): median " + insighttext::ns(med) + ", p90 " +
                              insighttext::ns(p90) + ", min " + insighttext::ns(*lo) + ", max " + insighttext::ns(*hi) +
                              ", spread p90 / median " + ratioText(spread);
    if (few) {
        f.title = "Too few steps to trust: " + std::to_string(steps.size()) + " profiled step(s), fewer than " + std::to_string(kMinSteps);
        f.detail = stats + "; one or two steps cannot separate the step time from noise, warm-up or a one-off stall";
        f.value = double(steps.size());
        f.threshold = double(kMinSteps);
    } else {
        f.title = "Step times spread too much to trust one number: p90 / median " + ratioText(spread) + " > " + ratioText(kMaxSpread);
        f.detail = stats + "; a median from these steps moves with the next slow one";
        f.value = spread;
        f.threshold = kMaxSpread;
    }
    f.action = "profile more active steps: torch.profiler.schedule(wait=1, warmup=1, active=5) (or more, until p90 / median "
               "<= 1.5), prof.step() once per iteration; compare a slow step with a median one to find the cause";
    std::vector<size_t> order(steps.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return d[a] > d[b]; });
    for (size_t i : order)
        addSpan(f, trace, steps[i]);
    out.push_back(std::move(f));
}

// ---------------------------------------------------------------- input checks

namespace {

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// The file a warning is about: the folder loader prefixes "<relative path>: ", else the trace's file.
std::string warningFile(const Trace &trace, const Warning &w)
{
    const size_t colon = w.message.find(": ");
    if (!trace.metadata().files.empty() && colon != std::string::npos)
        return w.message.substr(0, colon);
    return trace.metadata().sourcePath;
}

bool hasFrameworkTrace(const Trace &trace)
{
    for (const FileReport &f : trace.metadata().files)
        if (f.kind == FileFormat::ChromeJson && f.outcome == FileOutcome::Loaded)
            return true;
    return false;
}

// The "alignment.<file>" notes the folder loader recorded for its device timelines (NTFFs, neuron-profile
// JSON): "sync points: ...", "approximate: ...", "none: ..." (ClockAlignment::Placement::note).
std::vector<std::string> deviceAlignments(const Trace &trace)
{
    std::vector<std::string> notes;
    for (const auto &[key, value] : trace.metadata().entries) {
        if (!key.starts_with("alignment."))
            continue;
        const std::string_view path = std::string_view(key).substr(10);
        const auto f = std::find_if(trace.metadata().files.begin(), trace.metadata().files.end(),
                                    [&](const FileReport &r) { return r.path == path; });
        if (f == trace.metadata().files.end() || f->kind == FileFormat::Ntff || f->kind == FileFormat::NeuronProfileJson)
            notes.push_back(value);
    }
    return notes;
}

std::string plural(size_t n, const char *one, const char *many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

} // namespace

void PartialInputRule::evaluate(InsightContext &ctx, std::vector<Finding> &out) const
{
    const Trace &trace = ctx.trace();
    std::vector<std::string> truncated, noStart;
    uint64_t dropped = 0;
    for (const Warning &w : trace.diagnostics().warnings()) {
        if (contains(w.message, "is not terminated") || contains(w.message, "truncated"))
            truncated.push_back(warningFile(trace, w));
        else if (contains(w.message, "no start NOTIFY found"))
            noStart.push_back(warningFile(trace, w));
        else if (contains(w.message, "(dropped)") || contains(w.message, "without a begin (skipped)") ||
                 contains(w.message, "without a start (skipped)"))
            dropped += w.count;
    }
    uint64_t deviceRecords = 0;
    for (const LaunchIndex::Work &w : ctx.index().work())
        deviceRecords += !LaunchIndex::isExecutionLevel(w.kind);
    const double droppedPercent = dropped ? 100.0 * double(dropped) / double(deviceRecords + dropped) : 0;
    const bool windowDrops = droppedPercent >= kDroppedThresholdPercent;

    size_t neffs = 0, unpairedNeffs = 0, unpairedNtffs = 0, unreadable = 0;
    std::vector<std::string> unreadableNames;
    for (const FileReport &f : trace.metadata().files) {
        neffs += f.kind == FileFormat::Neff;
        unpairedNeffs += f.kind == FileFormat::Neff && f.outcome == FileOutcome::Unpaired;
        unpairedNtffs += f.kind == FileFormat::Ntff && f.outcome == FileOutcome::Unpaired;
        if (f.outcome == FileOutcome::NotReadable) {
            ++unreadable;
            if (unreadableNames.size() < 3)
                unreadableNames.push_back(f.path);
        }
    }
    size_t unplaced = 0, deviceTimelines = 0;
    if (hasFrameworkTrace(trace))
        for (const std::string &note : deviceAlignments(trace)) {
            ++deviceTimelines;
            unplaced += note.starts_with("none");
        }

    std::vector<std::string> parts, actions, labels; // labels: the title's short names of the parts
    bool serious = false;
    if (!truncated.empty()) {
        parts.push_back(insighttext::join(truncated, ", ") + (truncated.size() == 1 ? " is" : " are") +
                        " cut mid-file: the events after the cut are missing from every table");
        labels.push_back("trace cut mid-file");
        actions.push_back("let the profiler finish writing before copying: leave the `with torch.profiler.profile(...)` block (or "
                          "call prof.stop()) before the process exits, and copy the files after it ends");
        serious = true;
    }
    if (!noStart.empty() || windowDrops) {
        std::string s = "NTFF trace window dropped events";
        if (windowDrops)
            s += ": " + std::to_string(dropped) + " device records dropped (" + insighttext::pct(droppedPercent) + " of the device records)";
        if (!noStart.empty())
            s += std::string(windowDrops ? "; " : ": ") + plural(noStart.size(), "NTFF has", "NTFFs have") +
                 " no start NOTIFY (the execution began before the window: its device time is short)";
        parts.push_back(s);
        labels.push_back("NTFF trace window dropped events");
        actions.push_back("capture fewer executions per device trace so the whole execution fits its window (profile one step, "
                          "or one NEFF at a time)");
        serious = true;
    }
    if (unpairedNeffs) {
        parts.push_back("device time of " + std::to_string(unpairedNeffs) + " of " + std::to_string(neffs) +
                        " NEFFs is unknown (no NTFF: their executions were not captured or the NTFF was not copied)");
        labels.push_back("device time of " + std::to_string(unpairedNeffs) + " of " + std::to_string(neffs) + " NEFFs unknown");
        actions.push_back("copy the whole profile output folder: every neff_<H>.neff with its <H>_instid_<I>_vnc_<N>.ntff");
        serious = true;
    }
    if (unplaced) {
        parts.push_back(std::to_string(unplaced) + " of " + std::to_string(deviceTimelines) +
                        " device timelines have no execution in the framework trace (own clock): their device time belongs to "
                        "no op");
        labels.push_back(plural(unplaced, "NTFF", "NTFFs") + " without an execution in trace.json");
        actions.push_back("profile the framework and the device in one run (torch.profiler.profile with NeuronConfig) and keep "
                          "trace.json with the NTFFs of that run");
        serious = true;
    }
    if (unpairedNtffs) {
        parts.push_back(plural(unpairedNtffs, "NTFF has", "NTFFs have") + " no NEFF: instruction and DMA queue names are unknown");
        labels.push_back(plural(unpairedNtffs, "NTFF", "NTFFs") + " without a NEFF");
    }
    if (unreadable) {
        parts.push_back(plural(unreadable, "file", "files") + " cannot be read (" + insighttext::join(unreadableNames, ", ") +
                        "): what they hold is not in the tables");
        labels.push_back(plural(unreadable, "file", "files") + " not readable");
    }
    if (parts.empty())
        return;
    if (unpairedNtffs && actions.empty())
        actions.push_back("copy the NEFF of each NTFF into the folder (same hash in the name, same uuid inside)");
    if (unreadable && actions.empty())
        actions.push_back("export the system trace with AWS's tools (system_profile.json) next to trace.json");
    Finding f;
    f.rule = std::string(id());
    f.severity = serious ? Severity::Medium : Severity::Low;
    f.title = "Partial input: " + insighttext::join(labels, ", ");
    f.detail = insighttext::join(parts, "; ");
    f.action = insighttext::join(actions, "; ");
    f.value = double(truncated.size() + noStart.size() + unpairedNeffs + unplaced + unpairedNtffs + unreadable) + (windowDrops ? 1 : 0);
    f.threshold = 0;
    out.push_back(std::move(f));
}

void ClockAlignmentRule::evaluate(InsightContext &ctx, std::vector<Finding> &out) const
{
    const Trace &trace = ctx.trace();
    size_t sync = 0, approximate = 0, none = 0;
    for (const std::string &note : deviceAlignments(trace)) {
        if (note.starts_with("sync points"))
            ++sync;
        else if (note.starts_with("approximate"))
            ++approximate;
        else
            ++none;
    }
    if (sync + approximate + none == 0 || !hasFrameworkTrace(trace))
        return; // nothing was placed on a host clock
    // Each launch call's successor on its thread: an execution must run between the two.
    const std::vector<uint32_t> calls = CaptureRules::launchCalls(ctx);
    std::map<uint32_t, int64_t> nextStart;
    std::map<uint32_t, uint32_t> lastOnTrack;
    for (uint32_t c : calls) {
        const uint32_t track = trace.trackOfSlice(SliceId(c)).value;
        if (const auto it = lastOnTrack.find(track); it != lastOnTrack.end())
            nextStart[it->second] = trace.slice(SliceId(c)).start;
        lastOnTrack[track] = c;
    }
    struct Outside
    {
        uint32_t work;
        int64_t by;
    };
    std::vector<Outside> outside;
    int64_t largestOffset = 0;
    size_t checked = 0;
    const auto work = ctx.index().work();
    for (uint32_t i = 0; i < work.size(); ++i) {
        const LaunchIndex::Work &w = work[i];
        if (w.kind != LaunchIndex::WorkKind::NeffExecution || !w.launcher.isValid() || !ctx.startsInRange(w.start))
            continue;
        ++checked;
        const Slice &call = trace.slice(w.launcher);
        largestOffset = std::max(largestOffset, std::abs(w.start - call.start));
        const auto next = nextStart.find(w.launcher.value);
        const int64_t early = call.start - w.start, late = next == nextStart.end() ? 0 : w.end - next->second;
        if (early > 0 || late > 0)
            outside.push_back({i, std::max(early, late)});
    }
    if (outside.empty() && approximate + none == 0)
        return;
    std::sort(outside.begin(), outside.end(), [](const Outside &a, const Outside &b) { return a.by > b.by; });
    Finding f;
    f.rule = std::string(id());
    const std::string placed = std::to_string(sync + approximate + none) + " device timelines: " + std::to_string(sync) +
                               " placed at system-trace sync points (nc_exec_running), " + std::to_string(approximate) +
                               " approximately at a host execution event (nrt_execute, or in order), " + std::to_string(none) +
                               " not placed (own clock)";
    std::string detail = placed + "; " + std::to_string(checked) + " NEFF executions linked to their launch call, largest start "
                         "offset from the call " + insighttext::ns(largestOffset);
    if (!outside.empty()) {
        f.severity = Severity::Medium;
        f.title = "Clock alignment disagrees with the host: " + std::to_string(outside.size()) + " of " + std::to_string(checked) +
                  " NEFF executions lie outside their launch call";
        detail += "; " + std::to_string(outside.size()) + " start before their launching call or end after the next launch call "
                  "begins (worst by " + insighttext::ns(outside.front().by) + "): host-device times there are not trustworthy";
        f.action = "keep one run per folder (no NTFFs of another run or session mixed in) and the system_profile.json of that "
                   "same run, so each device timeline is placed at its own nc_exec_running";
        f.value = double(outside.front().by);
    } else {
        f.severity = Severity::Low;
        f.title = "Clock alignment is approximate for " + std::to_string(approximate + none) + " of " +
                  std::to_string(sync + approximate + none) + " device timelines";
        detail += "; without a sync point host-device gaps and launch latencies are estimates";
        f.action = "capture the runtime (system) trace in the same run, NeuronConfig(modes=[ProfileMode.DEVICE, "
                   "ProfileMode.RUNTIME]), and export it with AWS's tools as system_profile.json next to trace.json, so every "
                   "device timeline is placed at its nc_exec_running sync point";
        f.value = double(approximate + none);
    }
    f.detail = detail;
    f.threshold = 0;
    for (const Outside &o : outside) {
        const LaunchIndex::Work &w = work[o.work];
        f.addEvent(w.slice.value);
        f.addEvent(w.launcher.value);
        if (f.ranges.size() < Finding::kMaxEvents)
            f.ranges.emplace_back(std::min(w.start, trace.slice(w.launcher).start), w.end);
    }
    out.push_back(std::move(f));
}

void CaptureRules::addTo(RuleList &r)
{
    r.push_back(std::make_unique<DeviceMissingRule>());
    r.push_back(std::make_unique<UncorrelatedRule>());
    r.push_back(std::make_unique<NoWarmupRule>());
    r.push_back(std::make_unique<FewStepsRule>());
    r.push_back(std::make_unique<PartialInputRule>());
    r.push_back(std::make_unique<ClockAlignmentRule>());
}

} // namespace lanescope
