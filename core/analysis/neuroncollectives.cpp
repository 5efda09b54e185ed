#include "neuroncollectives.h"

#include "neuroncoretracks.h"

#include <cmath>
#include <string>

namespace lanescope {

std::optional<NeuronCollectives> NeuronCollectives::of(const Trace &trace)
{
    bool any = false;
    const auto field = [&](const char *key) -> int64_t {
        const std::optional<double> v = coretracks::metadataNumber(trace, std::string("neuron_profile.summary.") + key);
        any = any || v.has_value();
        return v ? std::llround(*v) : 0;
    };
    NeuronCollectives c;
    c.opCount = field("cc_op_count");
    c.opTimeNs = field("cc_op_time");
    c.opActiveTimeNs = field("cc_op_active_time");
    c.coreInstructionCount = field("cc_cores_instruction_count");
    c.coreInstructionTimeNs = field("cc_cores_instruction_time");
    c.coreInstructionActiveTimeNs = field("cc_cores_instruction_active_time");
    if (!any)
        return std::nullopt;
    return c;
}

} // namespace lanescope
