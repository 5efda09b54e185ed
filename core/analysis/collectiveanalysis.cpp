#include "collectiveanalysis.h"

#include "launchindex.h"

namespace lanescope {

CollectiveAnalysis CollectiveAnalysis::compute(const Trace &trace, const LaunchIndex &index)
{
    CollectiveAnalysis a;
    a.table = CollectiveTable::compute(trace);
    a.overlap = CommOverlap::compute(trace, index, a.table);
    a.match = CollectiveMatch::compute(trace, index, a.table);
    return a;
}

std::vector<uint32_t> CollectiveAnalysis::instancesOf(const CollectiveRow &row) const
{
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < table.instances.size(); ++i)
        if (CollectiveTable::inRow(table.instances[i], row))
            out.push_back(i);
    return out;
}

std::vector<uint32_t> CollectiveAnalysis::slicesOf(const MatchedCollective &m) const
{
    std::vector<uint32_t> out;
    out.reserve(m.members.size());
    for (uint32_t i : m.members)
        if (i < table.instances.size())
            out.push_back(table.instances[i].slice.value);
    return out;
}

} // namespace lanescope
