#pragma once
// Capture checks on the host side of a profile (issue 20; definitions, thresholds and fixes in
// docs/insights.md, "Capture checks"): was the profile taken the right way, before anyone reads its
// numbers. Every id starts with "capture-" (Finding::isCapture).
//   capture-device-missing  launch calls (nrt_execute, cudaLaunchKernel, ...) at the end of the window
//                           whose device side is absent, or launch calls and no device work at all
//   capture-uncorrelated    privateuse1 runtime / driver events without External id / correlation, or
//                           kernels without a link to their runtime call
//   capture-no-warmup       the first step >= 1.5 x the median of the others, or program loads and
//                           compilation (nrt_load, neuronx-cc, compile_fx, autotuning) in the first step
//   capture-few-steps       1 or 2 ProfilerStep#N, or a step-time spread p90 / median > 1.5
// and on the inputs, from what the loaders recorded (warnings, TraceMetadata::files, the folder's
// "alignment.<file>" notes) rather than the files again:
//   capture-partial-input    a trace cut mid-file; NTFF trace windows that drop records; NEFFs without
//                            an NTFF (their device time is unknown); NTFFs without a NEFF; NTFFs with no
//                            execution in the framework trace; files that cannot be read
//   capture-clock-alignment  how each device timeline was placed (system-trace sync point, nrt_execute
//                            event, none) and the largest disagreement between a placed NEFF execution
//                            and its launching call; fires when an execution starts before its call or
//                            ends after the next launch call begins, or when placements are approximate
#include "rule.h"

#include <cstdint>
#include <vector>

namespace lanescope {

class DeviceMissingRule : public Rule
{
public:
    std::string_view id() const override { return "capture-device-missing"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

class UncorrelatedRule : public Rule
{
public:
    static constexpr double kGpuThresholdPercent = 1.0; // kernels without their runtime call, % of kernels
    std::string_view id() const override { return "capture-uncorrelated"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

class NoWarmupRule : public Rule
{
public:
    static constexpr double kThresholdRatio = 1.5;
    std::string_view id() const override { return "capture-no-warmup"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
    // nrt_load*, neuronx-cc / neuron_parallel_compile, compile_fx, autotuning (case-insensitive).
    static bool isLoadOrCompile(std::string_view name);
};

class FewStepsRule : public Rule
{
public:
    static constexpr size_t kMinSteps = 3;
    static constexpr double kMaxSpread = 1.5; // p90 / median
    std::string_view id() const override { return "capture-few-steps"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

class PartialInputRule : public Rule
{
public:
    // Dropped NTFF records (begins without an end, ...) above this share of the device records.
    static constexpr double kDroppedThresholdPercent = 1.0;
    std::string_view id() const override { return "capture-partial-input"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

class ClockAlignmentRule : public Rule
{
public:
    std::string_view id() const override { return "capture-clock-alignment"; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override;
};

namespace CaptureRules {
// Every capture check, host side and inputs, in documentation order.
void addTo(RuleList &rules);
// A runtime call that launches device work: nrt_execute*, *LaunchKernel*, cudaGraphLaunch, ...
bool isLaunchCall(std::string_view name);
// The launch calls (runtime-role slices) starting in the analysed window, by start time.
std::vector<uint32_t> launchCalls(InsightContext &context);
// "torch.neuron.synchronize()" style fix naming the Neuron or the CUDA call, from the calls' names.
bool isNeuronCall(std::string_view name);
} // namespace CaptureRules

} // namespace lanescope
