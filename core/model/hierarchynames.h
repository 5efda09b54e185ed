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

struct HierarchyNames
{
    static constexpr const char *kLayerArg = "layer";
    static constexpr const char *kHloArg = "hlo_op";
    static constexpr const char *kLayerLane = "layers";
    static constexpr const char *kHloLane = "HLO ops";
    static constexpr const char *kLayerCategory = "layer";
    static constexpr const char *kHloCategory = "hlo_op";
    static constexpr const char *kInstructionsArg = "instructions";
    static constexpr const char *kVariableArg = "variable";
    static constexpr const char *kSourceArg = "source";
    static constexpr const char *kDestArg = "dest";
    static constexpr const char *kTransferLane = "DMA transfers";
    static constexpr const char *kTransferCategory = "dma_transfer";
};

} // namespace lanescope
