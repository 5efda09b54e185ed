#pragma once
// Communication / computation overlap and the temporal breakdown of each GPU, per rank and per step
// (`lanescope-cli collectives` "overlap", the Collectives dock's Overlap tab, the low-overlap insight).
// HTA's definitions (hta/analyzers/breakdown_analysis.py: get_temporal_breakdown,
// get_comm_comp_overlap), on the execution-level work of one device (all its streams):
//   communication  NCCL / RCCL kernels (CollectiveTable's instances)
//   memory         memcpy and memset
//   computation    every other kernel
//   span           per step: first start to last end of the work the step launched (StepOfWork); a
//                  device without steps has one row over all its work
//   compute_ns     length of the union of computation intervals; communication_ns and memory_ns the
//                  same for theirs (a category's own overlaps across streams count once)
//   idle_ns        span - length of the union of all work ("idle time" in HTA)
//   non_compute_ns union of all work - compute_ns (HTA's "non-compute time": communication and memory
//                  not hidden behind computation)
//   overlapped_ns  length of (union of communication) intersected with (union of computation)
//   overlap        overlapped_ns / communication_ns (HTA's "communication computation overlap");
//                  exposed_ns = communication_ns - overlapped_ns is the communication on the critical path
// A device's total row sums its step rows (every span is the step's, so idle between steps is not
// counted, as in HTA). Neuron devices are left out (their collectives are not kernels).
#include "launchindex.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope {

class Trace;
struct CollectiveTableResult;

struct CommOverlapRow
{
    int64_t rank = -1;  // -1: not a multi-rank trace
    std::string device; // "GPU 0"
    int64_t step = -1;  // ProfilerStep#N; -1 on a device's total row
    uint64_t kernels = 0; // execution-level works in the row
    int64_t spanNs = 0, computeNs = 0, communicationNs = 0, memoryNs = 0, idleNs = 0, nonComputeNs = 0, overlappedNs = 0;

    int64_t exposedNs() const { return communicationNs - overlappedNs; }
    // overlapped / communication; nullopt without communication.
    std::optional<double> overlap() const;
};

struct CommOverlapResult
{
    std::vector<CommOverlapRow> devices; // per rank and device: the sum of its steps
    std::vector<CommOverlapRow> steps;   // per rank, device and step, by step number
};

class CommOverlap
{
public:
    struct Options
    {
        bool hasRange = false; // only work starting in [t0, t1], clipped to t1
        int64_t t0 = 0, t1 = 0;
    };

    static CommOverlapResult compute(const Trace &trace, const LaunchIndex &index, const CollectiveTableResult &collectives,
                                     const Options &options);
    static CommOverlapResult compute(const Trace &trace, const LaunchIndex &index, const CollectiveTableResult &collectives)
    {
        return compute(trace, index, collectives, Options());
    }

    // Length of the union of intervals (sorted and merged in place).
    static int64_t merge(std::vector<std::pair<int64_t, int64_t>> &intervals);
    // Length of the intersection of two merged interval lists.
    static int64_t intersection(const std::vector<std::pair<int64_t, int64_t>> &a, const std::vector<std::pair<int64_t, int64_t>> &b);
};

} // namespace lanescope
