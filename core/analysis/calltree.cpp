#include "calltree.h"

#include "optable.h"
#include "profilerspans.h"
#include "rankfilter.h"

#include "model/trace.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace lanescope {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// Name ids with "ProfilerStep#N" folded: a pool id, or an id past the pool for a folded text.
class NameKeys
{
public:
    explicit NameKeys(const Trace &trace) : m_trace(trace), m_key(trace.strings().size(), kNone) {}

    // The key of a slice name (the fold runs once per name, not once per slice).
    uint32_t key(StringId name)
    {
        if (!name.isValid() || name.value >= m_key.size())
            return uint32_t(m_key.size());
        uint32_t &k = m_key[name.value];
        if (k != kNone)
            return k;
        const std::string_view raw = m_trace.str(name);
        const std::string_view text = OpTable::foldName(raw);
        if (text.size() == raw.size()) {
            k = name.value;
        } else {
            auto [it, added] = m_folded.try_emplace(std::string(text), uint32_t(m_key.size() + 1 + m_folded.size()));
            k = it->second;
        }
        return k;
    }

private:
    const Trace &m_trace;
    std::vector<uint32_t> m_key;
    std::unordered_map<std::string, uint32_t> m_folded;
};

// An open slice of the walk: its node and the span it counts, [start, end].
struct Frame
{
    uint32_t node;
    uint32_t slice; // the global slice index (kNone for the track's top)
    int64_t start, end;
};

class Builder
{
public:
    Builder(const Trace &trace, const CallTree::Options &options, CallTree::Result &result)
        : m_trace(trace), m_options(options), m_nodes(result.nodes),
          m_occurrences(options.keepOccurrences ? &result.occurrences : nullptr), m_names(trace)
    {
    }

    uint32_t addNode(uint32_t parent, std::string name)
    {
        CallTree::Node n;
        n.name = std::move(name);
        n.parent = parent;
        n.depth = parent == kNone ? 0 : m_nodes[parent].depth + 1;
        m_nodes.push_back(std::move(n));
        const uint32_t id = uint32_t(m_nodes.size() - 1);
        if (parent != kNone)
            m_nodes[parent].children.push_back(id);
        return id;
    }

    uint32_t child(uint32_t parent, StringId name)
    {
        const uint32_t key = m_names.key(name);
        auto [it, added] = m_children.try_emplace((uint64_t(parent) << 32) | key, 0u);
        if (added) // the node's name: the folded text ("ProfilerStep*"), empty for a slice without one
            it->second = addNode(parent, name.isValid() ? std::string(OpTable::foldName(m_trace.str(name))) : std::string());
        return it->second;
    }

    // One pass over a track's slices in start order; `top` is the node its depth-0 slices hang under.
    // A frame is counted when it is popped; one that the next slice outlives (it starts inside the
    // frame and ends after it: placed beside it by TraceBuilder) counts up to that slice's start.
    void walk(TrackId track, uint32_t top, const std::vector<int64_t> &launched)
    {
        const bool ranged = m_options.hasRange;
        const int64_t t0 = m_options.t0, t1 = m_options.t1;
        const auto slices = m_trace.slices(track);
        const uint32_t first = m_trace.track(track).sliceBegin;
        m_stack.clear();
        m_stack.push_back(Frame{top, kNone, 0, 0});
        for (uint32_t i = 0; i < slices.size(); ++i) {
            const Slice &s = slices[i];
            const size_t d = std::min<size_t>(s.depth, m_stack.size() - 1);
            while (m_stack.size() > d + 1)
                pop(ranged, t0, t1, s.start);
            if (ranged && s.start > t1) // neither it nor anything after it on the track is in the range
                break;
            const uint32_t node = child(m_stack.back().node, s.name);
            if (const int64_t dev = launched[first + i]; dev && (!ranged || s.start >= t0))
                m_nodes[node].deviceSelf += dev;
            m_stack.push_back(Frame{node, first + i, s.start, s.end()});
        }
        while (m_stack.size() > 1)
            pop(ranged, t0, t1, std::numeric_limits<int64_t>::max());
    }

private:
    // Closes the top frame, its span cut at `next` (the start of the slice that closes it: a frame
    // still open there is one that slice outlives, and the time from there on is that slice's); it
    // counts when the span meets the range.
    void pop(bool ranged, int64_t t0, int64_t t1, int64_t next)
    {
        Frame f = m_stack.back();
        m_stack.pop_back();
        f.end = std::min(f.end, next);
        const bool in = !ranged || (f.end == f.start ? f.start >= t0 && f.start <= t1 : f.start < t1 && f.end > t0);
        if (!in)
            return;
        CallTree::Node &n = m_nodes[f.node];
        ++n.calls;
        if (m_occurrences)
            m_occurrences->push_back(CallTree::Occurrence{SliceId(f.slice), f.node});
        n.total += ranged ? std::max<int64_t>(0, std::min(f.end, t1) - std::max(f.start, t0)) : f.end - f.start;
    }

    const Trace &m_trace;
    const CallTree::Options &m_options;
    std::vector<CallTree::Node> &m_nodes;
    std::vector<CallTree::Occurrence> *m_occurrences;
    NameKeys m_names;
    std::unordered_map<uint64_t, uint32_t> m_children; // (parent node, name key) -> node
    std::vector<Frame> m_stack; // a member: its storage is reused between tracks
};

} // namespace

std::vector<TrackId> CallTree::hostTracks(const Trace &trace, const LaunchIndex &index)
{
    std::vector<TrackId> out;
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track &tr = trace.tracks()[t];
        if (tr.kind != TrackKind::Slices || tr.sliceCount == 0 || profilerspans::isProfilerSpanTrack(trace, TrackId(t)))
            continue;
        bool device = false;
        for (uint32_t i = tr.sliceBegin; i < tr.sliceBegin + tr.sliceCount && !device; ++i)
            device = i < index.sliceCount() && index.role(SliceId(i)) == LaunchIndex::Role::DeviceWork;
        if (!device)
            out.push_back(TrackId(t));
    }
    return out;
}

CallTree::Result CallTree::compute(const Trace &trace, const LaunchIndex &index, const Options &options)
{
    Result result;
    Builder builder(trace, options, result);
    builder.addNode(kNone, "all");

    std::vector<TrackId> tracks = options.tracks.empty() ? hostTracks(trace, index) : options.tracks;
    const RankFilter rank(trace, options.rank);
    std::erase_if(tracks, [&](TrackId t) { return !rank.acceptsTrack(t); });

    // Device work per launching slice (its runtime call, else its op).
    std::vector<int64_t> launched(trace.allSlices().size(), 0);
    for (const LaunchIndex::Work &w : index.work()) {
        if (!LaunchIndex::isExecutionLevel(w.kind))
            continue;
        const SliceId by = w.launcher.isValid() ? w.launcher : w.op;
        if (by.isValid() && by.value < launched.size()) {
            launched[by.value] += w.duration();
        } else if ((!options.hasRange || (w.start >= options.t0 && w.start <= options.t1)) && rank.accepts(w.slice)) {
            result.unattributedDevice += w.duration();
            ++result.unattributedCount;
        }
    }

    for (TrackId t : tracks) {
        const uint32_t top = options.mergeThreads ? 0 : builder.addNode(0, trace.trackPath(t));
        if (!options.mergeThreads)
            result.nodes[top].track = t;
        builder.walk(t, top, launched);
    }

    // Bottom up (children come after their parent): the synthetic nodes' totals, self, device.
    std::vector<int64_t> childTotal(result.nodes.size(), 0);
    for (size_t i = result.nodes.size(); i-- > 0;) {
        Node &n = result.nodes[i];
        const bool synthetic = i == 0 || n.track.isValid();
        if (synthetic)
            n.total = childTotal[i];
        n.self = n.total - childTotal[i];
        n.device += n.deviceSelf;
        if (n.parent != kNone) {
            childTotal[n.parent] += n.total;
            result.nodes[n.parent].device += n.device;
        }
    }
    // Paths seen only outside the range (no calls) go; the thread nodes and the root stay.
    std::vector<uint32_t> renumber(result.nodes.size(), kNone);
    std::vector<Node> kept;
    for (uint32_t i = 0; i < result.nodes.size(); ++i) {
        Node &n = result.nodes[i];
        if (i != 0 && !n.track.isValid() && n.calls == 0)
            continue;
        renumber[i] = uint32_t(kept.size());
        if (n.parent != kNone)
            n.parent = renumber[n.parent];
        kept.push_back(std::move(n));
    }
    for (Node &n : kept) {
        std::erase_if(n.children, [&](uint32_t c) { return renumber[c] == kNone; });
        for (uint32_t &c : n.children)
            c = renumber[c];
    }
    result.nodes = std::move(kept);
    for (Occurrence &o : result.occurrences)
        o.node = renumber[o.node]; // a counted occurrence's node has calls, so it stayed
    // Popped children first: back in start order per track (slice ids grow with start on a track).
    std::sort(result.occurrences.begin(), result.occurrences.end(),
              [](const Occurrence &a, const Occurrence &b) { return a.slice.value < b.slice.value; });
    for (Node &n : result.nodes)
        std::sort(n.children.begin(), n.children.end(), [&](uint32_t a, uint32_t b) {
            const Node &x = result.nodes[a], &y = result.nodes[b];
            return x.total != y.total ? x.total > y.total : x.name < y.name;
        });
    return result;
}

std::string CallTree::Result::path(uint32_t node) const
{
    std::vector<uint32_t> chain;
    for (uint32_t n = node; n != kNone && n != 0; n = nodes[n].parent)
        chain.push_back(n);
    std::string out;
    for (size_t i = chain.size(); i-- > 0;) {
        out += foldedFrame(nodes[chain[i]].name);
        if (i)
            out += ';';
    }
    return out;
}

std::vector<SliceId> CallTree::Result::occurrencesOf(uint32_t node) const
{
    std::vector<SliceId> out;
    for (const Occurrence &o : occurrences)
        if (o.node == node)
            out.push_back(o.slice);
    return out;
}

std::string CallTree::foldedFrame(std::string_view name)
{
    std::string out(name);
    for (char &c : out) {
        if (c == ';')
            c = '|';
        else if (c == '\n' || c == '\r')
            c = ' ';
    }
    return out;
}

std::string CallTree::folded(const Result &result, Weight weight)
{
    // Depth first with one growing path (building every node's path from the root is quadratic in
    // the depth: 0.5 s instead of milliseconds on xdit_sd35's 100-frame stacks).
    std::string out, path;
    struct Open
    {
        uint32_t node;
        size_t next;     // the next child to visit
        size_t pathSize; // `path` before this node's frame
    };
    std::vector<Open> stack{{0, 0, 0}};
    while (!stack.empty()) {
        Open &top = stack.back();
        const Node &n = result.nodes[top.node];
        if (top.next == n.children.size()) {
            path.resize(top.pathSize);
            stack.pop_back();
            continue;
        }
        const uint32_t c = n.children[top.next++];
        const size_t before = path.size();
        if (top.node != 0)
            path += ';';
        path += foldedFrame(result.nodes[c].name);
        if (const int64_t w = result.nodes[c].foldedWeight(weight); w > 0) {
            out += path;
            out += ' ';
            out += std::to_string(w);
            out += '\n';
        }
        stack.push_back(Open{c, 0, before});
    }
    return out;
}

const char *CallTree::weightName(Weight w)
{
    switch (w) {
    case Weight::Cpu: return "cpu";
    case Weight::Self: return "self";
    case Weight::Device: return "device";
    }
    return "cpu";
}

bool CallTree::weightFromName(std::string_view name, Weight &out)
{
    for (Weight w : {Weight::Cpu, Weight::Self, Weight::Device})
        if (name == weightName(w)) {
            out = w;
            return true;
        }
    return false;
}

} // namespace lanescope
