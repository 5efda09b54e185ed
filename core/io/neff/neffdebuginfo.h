#pragma once
// The NEFF's instruction-to-op chain (docs/neff.md, "The instruction-to-op chain"): for every
// instruction of a subgraph engine's .bin, in binary order, the BIR instruction it was generated
// from, that instruction's Penguin (tensor IR) op, the HLO instruction above it (XLA-built NEFFs) with
// the Python line it came from, and the framework scope; NKI kernels carry the kernel's file and line
// instead. An NTFF row's compiler_pc is the index into its engine's list.
//
// Read from the protobuf debug members (no public schema; field numbers as found in every corpus
// NEFF): sgNN/debug_info_asm_<Engine>.dbg -> sgNN/debug_info_backend_<Engine>.dbg ->
// debug_info/debug_info_penguin.dbg_sg0000NN -> debug_info_hlo.dbg_... -> debug_info_pttf.dbg_...
// A level that is missing (NKI NEFFs have no HLO level) leaves its indices at kNone; a member that
// does not parse is a warning and its level is treated as missing. Each op is stored once; the
// instructions hold indices into the subgraph's tables.
#include "model/diagnostics.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

struct NeffDebugOp
{
    std::string name;     // BIR "I-87-0"; Penguin "float32<128 x 64> $72"; HLO "%op0 = dot(%x, %y)"; scope "UnnamedModule/computation_0"
    std::string file;     // HLO source_file (Python), or the NKI kernel_file
    uint32_t line = 0;    // source_line / kernel_line, 0 = none
    std::string opType;   // HLO op_type ("NKIPy_Op"), else empty
};

struct NeffDebugInstruction
{
    static constexpr uint32_t kNone = UINT32_MAX;
    uint32_t bir = kNone, penguin = kNone, hlo = kNone, scope = kNone; // indices into the subgraph's tables
};

struct NeffEngineDebug
{
    std::string engine; // as the member names it: PE, Activation, DVE, Pool, SP
    std::vector<NeffDebugInstruction> instructions; // one per .bin instruction, in order
};

struct NeffSubgraphDebug
{
    std::string subgraph; // sg00
    std::vector<NeffDebugOp> bir, penguin, hlo, scopes;
    std::vector<NeffEngineDebug> engines;

    const NeffEngineDebug *engine(std::string_view name) const
    {
        for (const NeffEngineDebug &e : engines)
            if (e.engine == name)
                return &e;
        return nullptr;
    }
};

class NeffDebugInfo
{
public:
    // `member(name)`: the bytes of a tar member, or nothing when the NEFF has none by that name.
    // `subgraphs`: the subgraph folders (sg00, sg01, ...). Problems go to `diagnostics` as warnings
    // naming the member and the byte.
    static std::vector<NeffSubgraphDebug> parse(const std::function<std::optional<std::string_view>(std::string_view)> &member,
                                                const std::vector<std::string> &subgraphs, const std::string &file,
                                                Diagnostics &diagnostics);
    // The engine names of the debug members, in the order NEFF engines are listed.
    static const std::vector<std::string> &engineNames();
    // How many instructions (all engines) each HLO op of a subgraph has, most first, then by index;
    // ops with none are left out.
    static std::vector<std::pair<uint32_t, uint64_t>> instructionsPerHlo(const NeffSubgraphDebug &subgraph);
    // How many of an engine's instructions reach each level.
    struct Coverage
    {
        uint64_t instructions = 0, bir = 0, penguin = 0, hlo = 0;
    };
    static Coverage coverage(const NeffEngineDebug &engine);
};

} // namespace lanescope
