#pragma once
// Names an NTFF's instructions from its NEFF: each executed instruction's compiler_pc indexes its
// engine's list of the NEFF's debug chain (core/io/neff/neffdebuginfo.h), which gives the HLO op
// ("%op0 = dot(%x, %y)", XLA-built NEFFs) and the framework scope ("UnnamedModule/computation_0") it
// came from: they become the instruction's HLO op and layer (NtffProfile::instructionOps), as
// neuron-profile's JSON export names them, so the "layers" / "HLO ops" lanes and `engines --by` work
// on an NTFF + NEFF pair. NKI NEFFs have no HLO level: their instructions get the scope only.
#include <cstddef>

namespace lanescope {

struct NeffInfo;
struct NtffProfile;

class NeffHierarchy
{
public:
    // Fills profile.names / instructionOps for the rows the NEFF's debug chain covers (the subgraph
    // named like the profile's, else the first); returns how many rows got an HLO op or a layer.
    static size_t apply(const NeffInfo &neff, NtffProfile &profile);
};

} // namespace lanescope
