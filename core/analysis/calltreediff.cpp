#include "calltreediff.h"

#include <string_view>
#include <unordered_map>

namespace lanescope {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

struct KeyHash
{
    size_t operator()(const std::pair<uint32_t, std::string_view> &k) const noexcept
    {
        return std::hash<std::string_view>()(k.second) * 31 + k.first;
    }
};

} // namespace

CallTreeDiff::Result CallTreeDiff::compute(const CallTree::Result &after, const CallTree::Result &before, CallTree::Weight weight)
{
    Result out;
    out.match.assign(after.nodes.size(), kNone);
    out.before.assign(after.nodes.size(), 0);
    if (after.nodes.empty() || before.nodes.empty())
        return out;
    std::unordered_map<std::pair<uint32_t, std::string_view>, uint32_t, KeyHash> childOf; // A: (parent, name) -> node
    childOf.reserve(before.nodes.size());
    for (uint32_t i = 1; i < before.nodes.size(); ++i)
        childOf.try_emplace({before.nodes[i].parent, std::string_view(before.nodes[i].name)}, i);
    std::vector<bool> matched(before.nodes.size(), false);
    out.match[0] = 0;
    matched[0] = true;
    for (uint32_t i = 1; i < after.nodes.size(); ++i) { // parents come before their children
        const CallTree::Node &n = after.nodes[i];
        const uint32_t parent = n.parent < out.match.size() ? out.match[n.parent] : kNone;
        if (parent == kNone)
            continue;
        const auto it = childOf.find({parent, std::string_view(n.name)});
        if (it == childOf.end())
            continue;
        out.match[i] = it->second;
        matched[it->second] = true;
    }
    for (uint32_t i = 0; i < after.nodes.size(); ++i)
        if (out.match[i] != kNone)
            out.before[i] = before.nodes[out.match[i]].weight(weight);
    for (uint32_t i = 1; i < before.nodes.size(); ++i) {
        const CallTree::Node &n = before.nodes[i];
        if (!matched[i] && n.parent != kNone && matched[n.parent]) {
            out.vanished += n.weight(weight);
            ++out.vanishedPaths;
        }
    }
    return out;
}

} // namespace lanescope
