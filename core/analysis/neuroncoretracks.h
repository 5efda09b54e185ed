#pragma once
// The lanes of each NeuronCore in a Trace, and the small pieces every per-engine computation shares
// (EngineBreakdown, OpBreakdown): engine lanes by engine (lane names as EngineBreakdown::engineOf reads
// them; "Tensor" = Tensor + TensorMatrix), DMA queue lanes (category "dma"), the union of intervals, and
// neuron-profile's reported numbers kept in the trace metadata.
#include "enginebreakdown.h"

#include "model/ids.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;

namespace coretracks {

using Interval = std::pair<int64_t, int64_t>; // [start, end)

struct Core
{
    GroupId core;
    std::array<std::vector<TrackId>, kNeuronEngineCount> engines;
    std::vector<TrackId> dma;
};

// Every NeuronCore with engine or DMA lanes, in the cores' display order: a trn2 core's engine lanes of
// both physical cores ("pcore 4", "pcore 5" groups below it) count as the logical core's, as AWS reports
// them. Only the lanes of `laneSet` (directly, or in its physical-core groups) when it is valid (one
// execution's lane set).
std::vector<Core> find(const Trace &trace, GroupId laneSet = {});

// Sorts and merges in place; returns the merged intervals' total length.
int64_t mergeIntervals(std::vector<Interval> &iv);

// A metadata entry read as a finite number ("neuron_profile.summary.model_flops").
std::optional<double> metadataNumber(const Trace &trace, std::string_view key);

// The NeuronCore group `g` is in (itself or an ancestor), or invalid.
GroupId neuronCoreOf(const Trace &trace, GroupId g);

} // namespace coretracks

} // namespace lanescope
