#pragma once
// The collective-communication figures of a Neuron device profile, as neuron-profile's summary
// reports them (`neuron-profile view --output-format json`, kept by the reader as
// neuron_profile.summary.*): collective ops (`cc_op_count`, `cc_op_time`, `cc_op_active_time`) and the
// collective cores' instructions (`cc_cores_instruction_count`, `cc_cores_instruction_time`,
// `cc_cores_instruction_active_time`), times in ns. A NEFF without collectives reports zeros (every
// corpus export is single-core). `lanescope-cli collectives` prints them beside the NCCL tables.
#include <cstdint>
#include <optional>

namespace lanescope {

class Trace;

struct NeuronCollectives
{
    int64_t opCount = 0, opTimeNs = 0, opActiveTimeNs = 0;
    int64_t coreInstructionCount = 0, coreInstructionTimeNs = 0, coreInstructionActiveTimeNs = 0;

    // nullopt when the trace carries no neuron-profile summary with these fields.
    static std::optional<NeuronCollectives> of(const Trace &trace);
};

} // namespace lanescope
