#include "traceanalysis.h"

#include "executioncost.h"
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

std::shared_ptr<const ExecutionCost> TraceAnalysis::executionCost() const
{
    const std::shared_ptr<const LaunchIndex> index = launchIndex();
    std::call_once(m_costOnce, [this, &index] {
        m_cost = m_trace ? std::make_shared<const ExecutionCost>(ExecutionCost::build(*m_trace, *index))
                         : std::make_shared<const ExecutionCost>();
    });
    return m_cost; // written once inside call_once, which orders it before every return
}

bool TraceAnalysis::hasLaunchIndex() const
{
    const std::lock_guard lock(m_mutex);
    return m_index != nullptr;
}

} // namespace lanescope
