#include "waittrace.h"

#include "dependencygraph.h"
#include "enginebreakdown.h"
#include "neuroncoretracks.h"

#include "model/trace.h"

#include <algorithm>

namespace lanescope {

namespace {

struct EngineLanes
{
    GroupId core;
    NeuronEngine engine = NeuronEngine::Tensor;
    std::vector<TrackId> tracks;
};

// The engine lanes of the core `track` belongs to, when it is an engine lane (`cores`: coretracks::find).
bool lanesOf(const Trace &trace, const std::vector<coretracks::Core> &cores, TrackId track, EngineLanes &out)
{
    const GroupId core = coretracks::neuronCoreOf(trace, trace.track(track).group);
    if (!core.isValid())
        return false;
    for (const coretracks::Core &c : cores)
        for (int e = 0; e < kNeuronEngineCount; ++e)
            if (c.core == core && std::find(c.engines[size_t(e)].begin(), c.engines[size_t(e)].end(), track) != c.engines[size_t(e)].end()) {
                out = {core, NeuronEngine(e), c.engines[size_t(e)]};
                return true;
            }
    return false;
}

// The instruction on `lanes` that ends last at or before `s` starts (ties: the later start), other than `self`.
SliceId enginePredecessor(const Trace &trace, const EngineLanes &lanes, const Slice &s, SliceId self)
{
    SliceId best;
    int64_t bestEnd = INT64_MIN, bestStart = INT64_MIN;
    for (TrackId t : lanes.tracks) {
        const auto slices = trace.slices(t);
        const auto [first, last] = trace.sliceRange(t, INT64_MIN / 2, s.start);
        for (uint32_t i = first; i < last; ++i) {
            const Slice &x = slices[i];
            const SliceId id = trace.sliceId(t, i);
            if (id == self || x.start > s.start || (x.start == s.start && id.value >= self.value))
                continue;
            const int64_t end = std::min(x.end(), s.start);
            if (end > bestEnd || (end == bestEnd && x.start > bestStart)) {
                best = id;
                bestEnd = end;
                bestStart = x.start;
            }
        }
    }
    return best;
}

} // namespace

const char *WaitTraceResult::stopName(Stop s)
{
    switch (s) {
    case Stop::SemaphoreWait: return "semaphore_wait";
    case Stop::IdleGap: return "idle_gap";
    case Stop::EngineStart: return "engine_start";
    case Stop::MaxSteps: return "max_steps";
    case Stop::NotAnInstruction: return "not_an_instruction";
    }
    return "?";
}

const char *WaitTraceResult::viaName(WaitStep::Via v)
{
    switch (v) {
    case WaitStep::Via::Start: return "start";
    case WaitStep::Via::Engine: return "engine";
    case WaitStep::Via::Semaphore: return "semaphore";
    case WaitStep::Via::DmaQueue: return "dma_queue";
    }
    return "?";
}

WaitTraceResult WaitTrace::upstream(const Trace &trace, const DependencyGraph &graph, SliceId from, size_t maxSteps)
{
    WaitTraceResult r;
    if (!from.isValid() || from.value >= trace.allSlices().size())
        return r;
    const std::vector<coretracks::Core> cores = coretracks::find(trace); // once, not per step
    SliceId cur = from;
    WaitStep::Via via = WaitStep::Via::Start;
    while (true) {
        r.steps.push_back({cur, via});
        const Slice &s = trace.slice(cur);
        const TrackId track = trace.trackOfSlice(cur);
        EngineLanes lanes;
        const bool instruction = lanesOf(trace, cores, track, lanes);
        // the latest-ending device producer (semaphore release, DMA trigger)
        SliceId producer;
        int64_t producerEnd = INT64_MIN;
        DependencyKind producerKind = DependencyKind::Semaphore;
        FlowId producerFlow;
        for (const DependencyEdge &e : graph.predecessors(cur)) {
            if (e.kind != DependencyKind::Semaphore && e.kind != DependencyKind::DmaQueue)
                continue;
            const Slice &p = trace.slice(e.from);
            if (p.end() > producerEnd) {
                producer = e.from;
                producerEnd = p.end();
                producerKind = e.kind;
                producerFlow = e.flow;
            }
        }
        if (instruction && EngineBreakdown::isSemaphoreWait(trace.str(s.name)) && s.duration > 0) {
            r.stop = WaitTraceResult::Stop::SemaphoreWait;
            r.wait = cur;
            r.waitNs = s.duration;
            r.engine = std::string(trace.str(trace.track(track).name));
            r.releasedBy = producer;
            if (producerFlow.isValid())
                r.semaphore = std::string(trace.str(trace.flows()[producerFlow.value].name));
            return r;
        }
        if (r.steps.size() > maxSteps) {
            r.stop = WaitTraceResult::Stop::MaxSteps;
            return r;
        }
        const SliceId before = instruction ? enginePredecessor(trace, lanes, s, cur) : SliceId();
        const int64_t beforeEnd = before.isValid() ? std::min(trace.slice(before).end(), s.start) : INT64_MIN;
        if (producer.isValid() && producerEnd >= beforeEnd) {
            cur = producer;
            via = producerKind == DependencyKind::DmaQueue ? WaitStep::Via::DmaQueue : WaitStep::Via::Semaphore;
            continue;
        }
        if (!before.isValid()) {
            r.stop = instruction || producer.isValid() ? WaitTraceResult::Stop::EngineStart : WaitTraceResult::Stop::NotAnInstruction;
            if (r.steps.size() > 1 && r.stop == WaitTraceResult::Stop::NotAnInstruction)
                r.stop = WaitTraceResult::Stop::EngineStart; // a DMA packet reached upstream with no trigger
            return r;
        }
        if (s.start - beforeEnd >= WaitTrace::kMinIdleGapNs) { // the engine sat idle, no producer explains it
            r.stop = WaitTraceResult::Stop::IdleGap;
            r.wait = cur;
            r.waitNs = s.start - beforeEnd;
            r.engine = std::string(trace.str(trace.track(track).name));
            return r;
        }
        cur = before;
        via = WaitStep::Via::Engine;
    }
}

} // namespace lanescope
