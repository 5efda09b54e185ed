#pragma once
// Where a NeuronCore instruction's time went, upstream (Neuron Explorer's device-level "Trace"
// action): from an instruction, step back to whatever let it start, until an engine that sat idle
// waiting. Each step goes to the latest-ending of
//   - the instruction before it on the same engine (every lane of that engine on the core: Tensor and
//     TensorMatrix are one engine), and
//   - its device producers in the dependency graph (Semaphore edges: the instruction or DMA packet whose
//     semaphore update released it; DmaQueue edges: the DMA_DIRECT2D that queued a packet),
// since the later of them is what it waited for. It stops at
//   - a semaphore wait (EVENT_SEMAPHORE with a duration): the engine sat idle for that long, waiting on
//     the semaphore its releasing producer (if the trace links one) updated; or
//   - an idle gap of at least kMinIdleGapNs on the engine with no later producer: the engine sat idle,
//     the cause not in the trace (shorter gaps are issue latency between instructions);
//   - the start of the engine's work, or maxSteps.
// `lanescope-cli chain --event ID --wait` prints it (tests/core/analysis/tst_waittrace.cpp).
#include "model/ids.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

class DependencyGraph;
class Trace;

struct WaitStep
{
    enum class Via : uint8_t { Start, Engine, Semaphore, DmaQueue };
    SliceId slice;
    Via via = Via::Start; // how this step was reached from the one before it
};

struct WaitTraceResult
{
    enum class Stop : uint8_t { SemaphoreWait, IdleGap, EngineStart, MaxSteps, NotAnInstruction };
    std::vector<WaitStep> steps; // the instruction first, then upstream
    Stop stop = Stop::NotAnInstruction;
    SliceId wait;        // the EVENT_SEMAPHORE (SemaphoreWait) or the instruction after the gap (IdleGap)
    int64_t waitNs = 0;  // how long the engine sat idle
    std::string engine;  // its lane ("Tensor")
    SliceId releasedBy;  // SemaphoreWait: the producer whose update ended the wait, when linked
    std::string semaphore; // the edge's name ("S[25] >= 16"), when linked

    static const char *stopName(Stop s);
    static const char *viaName(WaitStep::Via v);
};

class WaitTrace
{
public:
    static constexpr int64_t kMinIdleGapNs = 100;
    static WaitTraceResult upstream(const Trace &trace, const DependencyGraph &graph, SliceId from, size_t maxSteps = 256);
};

} // namespace lanescope
