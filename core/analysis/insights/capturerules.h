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
// The checks on the inputs follow them in the registry (captureinputrules.h).
#include "rule.h"

namespace lanescope {

namespace CaptureRules {
// capture-device-missing, capture-uncorrelated, capture-no-warmup, capture-few-steps
RuleFunction deviceMissing, uncorrelated, noWarmup, fewSteps;
} // namespace CaptureRules

} // namespace lanescope
