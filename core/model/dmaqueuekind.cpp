#include "model/dmaqueuekind.h"

#include "util/textutil.h"

#include <string>

namespace lanescope {

DmaQueueKind dmaQueueKind(std::string_view name)
{
    const std::string n = text::lower(name);
    if (n.find("spill") != std::string::npos || n.find("reload") != std::string::npos)
        return DmaQueueKind::SpillReload;
    if (n.find("weight") != std::string::npos)
        return DmaQueueKind::Weights;
    // "qScalarIO0", "qSyncIO0": the upper-case token (lower case "io" also ends "Activation")
    if (name.find("IO") != std::string_view::npos || n.find("input") != std::string::npos || n.find("output") != std::string::npos)
        return DmaQueueKind::Io;
    return DmaQueueKind::Other;
}

const char *dmaQueueKindName(DmaQueueKind k)
{
    switch (k) {
    case DmaQueueKind::Io: return "io";
    case DmaQueueKind::Weights: return "weights";
    case DmaQueueKind::SpillReload: return "spill_reload";
    case DmaQueueKind::Other: return "other";
    }
    return "other";
}

} // namespace lanescope
