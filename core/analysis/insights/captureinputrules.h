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
#include "rule.h"

namespace lanescope {

namespace CaptureInputRules {
RuleFunction partialInput, clockAlignment; // capture-partial-input, capture-clock-alignment
} // namespace CaptureInputRules

} // namespace lanescope
