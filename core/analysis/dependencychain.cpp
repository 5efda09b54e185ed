#include "dependencychain.h"

#include "model/trace.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace lanescope {

namespace {

// Breadth-first walk from root; `upward` follows predecessors. Fills nodes (root excluded) and the edges used.
void walk(const DependencyGraph &g, SliceId root, bool upward, size_t maxNodes, std::vector<SliceId> &nodes,
          std::vector<DependencyEdge> &edges, bool &truncated)
{
    std::unordered_set<uint32_t> seen{root.value};
    std::vector<SliceId> frontier{root};
    size_t head = 0;
    while (head < frontier.size()) {
        const SliceId at = frontier[head++];
        auto visit = [&](const DependencyEdge &e) {
            const SliceId next = upward ? e.from : e.to;
            if (seen.count(next.value)) {
                edges.push_back(e); // an edge between two chain members: part of the chain's DAG
                return true;
            }
            if (nodes.size() >= maxNodes) {
                truncated = true;
                return false;
            }
            seen.insert(next.value);
            nodes.push_back(next);
            edges.push_back(e);
            frontier.push_back(next);
            return true;
        };
        if (upward)
            g.forEachPredecessor(at, visit);
        else
            g.forEachSuccessor(at, visit);
        if (truncated)
            break;
    }
}

// Longest path by summed duration over `edges` (from -> to) ending at `root` (reverse = false) or
// starting there (reverse = true). Kahn's order; slices on a cycle never become ready and drop out.
std::vector<SliceId> longestPath(const Trace &trace, SliceId root, const std::vector<SliceId> &nodes,
                                 const std::vector<DependencyEdge> &edges, bool reverse, int64_t &total)
{
    std::unordered_map<uint32_t, uint32_t> index;
    std::vector<SliceId> all(nodes);
    all.push_back(root);
    for (uint32_t i = 0; i < all.size(); ++i)
        index.emplace(all[i].value, i);
    const size_t n = all.size();
    std::vector<std::vector<uint32_t>> out(n);
    std::vector<uint32_t> indegree(n, 0);
    for (const auto &e : edges) {
        auto a = index.find(e.from.value), b = index.find(e.to.value);
        if (a == index.end() || b == index.end())
            continue;
        uint32_t from = a->second, to = b->second;
        if (reverse)
            std::swap(from, to); // walk from the far end of the downstream towards the root
        out[from].push_back(to);
        ++indegree[to];
    }
    // best[i]: longest path ending at i (in walk direction); prev for the path.
    std::vector<int64_t> best(n, -1);
    std::vector<uint32_t> prev(n, UINT32_MAX);
    std::vector<uint32_t> ready;
    for (uint32_t i = 0; i < n; ++i)
        if (indegree[i] == 0) {
            ready.push_back(i);
            best[i] = trace.slice(all[i]).duration;
        }
    while (!ready.empty()) {
        const uint32_t i = ready.back();
        ready.pop_back();
        for (uint32_t j : out[i]) {
            const int64_t candidate = best[i] + trace.slice(all[j]).duration;
            if (candidate > best[j]) {
                best[j] = candidate;
                prev[j] = i;
            }
            if (--indegree[j] == 0)
                ready.push_back(j);
        }
    }
    const uint32_t r = uint32_t(n - 1);
    std::vector<SliceId> path;
    if (best[r] < 0) { // the root sits on a cycle
        total = trace.slice(root).duration;
        return {root};
    }
    total = best[r];
    for (uint32_t i = r; i != UINT32_MAX; i = prev[i])
        path.push_back(all[i]);
    if (!reverse)
        std::reverse(path.begin(), path.end()); // far upstream first, root last
    return path;
}

} // namespace

DependencyChain DependencyChain::query(const DependencyGraph &graph, SliceId root, size_t maxNodes)
{
    DependencyChain c;
    if (!graph.trace() || !root.isValid() || root.value >= graph.sliceCount())
        return c;
    c.m_graph = &graph;
    c.m_root = root;
    walk(graph, root, true, maxNodes, c.m_upstream, c.m_upstreamEdges, c.m_upstreamTruncated);
    walk(graph, root, false, maxNodes, c.m_downstream, c.m_downstreamEdges, c.m_downstreamTruncated);
    c.m_members.reserve(c.m_upstream.size() + c.m_downstream.size() + 1);
    c.m_members.push_back(root);
    c.m_members.insert(c.m_members.end(), c.m_upstream.begin(), c.m_upstream.end());
    c.m_members.insert(c.m_members.end(), c.m_downstream.begin(), c.m_downstream.end());
    std::sort(c.m_members.begin(), c.m_members.end());
    c.m_members.erase(std::unique(c.m_members.begin(), c.m_members.end()), c.m_members.end());
    return c;
}

bool DependencyChain::contains(SliceId id) const
{
    return std::binary_search(m_members.begin(), m_members.end(), id);
}

std::vector<SliceId> DependencyChain::criticalPath(int64_t *totalNs) const
{
    if (empty())
        return {};
    const Trace &trace = *m_graph->trace();
    int64_t up = 0, down = 0;
    std::vector<SliceId> path = longestPath(trace, m_root, m_upstream, m_upstreamEdges, false, up);
    const std::vector<SliceId> tail = longestPath(trace, m_root, m_downstream, m_downstreamEdges, true, down);
    path.insert(path.end(), tail.begin() + 1, tail.end()); // tail starts at the root
    if (totalNs)
        *totalNs = up + down - trace.slice(m_root).duration;
    return path;
}

} // namespace lanescope
