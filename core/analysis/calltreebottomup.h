#pragma once
// The bottom-up (inverted) call tree: the Flame Graph's "Self" weight and speedscope's "sandwich"
// question, "which functions hold the time themselves, and who called them". Its first level is
// every frame that has self time (or launched device work itself), merged by name; below a frame are
// its callers, then their callers, up to the thread node (or to the top frame with mergeThreads).
//
// From a CallTree::Result: every node n with self > 0 or deviceSelf > 0 adds its self time to
// `total`, its deviceSelf to `device` and its calls to `calls` of each node on the reversed path
// n, parent(n), ..., (the root's child). Then self = total - children's totals and deviceSelf =
// device - children's device (bottom up), so the root's total is the sum of all self time (the
// trace's busy host time) and its device the sum of all deviceSelf, as in the top-down tree.
// A first-level frame below the size limit (see Size) is not drawn; its time stays in the root's self.
// Recursion is not collapsed (the folded-stacks rule, as in CallTree).
//
// Size: the inverted tree of deep Python stacks has a node per distinct caller chain of every frame
// (tracelens/xdit_sd35: 22 k top-down nodes, 100-frame stacks, 890 k bottom-up paths, nearly all of
// them far narrower than a pixel). So a path is only expanded while it holds at least `minShare` of
// the root's self time or of its device time; what a dropped caller chain held stays in its callee's
// self (the stack "ends" there). The default, 1e-5, keeps every path wider than 0.4 px after zooming
// into a node of a tenth of the total on a 4k screen (xdit_sd35: 97 k nodes, 0.1 s). Built level by level: each node keeps the list of top-down nodes (and
// how far up their caller chain it is) that it sums.
#include "calltree.h"

#include <vector>

namespace lanescope {

class CallTreeBottomUp
{
public:
    static constexpr double kDefaultMinShare = 1e-5;
    static CallTree::Result compute(const CallTree::Result &topDown, double minShare = kDefaultMinShare);

    // The nodes of `topDown` that the bottom-up node `node` sums: those whose reversed path of names
    // starts with the bottom-up node's path (its name, its caller's, ...). Their occurrences are the
    // slices the bottom-up node stands for.
    static std::vector<uint32_t> sources(const CallTree::Result &topDown, const CallTree::Result &bottomUp, uint32_t node);
};

} // namespace lanescope
