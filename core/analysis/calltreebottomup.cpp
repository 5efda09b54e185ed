#include "calltreebottomup.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace lanescope {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

} // namespace

CallTree::Result CallTreeBottomUp::compute(const CallTree::Result &topDown, double minShare)
{
    CallTree::Result out;
    out.unattributedDevice = topDown.unattributedDevice;
    out.unattributedCount = topDown.unattributedCount;
    out.nodes.emplace_back();
    out.nodes[0].name = "all";
    const size_t n = topDown.nodes.size();
    // One id per distinct name, so that grouping compares integers.
    std::vector<uint32_t> nameId(n, 0);
    {
        std::unordered_map<std::string_view, uint32_t> ids;
        for (size_t i = 0; i < n; ++i)
            nameId[i] = ids.try_emplace(std::string_view(topDown.nodes[i].name), uint32_t(ids.size())).first->second;
    }
    // A cursor: a top-down node with self time and the frame of its caller chain reached so far.
    struct Cursor
    {
        uint32_t origin, at;
    };
    std::vector<Cursor> first;
    int64_t selfSum = 0, deviceSum = 0;
    for (uint32_t i = 1; i < n; ++i) {
        const CallTree::Node &t = topDown.nodes[i];
        if (t.self <= 0 && t.deviceSelf <= 0)
            continue;
        first.push_back(Cursor{i, i});
        selfSum += std::max<int64_t>(0, t.self);
        deviceSum += t.deviceSelf;
    }
    const double minSelf = double(selfSum) * minShare, minDevice = double(deviceSum) * minShare;
    struct Group
    {
        uint32_t node; // in `out`
        std::vector<Cursor> cursors;
    };
    std::vector<Group> queue;
    queue.push_back(Group{0, std::move(first)});
    while (!queue.empty()) {
        Group g = std::move(queue.back());
        queue.pop_back();
        std::vector<Cursor> &c = g.cursors;
        std::sort(c.begin(), c.end(), [&](const Cursor &a, const Cursor &b) { return nameId[a.at] < nameId[b.at]; });
        for (size_t lo = 0; lo < c.size();) {
            size_t hi = lo;
            int64_t self = 0, device = 0;
            uint64_t calls = 0;
            while (hi < c.size() && nameId[c[hi].at] == nameId[c[lo].at]) {
                const CallTree::Node &o = topDown.nodes[c[hi].origin];
                self += std::max<int64_t>(0, o.self);
                device += o.deviceSelf;
                calls += o.calls;
                ++hi;
            }
            if ((self > 0 && double(self) >= minSelf) || (device > 0 && double(device) >= minDevice)) {
                const CallTree::Node &frame = topDown.nodes[c[lo].at];
                CallTree::Node v;
                v.name = frame.name;
                v.parent = g.node;
                v.depth = out.nodes[g.node].depth + 1;
                v.track = frame.track;
                v.total = self;
                v.device = device;
                v.calls = calls;
                const uint32_t id = uint32_t(out.nodes.size());
                out.nodes.push_back(std::move(v));
                out.nodes[g.node].children.push_back(id);
                Group next{id, {}};
                for (size_t k = lo; k < hi; ++k) {
                    const uint32_t up = topDown.nodes[c[k].at].parent;
                    if (up != 0 && up != kNone) // the caller chain goes on (the root is not a caller)
                        next.cursors.push_back(Cursor{c[k].origin, up});
                }
                if (!next.cursors.empty())
                    queue.push_back(std::move(next));
            }
            lo = hi;
        }
    }
    // Nodes were added depth first, so a parent still precedes its children: self and deviceSelf
    // bottom up (what a node's kept callers do not hold: its stacks end there, or were not expanded).
    std::vector<int64_t> childTotal(out.nodes.size(), 0), childDevice(out.nodes.size(), 0);
    for (size_t i = out.nodes.size(); i-- > 1;) {
        const CallTree::Node &v = out.nodes[i];
        childTotal[v.parent] += v.total;
        childDevice[v.parent] += v.device;
    }
    // The root holds all self time, its first level what was expanded (the rest is the root's self).
    out.nodes[0].total = selfSum;
    out.nodes[0].device = deviceSum;
    out.nodes[0].self = selfSum - childTotal[0];
    out.nodes[0].deviceSelf = deviceSum - childDevice[0];
    for (size_t i = 1; i < out.nodes.size(); ++i) {
        CallTree::Node &v = out.nodes[i];
        v.self = v.total - childTotal[i];
        v.deviceSelf = v.device - childDevice[i];
    }
    for (CallTree::Node &v : out.nodes)
        std::sort(v.children.begin(), v.children.end(), [&](uint32_t a, uint32_t b) {
            const CallTree::Node &x = out.nodes[a], &y = out.nodes[b];
            return x.total != y.total ? x.total > y.total : x.name < y.name;
        });
    return out;
}

std::vector<uint32_t> CallTreeBottomUp::sources(const CallTree::Result &topDown, const CallTree::Result &bottomUp, uint32_t node)
{
    std::vector<std::string_view> names; // the bottom-up path: the self frame first, then its callers
    for (uint32_t v = node; v != 0 && v < bottomUp.nodes.size(); v = bottomUp.nodes[v].parent)
        names.push_back(bottomUp.nodes[v].name);
    std::reverse(names.begin(), names.end());
    std::vector<uint32_t> out;
    if (names.empty())
        return out;
    for (uint32_t i = 1; i < topDown.nodes.size(); ++i) {
        const CallTree::Node &n = topDown.nodes[i];
        if ((n.self <= 0 && n.deviceSelf <= 0) || n.name != names[0])
            continue;
        uint32_t up = i;
        size_t k = 0;
        while (k < names.size() && up != 0 && up != kNone && topDown.nodes[up].name == names[k]) {
            up = topDown.nodes[up].parent;
            ++k;
        }
        if (k == names.size())
            out.push_back(i);
    }
    return out;
}

} // namespace lanescope
