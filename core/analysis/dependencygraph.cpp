#include "dependencygraph.h"

#include "rankfilter.h"

#include "model/trace.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>

namespace lanescope {

namespace {

enum class Role : uint8_t { Op, Runtime, Device };

bool equalsNoCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return (x | 0x20) == (y | 0x20);
           });
}

bool containsNoCase(std::string_view s, std::string_view part)
{
    for (size_t i = 0; i + part.size() <= s.size(); ++i)
        if (equalsNoCase(s.substr(i, part.size()), part))
            return true;
    return false;
}

// Kineto categories, both eras: kernel/Kernel, gpu_memcpy/Memcpy, gpu_memset/Memset, gpu_user_annotation,
// cuda_sync (stream / event syncs on the GPU lanes) and MTIA's mtia_ccp_events run on the device;
// cuda_runtime/Runtime, cuda_driver, mtia_runtime, privateuse1_runtime/_driver are host calls into the
// runtime; everything else (cpu_op, Operator, user_annotation, python_function) is framework.
Role roleOf(std::string_view category)
{
    if (equalsNoCase(category, "kernel") || containsNoCase(category, "memcpy") || containsNoCase(category, "memset")
        || category.substr(0, 4) == "gpu_" || category == "cuda_sync" || category == "mtia_ccp_events")
        return Role::Device;
    if (containsNoCase(category, "runtime") || containsNoCase(category, "driver"))
        return Role::Runtime;
    return Role::Op;
}

DependencyKind flowKind(std::string_view category)
{
    if (category == "semaphore")
        return DependencyKind::Semaphore;
    if (category == "dma_queue")
        return DependencyKind::DmaQueue;
    if (category == "neuron")
        return DependencyKind::Launch;
    return DependencyKind::Flow;
}

struct RawEdge
{
    uint32_t from, to, flow;
    uint8_t kind;
};

// Links every `from`-role slice to every `to`-role slice of a group of slices sharing one id value.
// A group is capped: ids reused by thousands of slices (a constant written by some exporter) are
// not dependencies.
constexpr size_t kMaxGroup = 64;

} // namespace

const char *dependencyKindName(DependencyKind kind)
{
    switch (kind) {
    case DependencyKind::Nesting: return "nesting";
    case DependencyKind::Flow: return "flow";
    case DependencyKind::Correlation: return "correlation";
    case DependencyKind::Launch: return "launch";
    case DependencyKind::Semaphore: return "semaphore";
    case DependencyKind::DmaQueue: return "dma_queue";
    }
    return "?";
}

DependencyGraph DependencyGraph::build(const Trace &trace, const std::function<bool()> &cancelled)
{
    DependencyGraph g;
    const auto all = trace.allSlices();
    g.m_parent.assign(all.size(), SliceId::kInvalid);

    // Parents: the last slice seen one level up, on thread-like tracks (on async tracks depth is a row).
    std::vector<uint32_t> lastAtDepth;
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track &track = trace.track(TrackId(t));
        if (track.kind != TrackKind::Slices || track.sliceCount == 0)
            continue;
        if (cancelled && cancelled())
            return {};
        lastAtDepth.assign(size_t(track.maxDepth) + 1, SliceId::kInvalid);
        for (uint32_t i = track.sliceBegin; i < track.sliceBegin + track.sliceCount; ++i) {
            const Slice &s = all[i];
            if (s.depth >= lastAtDepth.size())
                lastAtDepth.resize(size_t(s.depth) + 1, SliceId::kInvalid);
            if (s.depth > 0) {
                const uint32_t p = lastAtDepth[s.depth - 1u];
                if (p != SliceId::kInvalid && all[p].start <= s.start && all[p].end() >= s.start)
                    g.m_parent[i] = p;
            }
            lastAtDepth[s.depth] = i;
        }
    }

    std::vector<RawEdge> edges;
    const auto flows = trace.flows();
    edges.reserve(flows.size());
    for (uint32_t f = 0; f < flows.size(); ++f) {
        const Flow &flow = flows[f];
        if (flow.from.isValid() && flow.to.isValid() && flow.from != flow.to)
            edges.push_back({flow.from.value, flow.to.value, f, uint8_t(flowKind(trace.str(flow.category)))});
    }

    // Correlation ids from args: (key, value) -> slices, by role.
    const StringId keyCorrelation = trace.strings().find("correlation");
    const StringId keyExternal = trace.strings().find("External id");
    const StringId keyExternalOld = trace.strings().find("external id"); // 2021 Kineto spelling
    if (keyCorrelation.isValid() || keyExternal.isValid() || keyExternalOld.isValid()) {
        // Ids are per process: in a multi-rank trace each rank counts its own, so a slice's rank is
        // part of its key (as in LaunchIndex); -1 outside multi-rank traces.
        struct Tagged
        {
            uint64_t value;
            int64_t rank;
            uint32_t slice;
            uint8_t key; // 0 correlation, 1 External id
            Role role;
            bool operator<(const Tagged &o) const
            {
                return key != o.key ? key < o.key : rank != o.rank ? rank < o.rank : value != o.value ? value < o.value : slice < o.slice;
            }
            bool sameId(const Tagged &o) const { return key == o.key && rank == o.rank && value == o.value; }
        };
        std::vector<int64_t> rankOfTrack;
        if (!RankFilter::ranks(trace).empty()) {
            rankOfTrack.resize(trace.tracks().size());
            for (uint32_t t = 0; t < rankOfTrack.size(); ++t)
                rankOfTrack[t] = RankFilter::rankOfTrack(trace, TrackId(t));
        }
        std::vector<Tagged> tagged;
        std::unordered_map<uint32_t, Role> roleByCategory;
        for (uint32_t i = 0; i < all.size(); ++i) {
            if (!all[i].args.isValid())
                continue;
            if ((i & 0xffff) == 0 && cancelled && cancelled())
                return {};
            for (const Arg &a : trace.args().args(all[i].args)) {
                const bool corr = a.key == keyCorrelation, ext = a.key == keyExternal || a.key == keyExternalOld;
                if ((!corr && !ext) || (a.type != ArgType::Int && a.type != ArgType::UInt))
                    continue;
                auto it = roleByCategory.find(all[i].category.value);
                if (it == roleByCategory.end())
                    it = roleByCategory.emplace(all[i].category.value, roleOf(trace.str(all[i].category))).first;
                const int64_t rank = rankOfTrack.empty() ? -1 : rankOfTrack[trace.trackOfSlice(SliceId(i)).value];
                tagged.push_back({a.value.u, rank, i, uint8_t(ext ? 1 : 0), it->second});
            }
        }
        std::sort(tagged.begin(), tagged.end());
        for (size_t b = 0; b < tagged.size();) {
            size_t e = b;
            while (e < tagged.size() && tagged[e].sameId(tagged[b]))
                ++e;
            if (e - b <= kMaxGroup) {
                // correlation: runtime -> device (Launch); External id: op -> runtime (Correlation)
                const bool ext = tagged[b].key == 1;
                const Role fromRole = ext ? Role::Op : Role::Runtime, toRole = ext ? Role::Runtime : Role::Device;
                for (size_t x = b; x < e; ++x)
                    for (size_t y = b; y < e; ++y)
                        if (tagged[x].role == fromRole && tagged[y].role == toRole && tagged[x].slice != tagged[y].slice)
                            edges.push_back({tagged[x].slice, tagged[y].slice, FlowId::kInvalid,
                                             uint8_t(ext ? DependencyKind::Correlation : DependencyKind::Launch)});
            }
            b = e;
        }
    }
    if (cancelled && cancelled())
        return {};

    // Sort by (from, to), later kind first, and keep one edge per pair.
    std::sort(edges.begin(), edges.end(), [](const RawEdge &a, const RawEdge &b) {
        if (a.from != b.from)
            return a.from < b.from;
        if (a.to != b.to)
            return a.to < b.to;
        return a.kind > b.kind;
    });
    edges.erase(std::unique(edges.begin(), edges.end(),
                            [](const RawEdge &a, const RawEdge &b) { return a.from == b.from && a.to == b.to; }),
                edges.end());
    const size_t n = edges.size();
    g.m_from.resize(n);
    g.m_to.resize(n);
    g.m_flow.resize(n);
    g.m_kind.resize(n);
    for (size_t i = 0; i < n; ++i) {
        g.m_from[i] = edges[i].from;
        g.m_to[i] = edges[i].to;
        g.m_flow[i] = edges[i].flow;
        g.m_kind[i] = edges[i].kind;
    }
    std::vector<RawEdge>().swap(edges);
    g.m_byTarget.resize(n);
    std::iota(g.m_byTarget.begin(), g.m_byTarget.end(), 0u);
    std::sort(g.m_byTarget.begin(), g.m_byTarget.end(), [&g](uint32_t a, uint32_t b) {
        return g.m_to[a] != g.m_to[b] ? g.m_to[a] < g.m_to[b] : g.m_from[a] < g.m_from[b];
    });
    g.m_trace = &trace;
    return g;
}

void DependencyGraph::forEachPredecessor(SliceId id, const std::function<bool(const DependencyEdge &)> &fn) const
{
    if (!m_trace || id.value >= m_parent.size())
        return;
    const uint32_t parent = m_parent[id.value];
    bool parentLinked = false;
    auto it = std::lower_bound(m_byTarget.begin(), m_byTarget.end(), id.value,
                               [this](uint32_t e, uint32_t v) { return m_to[e] < v; });
    for (; it != m_byTarget.end() && m_to[*it] == id.value; ++it) {
        parentLinked |= m_from[*it] == parent;
        if (!fn(edge(*it)))
            return;
    }
    if (parent != SliceId::kInvalid && !parentLinked) // the nesting edge, unless a real edge already links them
        fn(DependencyEdge{SliceId(parent), id, DependencyKind::Nesting, FlowId()});
}

void DependencyGraph::forEachSuccessor(SliceId id, const std::function<bool(const DependencyEdge &)> &fn) const
{
    if (!m_trace || id.value >= m_parent.size())
        return;
    const size_t first = size_t(std::lower_bound(m_from.begin(), m_from.end(), id.value) - m_from.begin());
    size_t last = first;
    for (; last < m_from.size() && m_from[last] == id.value; ++last)
        if (!fn(edge(last)))
            return;
    // Children: the slices after `id` in its track, down to the next one at its depth or above.
    const TrackId track = m_trace->trackOfSlice(id);
    if (!track.isValid() || m_trace->track(track).kind != TrackKind::Slices)
        return;
    const Track &t = m_trace->track(track);
    const auto all = m_trace->allSlices();
    const uint16_t depth = all[id.value].depth;
    for (uint32_t j = id.value + 1; j < t.sliceBegin + t.sliceCount && all[j].depth > depth; ++j)
        if (m_parent[j] == id.value && !std::binary_search(m_to.begin() + ptrdiff_t(first), m_to.begin() + ptrdiff_t(last), j)
            && !fn(DependencyEdge{id, SliceId(j), DependencyKind::Nesting, FlowId()}))
            return;
}

std::vector<DependencyEdge> DependencyGraph::predecessors(SliceId id) const
{
    std::vector<DependencyEdge> out;
    forEachPredecessor(id, [&out](const DependencyEdge &e) {
        out.push_back(e);
        return true;
    });
    return out;
}

std::vector<DependencyEdge> DependencyGraph::successors(SliceId id) const
{
    std::vector<DependencyEdge> out;
    forEachSuccessor(id, [&out](const DependencyEdge &e) {
        out.push_back(e);
        return true;
    });
    return out;
}

size_t DependencyGraph::memoryUsage() const
{
    return m_parent.capacity() * 4 + (m_from.capacity() + m_to.capacity() + m_flow.capacity()) * 4 + m_kind.capacity()
        + m_byTarget.capacity() * 4;
}

} // namespace lanescope
