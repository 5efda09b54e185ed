#pragma once
// The dependency chain of one slice over a DependencyGraph:
//  * upstream: everything it transitively depends on, following edges backwards (flows, correlation
//    and launch links, semaphores, DMA triggers) and nesting upwards only (parent, grandparent, ...).
//    Upstream of a kernel: its launching runtime call, that call's enclosing ops up to the root, the
//    op that External-id-links to the call, and whatever those depend on in turn.
//  * downstream: everything that transitively depends on it, following edges forwards and nesting
//    downwards only (children, grandchildren, ...). Downstream of an op: its nested ops and runtime
//    calls and the kernels they launched.
//  Nesting is never followed sideways: the upstream walk never goes down into a parent's other
//  children, the downstream walk never goes up; siblings join a chain only through a real edge.
//  * criticalPath: the longest dependent path through the slice, by summed duration: the longest
//    path over the upstream edges that ends at it, then the longest over the downstream edges that
//    starts at it (a slice inside a cycle of flows is left out of the longest-path computation).
// Each walk is breadth-first and stops at `maxNodes` slices (`truncated` says so), so a 20M-slice
// trace cannot make a chain explode.
#include "dependencygraph.h"

#include <cstddef>
#include <vector>

namespace lanescope {

class DependencyChain
{
public:
    static constexpr size_t kDefaultMaxNodes = 10000;

    static DependencyChain query(const DependencyGraph &graph, SliceId root, size_t maxNodes = kDefaultMaxNodes);

    SliceId root() const { return m_root; }
    bool empty() const { return !m_root.isValid(); }
    // Breadth-first order: nearest first; the root is in neither list.
    const std::vector<SliceId> &upstream() const { return m_upstream; }
    const std::vector<SliceId> &downstream() const { return m_downstream; }
    // Edges the walks used: upstream ones end at an upstream slice or the root, downstream ones start there.
    const std::vector<DependencyEdge> &upstreamEdges() const { return m_upstreamEdges; }
    const std::vector<DependencyEdge> &downstreamEdges() const { return m_downstreamEdges; }
    bool upstreamTruncated() const { return m_upstreamTruncated; }
    bool downstreamTruncated() const { return m_downstreamTruncated; }

    // Every slice of the chain, root included, sorted by id (for membership tests: contains()).
    const std::vector<SliceId> &members() const { return m_members; }
    bool contains(SliceId id) const;

    // Root-ward first: the path's slices in dependency order, root included; its summed duration.
    std::vector<SliceId> criticalPath(int64_t *totalNs = nullptr) const;

private:
    const DependencyGraph *m_graph = nullptr;
    SliceId m_root;
    std::vector<SliceId> m_upstream, m_downstream, m_members;
    std::vector<DependencyEdge> m_upstreamEdges, m_downstreamEdges;
    bool m_upstreamTruncated = false, m_downstreamTruncated = false;
};

} // namespace lanescope
