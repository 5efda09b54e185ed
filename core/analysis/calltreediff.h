#pragma once
// The differential call tree (Brendan Gregg's differential flame graph): the shape of one profile's
// tree ("after", B) with each node compared to the node at the same path of names in another
// ("before", A). Paths are compared by name from the root down, so the two trees should be built the
// same way (CallTree::Options::mergeThreads: thread ids differ between captures). A path that only A
// has is not in B's shape; its weight is reported as `vanished` so that nothing is silently lost.
#include "calltree.h"

#include <vector>

namespace lanescope {

class CallTreeDiff
{
public:
    struct Result
    {
        std::vector<uint32_t> match;   // per node of B: the node of A with the same path, or UINT32_MAX
        std::vector<int64_t> before;   // per node of B: A's weight at that path (0 when new in B)
        int64_t vanished = 0;          // the weight of A's paths B lacks (their top-most nodes)
        uint32_t vanishedPaths = 0;    // how many such top-most nodes
    };

    static Result compute(const CallTree::Result &after, const CallTree::Result &before, CallTree::Weight weight);
};

} // namespace lanescope
