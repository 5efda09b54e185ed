#pragma once
// The layer and HLO op of each NTFF instruction, taken from neuron-profile's JSON export of the same
// profile: the NTFF has neither (they come from the NEFF's debug info, which neuron-profile reads and
// the NTFF does not carry), the export has them per row ("layer", "hlo_name"). An export row and an
// NTFF row are the same instruction when physical core, engine, pc, ns start and ns duration agree
// (docs/ntff.md: every instruction row of the corpus exports equals the NTFF's). The export's
// layer_summary rows come along too (its FLOPs, MFU and HFU per layer), so `engines --by layer` on the
// NTFF shows the export's layers with the NTFF's picosecond times (exact to layer_summary).
//
// Copies nothing unless at least 99 % of the NTFF's rows find their export row (another execution of
// the same program has other times). Identity (same program) is checked by the caller
// (OpcodeNameTable::learn).
#include "ntffprofile.h"

#include <cstddef>

namespace lanescope {

class NtffExportOps
{
public:
    static constexpr double kMinMatched = 0.99;

    struct Result
    {
        size_t matched = 0;  // NTFF rows that found their export row
        size_t tagged = 0;   // ... of which carry a layer or an HLO op
        size_t rows = 0;     // NTFF rows
        bool copied = false;
    };
    // Sets ntff.instructionOps (and the names they use) from `json`, and appends its
    // neuron_profile.layer_summary metadata, when the rows match; leaves `ntff` unchanged otherwise.
    static Result copy(NtffProfile &ntff, const NtffProfile &json);
};

} // namespace lanescope
