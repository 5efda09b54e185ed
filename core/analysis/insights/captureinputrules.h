#pragma once
// Capture checks on the inputs of a profile (issue 20; docs/insights.md, "Capture checks"), from what
// the loaders recorded (warnings, TraceMetadata::files, the folder's "alignment.<file>" notes) rather
// than the files again; the registry lists them after the host-side checks (capturerules.h):
//   capture-partial-input    a trace cut mid-file; NTFF trace windows that drop records; NEFFs without
//                            an NTFF (their device time is unknown); NTFFs without a NEFF; NTFFs with no
//                            execution in the framework trace; files that cannot be read
//   capture-clock-alignment  how each device timeline was placed (system-trace sync point, nrt_execute
//                            event, none) and the largest disagreement between a placed NEFF execution
//                            and its launching call; fires when an execution starts before its call or
//                            ends after the next launch call begins, or when placements are approximate
//   capture-profiler-warning one finding per warning neuron-profile wrote into its JSON export (its
//                            `warnings` array, kept as "neuron_profile.warnings[i].category" / ".message"
//                            metadata): its text and category, the advice it carries (the sentences after
//                            the first: "Try capturing the profile with --enable-dge-notifs ...") as the
//                            action; "Missing Data" is low (numbers it names may be missing or zero),
//                            another category medium. The same warning in several exports is one finding
#include "rule.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;

namespace CaptureInputRules {
RuleFunction partialInput, clockAlignment; // capture-partial-input, capture-clock-alignment
RuleFunction profilerWarning;              // capture-profiler-warning

// One warning of a neuron-profile JSON export as the trace keeps it, with the exports that carry it.
struct ProfilerWarning
{
    std::string category; // "Missing Data"
    std::string message;  // verbatim
    std::vector<std::string> files;
    std::string profilerVersion; // of the first file: "2.28.23.0"
};
// Every distinct (category, message) in the trace's metadata, in order of first appearance.
std::vector<ProfilerWarning> profilerWarnings(const Trace &trace);
// "Missing HLO stats in the NEFF, ... not be available. Consider the metrics ..." -> the first sentence
// (the problem) and the rest (the advice neuron-profile gives; empty when it gives none).
std::pair<std::string, std::string> splitAdvice(std::string_view message);
} // namespace CaptureInputRules

} // namespace lanescope
