#pragma once
// One dependency graph over every slice of a Trace, built once (DependencyGraph::build), read-only
// afterwards and safe to share between threads. Chains are queried with DependencyChain.
//
// Edges (from -> to means "to depends on from"):
//  * Nesting: parent -> child on thread-like tracks (TrackKind::Slices). Not stored as edges: a
//    parent index per slice (4 bytes) gives the way up, and the children of a slice are the slices
//    one level deeper that follow it in its track before the next slice at its own depth.
//  * Flow: every flow of the trace (Chrome v1 s/t/f incl. Kineto ac2g and fwdbwd, v2 bind_id).
//  * Correlation: `External id` arg: a framework op (cpu_op, user_annotation, ...) -> the runtime or
//    driver calls carrying the same id (cuda_runtime, privateuse1_runtime, ...).
//  * Launch: `correlation` arg: a runtime call -> the device work (kernel, memcpy, memset) with the
//    same correlation id; also the folder loader's "neuron" flows (host execution -> device timeline).
//  * Semaphore: device producer -> the instruction a semaphore update of it released (flows of category
//    "semaphore" made by the NTFF importer, see core/io/ntff/ntffdependencylinker.h; the edge's flow names
//    the semaphore).
//  * DmaQueue: the DMA_DIRECT2D instruction -> the DMA packets it queued (flows "dma_queue").
// A pair linked twice (an ac2g flow and the correlation arg of the same launch) keeps one edge, of the
// later kind in the enum (Launch over Flow).
//
// Storage: the explicit edges sorted by (from, to) as columns (from, to, kind, flow: 13 bytes) plus an
// index sorted by target (4 bytes): 17 bytes per edge. There is no per-slice offset array (CSR's
// offsets would cost 8 bytes per slice in both directions even when a trace has no edges); a binary
// search over the sorted `from` column stands in for it. Per slice only the parent index: 4 bytes.
#include "model/ids.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace lanescope {

class Trace;

enum class DependencyKind : uint8_t { Nesting, Flow, Correlation, Launch, Semaphore, DmaQueue };

const char *dependencyKindName(DependencyKind kind); // "nesting", "flow", ...

struct DependencyEdge
{
    SliceId from;
    SliceId to;
    DependencyKind kind = DependencyKind::Nesting;
    FlowId flow; // the flow behind a Flow / Semaphore / DmaQueue / neuron Launch edge, else invalid
};

class DependencyGraph
{
public:
    DependencyGraph() = default;

    // `cancelled` (optional) is polled now and then; a cancelled build returns an empty graph.
    static DependencyGraph build(const Trace &trace, const std::function<bool()> &cancelled = {});

    const Trace *trace() const { return m_trace; }
    bool empty() const { return m_trace == nullptr; }
    size_t sliceCount() const { return m_parent.size(); }
    size_t edgeCount() const { return m_from.size(); } // explicit edges (nesting not counted)

    // The enclosing slice on a thread-like track, or invalid.
    SliceId parent(SliceId id) const
    {
        return id.value < m_parent.size() ? SliceId(m_parent[id.value]) : SliceId();
    }
    // Every edge into / out of `id`, nesting included, in a stable order: explicit edges by slice id,
    // then the parent / the children in time order. A nesting edge is left out where an explicit edge
    // already links the same pair (a runtime call External-id-linked to the op it is nested in).
    std::vector<DependencyEdge> predecessors(SliceId id) const;
    std::vector<DependencyEdge> successors(SliceId id) const;
    // Calls fn(edge) for each; returning false stops early.
    void forEachPredecessor(SliceId id, const std::function<bool(const DependencyEdge &)> &fn) const;
    void forEachSuccessor(SliceId id, const std::function<bool(const DependencyEdge &)> &fn) const;

    size_t memoryUsage() const;
    double bytesPerSlice() const { return m_parent.empty() ? 0.0 : double(memoryUsage()) / double(m_parent.size()); }

private:
    DependencyEdge edge(size_t i) const
    {
        return DependencyEdge{SliceId(m_from[i]), SliceId(m_to[i]), static_cast<DependencyKind>(m_kind[i]), FlowId(m_flow[i])};
    }

    const Trace *m_trace = nullptr;
    std::vector<uint32_t> m_parent; // per slice, SliceId::kInvalid for none
    std::vector<uint32_t> m_from, m_to, m_flow; // explicit edges sorted by (from, to)
    std::vector<uint8_t> m_kind;
    std::vector<uint32_t> m_byTarget; // edge indices sorted by (to, from)
};

} // namespace lanescope
