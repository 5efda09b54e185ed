#pragma once
// What the synthetic sample's programs (SampleFolderWriter) were compiled from: per program, the op
// each step of its device recipe belongs to, as the NEFF's debug chain names it (NeffDebugWriter),
// and the program's hlo_stats.json (NeffWriter::hloStatsJson) when it has one.
//   naive (aten::pow, mean, rsqrt, mul)   XLA graphs of elementwise ops and a reduction: HLO ops,
//                                         hlo_stats.json with HloMacCount 0 (no dot: 0 FLOPs, known)
//   torch.rms_norm (aten::rms_norm)       an NKI kernel: Penguin ops with kernel_file / kernel_line,
//                                         no HLO level and no hlo_stats.json (FLOPs unknown)
//   torch.compile (CompiledFunction)      XLA graph whose sum of squares is a batched dot of x with
//                                         itself on the Tensor engine: HloMacCount = 512 x 4096
// SYNTHETIC, like everything of the sample.
#include <cstdint>
#include <string>
#include <vector>

namespace lanescope::sampleprogram {

struct StepOp
{
    std::string name;        // HLO instruction, or the NKI Penguin op's type
    std::string opType;      // HLO op_type (the framework op), empty for NKI
    std::string scope;       // framework scope (the "layers" lane), empty for NKI
    std::string penguinType; // "bfloat16<128 x 4096>"
    uint32_t line = 0;       // Python line (XLA) or kernel line (NKI)
};

constexpr const char *kSourceFile = "rmsnorm_sample.py";         // the (synthetic) model script
constexpr const char *kKernelFile = "neuronxcc/nki/rmsnorm_kernel.py"; // the NKI kernel of torch.rms_norm

// One op per step of the program's recipe (same order), for the program launched by host op `op`.
std::vector<StepOp> stepOps(const std::string &op);
// Whether the program is an NKI kernel (no HLO level, no hlo_stats.json).
bool isNki(const std::string &op);
// HloMacCount of the program (multiply-accumulates of its dots per execution), -1 for NKI.
int64_t macCount(const std::string &op);

} // namespace lanescope::sampleprogram
