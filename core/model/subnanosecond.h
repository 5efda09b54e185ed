#pragma once
// Picosecond timing of a slice whose source is finer than the ns the model keeps (an NTFF instruction:
// its records are ps on the device clock, its row a floored ns start and a floored ns duration).
// The importer adds one int arg, kArg = start remainder x 1000 + duration remainder (each 0..999 ps):
//   exact begin    = start x 1000 + v / 1000   ps
//   exact duration = duration x 1000 + v % 1000 ps
// A slice without it is whole ns (remainders 0). neuron-profile sums instruction times in ps and floors
// the total once, so per-engine and per-layer times that equal its layer_summary need these
// (docs/ntff.md, "Engine and layer times").
#include "ids.h"
#include "records.h"

#include <cstdint>

namespace lanescope {

struct SubNanosecond
{
    static constexpr const char *kArg = "sub_ns_ps";

    struct Remainders
    {
        int64_t startPs = 0;    // 0..999
        int64_t durationPs = 0; // 0..999
    };
    static constexpr uint32_t pack(int64_t startPs, int64_t durationPs)
    {
        return uint32_t(startPs) * 1000u + uint32_t(durationPs);
    }
    static constexpr Remainders unpack(int64_t v)
    {
        if (v < 0 || v >= 1000000)
            return {};
        return {v / 1000, v % 1000};
    }
};

} // namespace lanescope
