#pragma once
// NTFF (raw Neuron device trace) -> trace model. Group hierarchy: device > "NeuronCore 0 (sg00)" >
// one slice track per engine lane (Tensor, TensorMatrix, Vector, Scalar, GpSimd, Sync, in that
// order) and one per DMA queue (engine/queue, named from the queue descriptors), counter tracks for
// pending DMAs and throttling, and a "semaphores" group with one counter track per semaphore.
// Times are ns from the trace origin (the end of the start NOTIFY), as neuron-profile shows them.
// A Neuron Explorer profile adds the lanes of NtffProfile::eventLanes (collective ops, CC-Core N, core
// barriers, errors) and its own dependency edges (NtffProfile::dependencies: flows "dependency").
#include "io/input/loadoptions.h"
#include "ntffprofile.h"

#include <string>

namespace lanescope {

class InputBuffer;

class NtffImporter
{
public:
    // Decodes with NtffReader and builds the model. Throws ImportError or LoadCancelled.
    static Trace import(const InputBuffer &input, const std::string &name, const LoadOptions &options);
    // Builds the model from an already decoded profile (progress reported 900..1000).
    static Trace build(const NtffProfile &profile, const std::string &name, const LoadOptions &options = {});

    // "qSyncSpillReload0-Q1-E0" (neuron-profile's lane name) or "Q14-E2" without a descriptor.
    static std::string dmaTrackName(const NtffProfile &profile, uint32_t engine, uint32_t queue);
    static std::string coreGroupName(const NtffProfile &profile);
};

} // namespace lanescope
