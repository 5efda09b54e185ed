#include "capturerules.h"

#include "analysis/stepstatistics.h"
#include "insightcontext.h"
#include "insighttext.h"
#include "model/trace.h"
#include "steprules.h"
#include "util/textutil.h"

#include <algorithm>
#include <cstdio>
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

// "torch.neuron.synchronize()" style fix naming the Neuron or the CUDA call, from the calls' names.
bool isNeuronCall(std::string_view name) { return name.starts_with("nrt_"); }

} // namespace

void CaptureRules::deviceMissing(InsightContext &ctx, std::vector<Finding> &out)
{
    const Trace &trace = ctx.trace();
    const std::vector<uint32_t> calls = ctx.launchCalls();
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
    const bool neuron = isNeuronCall(trace.str(trace.slice(SliceId(missing.front())).name));
    const int64_t from = trace.slice(SliceId(missing.front())).start;
    Finding f;
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

void CaptureRules::uncorrelated(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kUncorrelatedGpuPercent = 1.0; // kernels without their runtime call, % of kernels
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
    const bool gpuFires = gpuWork > 0 && 100.0 * double(unlinked.size()) / double(gpuWork) >= kUncorrelatedGpuPercent;
    if (unjoined.empty() && !gpuFires)
        return;
    Finding f;
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
    f.threshold = unjoined.empty() ? kUncorrelatedGpuPercent : 0;
    f.severity = f.value >= 50 ? Severity::High : Severity::Medium;
    for (uint32_t s : unjoined)
        f.addSlice(trace, s);
    if (gpuFires)
        for (uint32_t s : unlinked)
            f.addSlice(trace, s);
    out.push_back(std::move(f));
}

namespace {

// nrt_load*, neuronx-cc / neuron_parallel_compile, compile_fx, autotuning (case-insensitive).
bool isLoadOrCompile(std::string_view name)
{
    const std::string n = text::lower(name);
    return n.starts_with("nrt_load") || n.find("neuronx-cc") != std::string::npos || n.find("neuronx_cc") != std::string::npos ||
           n.find("neuron_parallel_compile") != std::string::npos || n.find("compile_fx") != std::string::npos ||
           n.find("autotun") != std::string::npos;
}

} // namespace

void CaptureRules::noWarmup(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kNoWarmupRatio = 1.5; // first step / median of the others
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
        rest = StepStatistics::median(std::vector<int64_t>(d.begin() + 1, d.end()));
        ratio = rest > 0 ? double(first) / double(rest) : 0;
    }
    const bool slow = ratio >= kNoWarmupRatio;
    if (loads.empty() && !slow)
        return;
    const int64_t added = slow ? first - rest : loadTime;
    std::string where = steps.empty() ? std::string("the profiled window") : std::string(trace.str(trace.slice(SliceId(steps.front())).name));
    Finding f;
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
    f.threshold = slow ? kNoWarmupRatio : 0;
    f.recoverableNs = added;
    std::sort(loads.begin(), loads.end(), [&](uint32_t a, uint32_t b) { return trace.slice(SliceId(a)).duration > trace.slice(SliceId(b)).duration; });
    if (!steps.empty())
        f.addSlice(trace, steps.front());
    for (uint32_t s : loads)
        f.addSlice(trace, s);
    out.push_back(std::move(f));
}

void CaptureRules::fewSteps(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr size_t kMinTrustedSteps = 3;
    constexpr double kMaxStepSpread = 1.5; // p90 / median
    const Trace &trace = ctx.trace();
    const std::vector<uint32_t> steps = ctx.steps();
    if (steps.empty())
        return; // no ProfilerStep#N: nothing says how the window was scheduled (docs/insights.md)
    std::vector<int64_t> d;
    for (uint32_t s : steps)
        d.push_back(trace.slice(SliceId(s)).duration);
    const int64_t med = StepStatistics::median(d), p90 = StepStatistics::percentile(d, 0.9);
    const double spread = med > 0 ? double(p90) / double(med) : 0;
    const bool few = steps.size() < kMinTrustedSteps;
    if (!few && spread <= kMaxStepSpread)
        return;
    Finding f;
    f.severity = Severity::Medium;
    const auto [lo, hi] = std::minmax_element(d.begin(), d.end());
    const std::string stats = std::to_string(steps.size()) + " step(s): median " + insighttext::ns(med) + ", p90 " +
                              insighttext::ns(p90) + ", min " + insighttext::ns(*lo) + ", max " + insighttext::ns(*hi) +
                              ", spread p90 / median " + ratioText(spread);
    if (few) {
        f.title = "Too few steps to trust: " + std::to_string(steps.size()) + " profiled step(s), fewer than " + std::to_string(kMinTrustedSteps);
        f.detail = stats + "; one or two steps cannot separate the step time from noise, warm-up or a one-off stall";
        f.value = double(steps.size());
        f.threshold = double(kMinTrustedSteps);
    } else {
        f.title = "Step times spread too much to trust one number: p90 / median " + ratioText(spread) + " > " + ratioText(kMaxStepSpread);
        f.detail = stats + "; a median from these steps moves with the next slow one";
        f.value = spread;
        f.threshold = kMaxStepSpread;
    }
    f.action = "profile more active steps: torch.profiler.schedule(wait=1, warmup=1, active=5) (or more, until p90 / median "
               "<= 1.5), prof.step() once per iteration; compare a slow step with a median one to find the cause";
    std::vector<size_t> order(steps.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return d[a] > d[b]; });
    for (size_t i : order)
        f.addSlice(trace, steps[i]);
    out.push_back(std::move(f));
}

} // namespace lanescope
