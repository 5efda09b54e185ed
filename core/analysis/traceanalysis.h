#pragma once
// What is computed once per trace and shared by every view of it: the LaunchIndex (the operator,
// kernel and device tables, the Summary's findings and its regions all read it) and the ExecutionCost
// of its NEFF executions (the operator table's FLOPs, MFU and DMA bytes, on every range or grouping). The Session makes one
// per trace shown and starts building it off the GUI thread at once; a view asks for it on its own
// worker thread. Thread-safe: the first caller builds, callers meanwhile wait for that build, later
// callers get the same object.
#include <memory>
#include <mutex>

namespace lanescope {

class ExecutionCost;
class LaunchIndex;
class Trace;

class TraceAnalysis
{
public:
    explicit TraceAnalysis(std::shared_ptr<const Trace> trace);
    ~TraceAnalysis();
    TraceAnalysis(const TraceAnalysis &) = delete;
    TraceAnalysis &operator=(const TraceAnalysis &) = delete;

    const std::shared_ptr<const Trace> &trace() const { return m_trace; }
    // Built on the first call (which blocks until it is), the same object afterwards. Never null.
    std::shared_ptr<const LaunchIndex> launchIndex() const;
    // Whether launchIndex() would return without building.
    bool hasLaunchIndex() const;
    // Built on the first call from launchIndex() (blocking likewise), the same object afterwards.
    std::shared_ptr<const ExecutionCost> executionCost() const;

private:
    std::shared_ptr<const Trace> m_trace;
    mutable std::once_flag m_indexOnce;
    mutable std::shared_ptr<const LaunchIndex> m_index;
    mutable std::once_flag m_costOnce;
    mutable std::shared_ptr<const ExecutionCost> m_cost;
    mutable std::mutex m_mutex; // guards m_index for hasLaunchIndex()
};

} // namespace lanescope
