#include "findingsource.h"

#include "analysis/calltree.h"
#include "analysis/launchindex.h"
#include "analysis/sourceframe.h"
#include "model/trace.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace lanescope {

namespace {

// One stack's Python frames, innermost first: (name, depth), the user's only when it has any.
using Stack = std::vector<std::pair<StringId, uint32_t>>;

class Stacks
{
public:
    Stacks(const Trace &trace, const LaunchIndex &index) : m_trace(trace), m_index(index) {}

    // The frames above a slice (itself included), nothing when it has no Python frame.
    Stack ofSlice(SliceId id)
    {
        Stack all, user;
        for (SliceId s = launcher(id); s.isValid(); s = m_trace.parent(s)) {
            const Slice &slice = m_trace.slice(s);
            const int kind = frameKind(slice.name);
            if (kind == 0)
                continue;
            all.emplace_back(slice.name, slice.depth);
            if (kind == 2)
                user.emplace_back(slice.name, slice.depth);
        }
        return user.empty() ? all : user;
    }

    // The host's frames at the midpoint of [t0, t1] that cover at least half of it.
    Stack ofRange(int64_t t0, int64_t t1)
    {
        const int64_t mid = t0 + (t1 - t0) / 2;
        Stack best;
        for (TrackId t : hostTracks()) {
            const auto slices = m_trace.slices(t);
            auto it = std::upper_bound(slices.begin(), slices.end(), mid, [](int64_t v, const Slice &s) { return v < s.start; });
            if (it == slices.begin())
                continue;
            SliceId s = m_trace.sliceId(t, uint32_t(it - slices.begin() - 1));
            while (s.isValid() && m_trace.slice(s).end() < mid)
                s = m_trace.parent(s);
            Stack all, user;
            for (; s.isValid(); s = m_trace.parent(s)) {
                const Slice &slice = m_trace.slice(s);
                const int kind = frameKind(slice.name);
                const int64_t cover = std::min(slice.end(), t1) - std::max(slice.start, t0);
                if (kind == 0 || 2 * cover < t1 - t0)
                    continue;
                all.emplace_back(slice.name, slice.depth);
                if (kind == 2)
                    user.emplace_back(slice.name, slice.depth);
            }
            Stack &mine = user.empty() ? all : user;
            if (!mine.empty() && (best.empty() || mine.front().second > best.front().second))
                best = std::move(mine);
        }
        return best;
    }

private:
    // 0 not a Python frame (or PyTorch's own, Python's), 1 a library's, 2 the user's.
    int frameKind(StringId name)
    {
        auto [it, added] = m_kind.try_emplace(name.value, 0);
        if (added && name.isValid())
            if (const auto frame = SourceFrame::parse(m_trace.str(name)))
                it->second = SourceFrame::isUserPath(frame->path) ? 2 : SourceFrame::isFrameworkPath(frame->path) ? 0 : 1;
        return it->second;
    }

    // Device work is taken at the slice that launched it.
    SliceId launcher(SliceId id)
    {
        if (id.value >= m_index.sliceCount() || m_index.role(id) != LaunchIndex::Role::DeviceWork)
            return id;
        if (m_launcher.empty()) {
            for (const LaunchIndex::Work &w : m_index.work())
                if (w.slice.isValid())
                    m_launcher.emplace(w.slice.value, w.launcher.isValid() ? w.launcher : w.op);
        }
        const auto it = m_launcher.find(id.value);
        return it == m_launcher.end() ? SliceId() : it->second;
    }

    const std::vector<TrackId> &hostTracks()
    {
        if (!m_hostKnown) {
            m_host = CallTree::hostTracks(m_trace, m_index);
            m_hostKnown = true;
        }
        return m_host;
    }

    const Trace &m_trace;
    const LaunchIndex &m_index;
    std::unordered_map<uint32_t, int> m_kind;
    std::unordered_map<uint32_t, SliceId> m_launcher;
    std::vector<TrackId> m_host;
    bool m_hostKnown = false;
};

// The innermost frame that holds at least half of `total` (ties: the heavier); false when none does.
bool choose(const std::vector<std::pair<Stack, double>> &stacks, double total, StringId &frame, double &share)
{
    std::map<uint32_t, std::pair<double, uint32_t>> weight; // frame -> (weight, deepest depth)
    for (const auto &[stack, w] : stacks) {
        std::vector<uint32_t> seen;
        for (const auto &[name, depth] : stack) {
            if (std::find(seen.begin(), seen.end(), name.value) != seen.end())
                continue; // recursion: a frame counts once per stack
            seen.push_back(name.value);
            auto &[sum, deepest] = weight[name.value];
            sum += w;
            deepest = std::max(deepest, depth);
        }
    }
    bool found = false;
    double bestWeight = 0;
    uint32_t bestDepth = 0;
    for (const auto &[name, wd] : weight) {
        const auto [w, depth] = wd;
        if (2 * w < total)
            continue;
        if (!found || depth > bestDepth || (depth == bestDepth && w > bestWeight)) {
            frame = StringId(name);
            bestWeight = w;
            bestDepth = depth;
            found = true;
        }
    }
    share = found && total > 0 ? bestWeight / total : 0;
    return found;
}

} // namespace

void FindingSource::attach(const Trace &trace, const LaunchIndex &index, std::vector<Finding> &findings)
{
    const auto &categories = trace.stats().categories;
    const auto python = categories.find("python_function");
    if (python == categories.end() || python->second == 0)
        return;
    Stacks stacks(trace, index);
    for (Finding &f : findings) {
        std::vector<std::pair<Stack, double>> found;
        for (uint32_t e : f.events)
            if (e < trace.allSlices().size())
                if (Stack s = stacks.ofSlice(SliceId(e)); !s.empty())
                    found.emplace_back(std::move(s), 1.0);
        double total = double(f.events.size()); // events without a Python stack count against the share
        if (found.empty()) {
            total = 0;
            for (const auto &[t0, t1] : f.ranges) {
                if (t1 <= t0)
                    continue;
                total += double(t1 - t0);
                if (Stack s = stacks.ofRange(t0, t1); !s.empty())
                    found.emplace_back(std::move(s), double(t1 - t0));
            }
        }
        StringId frame;
        double share = 0;
        if (!found.empty() && choose(found, total, frame, share)) {
            f.source = std::string(trace.str(frame));
            f.sourceShare = share;
        }
    }
}

} // namespace lanescope
