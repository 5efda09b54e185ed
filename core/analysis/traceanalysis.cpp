#include "traceanalysis.h"

#include "launchindex.h"
#include "model/trace.h"

namespace lanescope {

TraceAnalysis::TraceAnalysis(std::shared_ptr<const Trace> trace) : m_trace(std::move(trace)) {}

TraceAnalysis::~TraceAnalysis() = default;

std::shared_ptr<const LaunchIndex> TraceAnalysis::launchIndex() const
{
    std::call_once(m_indexOnce, [this] {
        auto index = m_trace ? std::make_shared<const LaunchIndex>(LaunchIndex::build(*m_trace))
                             : std::make_shared<const LaunchIndex>();
        const std::lock_guard lock(m_mutex);
        m_index = std::move(index);
    });
    const std::lock_guard lock(m_mutex);
    return m_index;
}

bool TraceAnalysis::hasLaunchIndex() const
{
    const std::lock_guard lock(m_mutex);
    return m_index != nullptr;
}

} // namespace lanescope
