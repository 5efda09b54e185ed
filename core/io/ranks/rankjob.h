#pragma once
// Which distributed job a rank's trace belongs to, as PyTorch's profiler writes it in distributedInfo:
// the world size and the process groups (pg_config: name, size, ranks). Ranks of one job agree on
// both; a set of rank files whose ranks disagree holds several jobs, which MultiRankLoader keeps
// apart (the rank summaries of core/job/ do the same with their own copy of these fields). A trace
// without distributedInfo belongs to no job in particular (unknown: it goes with any).
#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope {

class Trace;

struct RankJob
{
    int64_t worldSize = -1; // -1: not written
    std::string groups;     // the process groups as "name:size:[r0,r1,...]" joined by "; ", in file order

    bool known() const { return worldSize >= 0 || !groups.empty(); }
    bool operator==(const RankJob &) const = default;
    // "world size 4, process groups 0 (4 ranks)"; "no distributedInfo" when unknown.
    std::string describe() const;

    // From distributedInfo's JSON text (unknown when it is no object).
    static RankJob ofDistributedInfo(std::string_view json);
    // From a loaded Kineto trace's metadata ("distributedInfo", kept verbatim by the importer).
    static RankJob of(const Trace &trace);
};

} // namespace lanescope
