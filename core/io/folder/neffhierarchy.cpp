#include "neffhierarchy.h"

#include "io/neff/neffinfo.h"
#include "io/ntff/ntffprofile.h"

#include <string_view>
#include <unordered_map>

namespace lanescope {

namespace {

// The debug members' engine name of an NTFF engine (NeffDebugInfo::engineNames).
std::string_view debugEngine(NtffEngine e)
{
    switch (e) {
    case NtffEngine::Tensor: return "PE";
    case NtffEngine::Scalar: return "Activation";
    case NtffEngine::Vector: return "DVE";
    case NtffEngine::GpSimd: return "Pool";
    case NtffEngine::Sync: return "SP";
    }
    return {};
}

} // namespace

size_t NeffHierarchy::apply(const NeffInfo &neff, NtffProfile &profile)
{
    const NeffSubgraphDebug *sg = nullptr;
    for (const NeffSubgraphDebug &d : neff.debug)
        if (d.subgraph == profile.subgraphName)
            sg = &d;
    if (!sg && !neff.debug.empty())
        sg = &neff.debug.front();
    if (!sg)
        return 0;
    std::unordered_map<std::string, uint32_t> index; // name -> 1 + index in profile.names
    for (size_t i = 0; i < profile.names.size(); ++i)
        index.emplace(profile.names[i], uint32_t(i + 1));
    const auto nameOf = [&](const std::string &name) -> uint32_t {
        if (name.empty())
            return 0;
        const auto [it, added] = index.try_emplace(name, uint32_t(profile.names.size() + 1));
        if (added)
            profile.names.push_back(name);
        return it->second;
    };
    std::vector<uint32_t> hloName(sg->hlo.size(), UINT32_MAX), scopeName(sg->scopes.size(), UINT32_MAX); // interned lazily
    const NeffEngineDebug *engines[kNtffEngineCount + 1] = {};
    for (int e = 1; e <= kNtffEngineCount; ++e)
        engines[e] = sg->engine(debugEngine(NtffEngine(e)));
    size_t named = 0;
    for (size_t i = 0; i < profile.instructions.size(); ++i) {
        const NtffInstructionRow &r = profile.instructions[i];
        const size_t e = size_t(r.engine);
        if (!r.hasCompilerPc() || e == 0 || e > size_t(kNtffEngineCount) || !engines[e]
            || size_t(r.compilerPc) >= engines[e]->instructions.size())
            continue;
        const NeffDebugInstruction &d = engines[e]->instructions[size_t(r.compilerPc)];
        NtffInstructionOp op;
        if (d.hlo < sg->hlo.size()) {
            if (hloName[d.hlo] == UINT32_MAX)
                hloName[d.hlo] = nameOf(sg->hlo[d.hlo].name);
            op.hlo = hloName[d.hlo];
        }
        if (d.scope < sg->scopes.size()) {
            if (scopeName[d.scope] == UINT32_MAX)
                scopeName[d.scope] = nameOf(sg->scopes[d.scope].name);
            op.layer = scopeName[d.scope];
        }
        if (!op.hlo && !op.layer)
            continue;
        if (profile.instructionOps.size() < profile.instructions.size())
            profile.instructionOps.resize(profile.instructions.size());
        profile.instructionOps[i] = op;
        ++named;
    }
    return named;
}

} // namespace lanescope
