#include "dmaqueuekinds.h"

#include "model/trace.h"

namespace lanescope {

namespace {

constexpr std::string_view kKey = "neff.dma_queue.";

bool either(std::string_view from, std::string_view to, std::string_view type) { return from == type || to == type; }

} // namespace

DmaQueueKind DmaQueueKinds::fromTraffic(std::string_view traffic)
{
    const size_t arrow = traffic.find("->");
    const std::string_view from = traffic.substr(0, arrow), to = arrow == std::string_view::npos ? "" : traffic.substr(arrow + 2);
    if (either(from, to, "input") || either(from, to, "output"))
        return DmaQueueKind::Io;
    if (either(from, to, "file") || either(from, to, "weight") || either(from, to, "const"))
        return DmaQueueKind::Weights;
    if (either(from, to, "state-buffer") && either(from, to, "virtual"))
        return DmaQueueKind::SpillReload;
    return DmaQueueKind::Other;
}

DmaQueueKinds DmaQueueKinds::fromTrace(const Trace &trace)
{
    DmaQueueKinds k;
    for (const auto &[key, value] : trace.metadata().entries) {
        const size_t at = key.find(kKey);
        if (at != std::string::npos)
            k.m_neff.emplace(key.substr(at + kKey.size()), fromTraffic(value)); // the first NEFF naming it wins
    }
    return k;
}

std::string DmaQueueKinds::queueOf(std::string_view laneName) { return std::string(laneName.substr(0, laneName.find("-Q"))); }

bool DmaQueueKinds::fromNeff(std::string_view laneName) const { return m_neff.count(queueOf(laneName)) > 0; }

DmaQueueKind DmaQueueKinds::of(std::string_view laneName) const
{
    const auto it = m_neff.find(queueOf(laneName));
    return it != m_neff.end() ? it->second : dmaQueueKind(laneName);
}

} // namespace lanescope
