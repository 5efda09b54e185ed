#pragma once
// Collective communication of a GPU trace (`lanescope-cli collectives`, the Analysis dock's Collectives
// tab): every NCCL / RCCL kernel (a kernel slice whose name starts with nccl / rccl, or that carries
// Kineto's "Collective name" arg) is one instance; instances group by collective kind, process group and
// message size, across ranks and per rank. Kineto writes on the kernel (and on record_param_comms) the
// args "Collective name", "In msg nelems", "Out msg nelems", "Group size", "dtype", "Process Group
// Name"; a kernel without them (older PyTorch) takes its kind from the kernel name
// (ncclKernel_AllReduce_RING_LL_Sum_float -> allreduce, ncclDevKernel_SendRecv -> sendrecv) and has no
// size. Definitions (nccl-tests, doc/PERFORMANCE.md):
//   message bytes  max(In, Out msg nelems) x the dtype's size: the whole buffer (all_gather's output,
//                  reduce_scatter's input, allreduce's either)
//   time           the kernel's duration on the GPU; per row: total, median (the mean of the two
//                  middle values for an even count), max, and for the box plot min and the
//                  nearest-rank 25th / 75th percentiles
//   algbw          message bytes / time; a row's is the time-weighted mean (bytes x count / total time)
//   busbw          algbw x the kind's factor for n = Group size ranks: allreduce 2(n-1)/n;
//                  allgather, reduce_scatter, alltoall (n-1)/n; broadcast, reduce, sendrecv, send,
//                  recv 1
// Checked against an independent computation from the corpus NCCL trace's own events
// (tests/core/analysis/tst_collectivetable.cpp).
#include "model/ids.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class Trace;

struct CollectiveInstance
{
    SliceId slice;
    int64_t rank = -1;          // -1: not a multi-rank trace
    std::string kind;           // "allreduce", "broadcast", "allgather", "reduce_scatter", "sendrecv", ...
    std::string processGroup;   // "0" (Kineto's Process Group Name), "" when unknown
    std::string dtype;          // "Float"
    int64_t groupSize = 0;      // 0 = unknown
    std::optional<uint64_t> bytes;
    int64_t start = 0, duration = 0;
};

struct CollectiveRow
{
    int64_t rank = -1; // -1: across ranks
    std::string kind, processGroup, dtype;
    int64_t groupSize = 0;
    std::optional<uint64_t> messageBytes;
    uint64_t count = 0;
    int64_t totalNs = 0, medianNs = 0, maxNs = 0;
    // The box of the durations plot: shortest, nearest-rank 25th and 75th percentiles (StepStatistics).
    int64_t minNs = 0, p25Ns = 0, p75Ns = 0;
    std::optional<double> algBwBytesPerSec, busBwBytesPerSec;
};

struct CollectiveTableResult
{
    std::vector<CollectiveInstance> instances; // in time order
    std::vector<CollectiveRow> rows;           // across ranks, most total time first
    std::vector<CollectiveRow> perRank;        // per rank then most total time (multi-rank traces only)
    int64_t totalNs = 0;                       // all instances' time

    // rows, then perRank: the table of `collectives --format csv` and of the exports' `collectives`.
    std::vector<CollectiveRow> allRows() const;
};

class CollectiveTable
{
public:
    static constexpr int64_t kAllRanks = -1;
    // `rank`: only that rank's instances (kAllRanks: all).
    static CollectiveTableResult compute(const Trace &trace, int64_t rank = kAllRanks);
    // The table of instances already found (a trace's, or a job's from its rank summaries): sorted in
    // time order (start, then slice), rows across ranks and, for a multi-rank job, per rank.
    static CollectiveTableResult fromInstances(std::vector<CollectiveInstance> instances, bool multiRank);

    // "allreduce" from "ncclKernel_AllReduce_RING_LL_Sum_float(...)" / "ncclDevKernel_AllGather_RING_LL(...)"
    // / "rcclKernel..."; "" when the name is no NCCL / RCCL kernel.
    static std::string kindOfKernel(std::string_view name);
    // "allreduce" from Kineto's "Collective name" ("allreduce", "all_reduce", "_allgather_base" ...).
    static std::string normalizeKind(std::string_view collectiveName);
    // Bytes per element of a Kineto dtype ("Float" 4, "Half" / "BFloat16" 2, "Double" / "Long" 8, ...).
    static std::optional<int> dtypeBytes(std::string_view dtype);
    // nccl-tests' bus bandwidth factor for a kind and n ranks (1 when unknown or n < 1).
    static double busFactor(std::string_view kind, int64_t n);
    // Whether an instance is one of a row's (its kind, group, size, dtype and, for a per-rank row, rank).
    static bool inRow(const CollectiveInstance &c, const CollectiveRow &row);
};

} // namespace lanescope
