#pragma once
// The compiled program (NEFF) behind a device execution of a profile folder: for a slice of a device
// timeline (an instruction, a DMA packet) or a host event that started one (nrt_execute,
// nc_exec_running: their "device execution" / "device instructions" flow), the NEFF file the
// folder paired with that timeline's NTFF. The Details dock offers it as "Open NEFF".
#include "model/ids.h"

#include <string>

namespace lanescope {

class Trace;

class ExecutionNeff
{
public:
    // The NEFF's path (the opened folder + its relative path), or empty when none is known: not a
    // profile folder, a slice of no device execution, an NTFF without a paired NEFF.
    static std::string find(const Trace &trace, SliceId slice);
    // The top-level NeuronCore group of the device timeline `slice` is on or starts, or invalid.
    static GroupId deviceGroup(const Trace &trace, SliceId slice);
};

} // namespace lanescope
