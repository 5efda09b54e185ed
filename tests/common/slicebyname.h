#pragma once
// The first slice of a trace with the given name (tests over small hand-built traces).
#include "model/trace.h"

#include <string_view>

namespace lanescope {

inline SliceId sliceByName(const Trace &trace, std::string_view name)
{
    for (uint32_t i = 0; i < trace.allSlices().size(); ++i)
        if (trace.str(trace.allSlices()[i].name) == name)
            return SliceId(i);
    return {};
}

} // namespace lanescope
