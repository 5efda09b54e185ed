#pragma once
// The names under which a device trace carries the compiled model's hierarchy: which framework layer and
// which HLO op each instruction belongs to (neuron-profile JSON "layer" / "hlo_name"), and which tensor
// each DMA moves. The NTFF / neuron-profile JSON importer writes them; OpBreakdown, TensorTable and the
// views read them:
//   instruction slices   args "layer" and "hlo_op" (strings; absent = none)
//   lanes "layers", "HLO ops" in the NeuronCore group, above the engine lanes: one slice per run of
//                        instructions of one layer / op in time order (instructions of no layer do not
//                        break a run), category "layer" / "hlo_op", named as the layer / op, arg
//                        "instructions" = how many instructions the run holds
//   DMA packet slices    args "variable" (the tensor moved), "source", "dest" (memories: "WEIGHT", "SB")
//   lane "DMA transfers" one slice per DMA transfer neuron-profile summarises (JSON "aggregated" rows),
//                        named as its tensor, category "dma_transfer", args transfer_size, queue,
//                        variable, source, dest
namespace lanescope {

// A lane the importer adds to the NeuronCore group, and the category of its slices.
struct HierarchyLane
{
    const char *name;
    const char *category;
};

// One level of the hierarchy (layer, HLO op): the instruction arg naming it, and the lane of its runs
// (each run's slice named as the layer / op, with arg kInstructionsArg).
struct HierarchyLevel
{
    const char *arg;
    HierarchyLane lane;
};

// The args a DMA packet (and a DMA transfer) is tagged with: the tensor moved and the two memories.
struct DmaTagArgs
{
    const char *variable, *source, *dest;
};

struct HierarchyNames
{
    static constexpr HierarchyLevel kLayer{"layer", {"layers", "layer"}};
    static constexpr HierarchyLevel kHlo{"hlo_op", {"HLO ops", "hlo_op"}};
    static constexpr const char *kInstructionsArg = "instructions";
    static constexpr DmaTagArgs kDmaTags{"variable", "source", "dest"};
    static constexpr HierarchyLane kTransfers{"DMA transfers", "dma_transfer"};
};

} // namespace lanescope
