#pragma once
// Writes the debug members of a NEFF, the instruction-to-op chain NeffDebugInfo reads
// (docs/neff.md, "The instruction-to-op chain"), in the protobuf wire layout found in every corpus
// NEFF: per engine sgNN/debug_info_asm_<Engine>.dbg (one entry per .bin instruction, in order) ->
// sgNN/debug_info_backend_<Engine>.dbg (BIR instructions "I-<n>-0") -> debug_info/debug_info_penguin
// (Penguin ops) -> debug_info/debug_info_hlo (HLO instructions with op_type, source_file,
// source_line; XLA-built NEFFs) -> debug_info/debug_info_pttf (framework scopes). NKI kernels stop
// at Penguin, with kernel_file / kernel_line. Used by the synthetic sample and tests; the output is
// deterministic.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lanescope {

class NeffDebugWriter
{
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    // An HLO instruction ("%sum.2 = dot(%square.1, %ones)") of framework scope `scope`
    // ("RMSNorm/forward"), made from the Python line sourceFile:line; one Penguin op
    // ("bfloat16<128 x 4096> $N") is made for it. Returns the Penguin op's index.
    uint32_t addHlo(const std::string &name, const std::string &opType, const std::string &sourceFile, uint32_t line,
                    const std::string &scope, const std::string &penguinType);
    // A Penguin op of an NKI kernel (no HLO above it), from kernelFile:line. Returns its index.
    uint32_t addKernelOp(const std::string &penguinType, const std::string &kernelFile, uint32_t line);
    // The next .bin instruction of `engine` (PE, Activation, Pool, DVE, SP: NeffDebugInfo::engineNames)
    // generated from Penguin op `penguin`; kNone: a runtime instruction (preamble, NOTIFY) without a
    // BIR instruction.
    void addInstruction(const std::string &engine, uint32_t penguin);

    // Member name -> bytes, for NeffWriter::addMember. Empty when nothing was added.
    std::vector<std::pair<std::string, std::string>> members(const std::string &subgraph = "sg00") const;

private:
    struct Hlo
    {
        std::string name, opType, file;
        uint32_t line = 0, scope = 0;
    };
    struct Penguin
    {
        std::string name;
        uint32_t hlo = kNone;
        uint32_t file = kNone, line = 0; // NKI: index into m_files
    };
    std::vector<std::string> m_scopes, m_files;
    std::vector<Hlo> m_hlo;
    std::vector<Penguin> m_penguin;
    std::vector<std::pair<std::string, std::vector<uint32_t>>> m_engines; // engine -> Penguin op per instruction
};

} // namespace lanescope
