#include "queuekind.h"

#include "util/textutil.h"

#include <string>

namespace lanescope {

DeviceRules::QueueKind DeviceRules::queueKind(std::string_view name)
{
    const std::string n = text::lower(name);
    if (n.find("spill") != std::string::npos || n.find("reload") != std::string::npos)
        return QueueKind::SpillReload;
    if (n.find("weight") != std::string::npos)
        return QueueKind::Weights;
    // "qScalarIO0", "qSyncIO0": the upper-case token (lower case "io" also ends "Activation")
    if (name.find("IO") != std::string_view::npos || n.find("input") != std::string::npos || n.find("output") != std::string::npos)
        return QueueKind::Io;
    return QueueKind::Other;
}

const char *DeviceRules::queueKindName(QueueKind k)
{
    switch (k) {
    case QueueKind::Io: return "io";
    case QueueKind::Weights: return "weights";
    case QueueKind::SpillReload: return "spill_reload";
    case QueueKind::Other: return "other";
    }
    return "other";
}

} // namespace lanescope
