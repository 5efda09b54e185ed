#pragma once
// The ProfilerStep#N (iteration) a piece of device work belongs to, by HTA's rule
// (hta/common/trace_parser.py add_iteration): a host event belongs to the step s of its rank with
// s.start <= event.start < s.end, on any thread (the backward pass runs on autograd threads that no
// step encloses), and device work has the step of the runtime call that launched it (else of its
// launching op). Work with neither, or launched outside every step, has none. The overlap breakdown
// (CommOverlap) and the cross-rank collective matching (CollectiveMatch) share it; built once per
// trace (ProfilerStep# slices per rank, by start), each lookup a binary search.
#include "launchindex.h"

#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

namespace lanescope {

class Trace;

class StepOfWork
{
public:
    StepOfWork(const Trace &trace, const LaunchIndex &index);

    // The step slice the work belongs to; invalid when none.
    SliceId of(const LaunchIndex::Work &work) const;
    // Its step number (12 for ProfilerStep#12); -1 when none.
    int64_t numberOf(const LaunchIndex::Work &work) const;

    // 12 from "ProfilerStep#12"; -1 for any other name.
    static int64_t number(std::string_view name);

private:
    struct Step
    {
        int64_t start, end, number;
        SliceId slice;
    };
    const Step *stepAt(int64_t rank, int64_t t) const;

    const Trace &m_trace;
    bool m_multiRank = false;
    std::vector<int64_t> m_rankOfTrack;          // multi-rank traces only
    std::map<int64_t, std::vector<Step>> m_steps; // rank (-1: single-rank trace) -> steps by start
};

} // namespace lanescope
