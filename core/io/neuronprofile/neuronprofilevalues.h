#pragma once
// How neuron-profile's JSON export writes the values NeuronProfileJsonReader turns back into an
// NtffProfile (../shared/docs/formats.md section 4): times in seconds as JSON numbers, engines by one
// of several names ("Tensor", "PE", "TensorE", ...), lanes by the names neuron-profile shows.
#include "io/ntff/ntffprofile.h"

#include <cstdint>
#include <string_view>

namespace lanescope {

class NeuronProfileValues
{
public:
    // A JSON number text in seconds ("0.001867629615", "1.5e-3") -> picoseconds, rounded to nearest
    // (digits past the 18th significant one are ignored). False for anything else or on overflow.
    static bool secondsToPs(std::string_view s, uint64_t &ps);
    // "subgroup": "Tensor" / "PE" / "TensorE" / "TensorMatrix" -> Tensor, "DVE" -> Vector, "ACT" ->
    // Scalar, "POOL" -> GpSimd, "SP" -> Sync, ...; false (and `e` unchanged) for other names.
    static bool engineFromName(std::string_view s, NtffEngine &e);
    // "label": a lane name as ntffLaneName() spells it; false (and `l` unchanged) otherwise.
    static bool laneFromName(std::string_view s, NtffLane &l);
};

} // namespace lanescope
