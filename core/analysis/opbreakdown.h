#pragma once
// Per-engine breakdown of each framework layer or HLO op of a NeuronCore (`engines --by layer|hlo`, the
// Engines dock's "By layer" / "By HLO op" modes): which layer an instruction belongs to is its "layer" /
// "hlo_op" arg (model/hierarchynames.h; neuron-profile JSON carries them). Definitions are
// EngineBreakdown's (instruction count with semaphore waits; instruction time and active time without
// them, active = union of the engine's intervals), over the layer's own instructions; the first row of
// each physical core is its whole program (every instruction of that core), as neuron-profile's
// layer_summary has it (trn2: "/sg00" and "/sg01", the layers below the core they ran on):
//   name        "/sg00/_dot.3" (neuron-profile's), the program "/sg00"; the subgraph from the metadata
//   start, end  first instruction start, latest instruction end (layer_summary start / end)
//   times       summed in picoseconds and floored to ns once, as neuron-profile does: equal to its
//               layer_summary to the ns on an NTFF (whose instructions keep their ps, SubNanosecond); on
//               a JSON export alone (ns rows, their union up to 1 ns per instruction short) the rows
//               layer_summary has take its engine times, and `flopsNote` says so (docs/ntff.md)
//   FLOPs, MFU, HFU  as neuron-profile reported them in layer_summary (tensor_engine_flop_count,
//               _model_flop_count, _mfu, _hfu as %): no FLOP count is attributed to an instruction in
//               either file, so they exist only where layer_summary has the layer and the trace is that
//               one export (one core); `flopsNote` says why they are missing otherwise.
// Checked row by row against layer_summary of every corpus JSON (tests/core/analysis/tst_opbreakdown.cpp).
#include "enginebreakdown.h"

#include "model/ids.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class Trace;

struct OpEngineTime
{
    uint64_t instructionCount = 0;   // semaphore waits included
    uint64_t semaphoreWaitCount = 0;
    int64_t instructionTimeNs = 0;   // waits excluded
    int64_t activeTimeNs = 0;        // union, waits excluded
};

struct OpBreakdownRow
{
    GroupId core;
    std::string coreName;
    std::string name;  // "/sg00/_dot.3"; the whole program "/sg00"
    std::string op;    // the layer / HLO op as the instructions carry it ("_dot.3"); "" = whole program
    int64_t startNs = 0, endNs = 0;
    int64_t durationNs = 0; // first start to latest end in ps, floored (layer_summary duration; endNs - startNs or 1 less)
    uint64_t instructionCount = 0;
    std::array<OpEngineTime, kNeuronEngineCount> engines{};
    std::optional<double> flops, modelFlops, mfuPercent, hfuPercent; // neuron-profile's layer_summary
};

struct OpBreakdownResult
{
    std::vector<OpBreakdownRow> rows; // per core: the program first, then its layers by start
    bool any = false;                 // some instruction carries a layer / op
    std::string flopsNote;
};

class OpBreakdown
{
public:
    enum class By { Layer, HloOp };
    static OpBreakdownResult compute(const Trace &trace, By by);
    static const char *byName(By by) { return by == By::Layer ? "layer" : "hlo"; }

    // A slice of the "layers" / "HLO ops" lane: the instructions of its run (same core, same layer / op,
    // starting inside it), in lane then time order; empty for any other slice.
    static std::vector<SliceId> instructionsOf(const Trace &trace, SliceId span);
    // Every instruction of one layer / HLO op on a core (a row of compute()), in lane then time order.
    static std::vector<SliceId> instructionsOf(const Trace &trace, GroupId core, By by, std::string_view op);
    // The breakdown of those instructions alone (name = the span's), for the Details of a span.
    static OpBreakdownRow summarize(const Trace &trace, SliceId span, const std::vector<SliceId> &instructions);
};

} // namespace lanescope
