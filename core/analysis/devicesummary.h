#pragma once
// Per GPU / NeuronCore: how much of the time the device was doing something (LaunchIndex work).
//   total    from the device's first work start to its last work end (clipped to the range when
//            one is given)
//   busy     length of the union of its work intervals: kernels, memcpy, memset, Neuron opcodes,
//            DMA packets, driver executions (a NEFF execution is a container, its opcodes and DMA
//            packets are the work), clipped to the range
//   idle     total - busy
//   compute  union of kernels, opcodes and driver executions
//   memcpy   union of memcpy, memset and DMA packets (compute and memcpy may overlap, so they can
//            add up to more than busy)
//   work     number of work items counted
#include "launchindex.h"

#include <string>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;

class DeviceSummary
{
public:
    enum class Column : uint8_t { Device, Total, Busy, Idle, Compute, Memcpy, BusyPercent, Work, ColumnCount };

    struct Options
    {
        bool hasRange = false;
        int64_t t0 = 0, t1 = 0;
        int64_t rank = -1; // a multi-rank trace: only this rank's slices (RankFilter), -1 all ranks
    };

    struct Row
    {
        std::string device;
        bool neuron = false;
        int64_t total = 0, busy = 0, idle = 0, compute = 0, memcpy = 0;
        uint64_t work = 0;
        double busyPercent() const { return total > 0 ? 100.0 * double(busy) / double(total) : 0.0; }
        double number(Column c) const;
    };

    // Rows in device order (by name), devices without work in the range left out.
    static std::vector<Row> compute(const Trace &trace, const LaunchIndex &index, const Options &options);
    static const char *columnName(Column c);

    // The busy intervals behind `busy` (every rank: Options::rank is not applied): per device (index into LaunchIndex::devices()), the merged
    // [start, end) intervals of the same work, clipped to the range, in time order. Their lengths add
    // up to the row's busy time; the gaps between them inside [first, last] add up to its idle time.
    using Interval = std::pair<int64_t, int64_t>;
    static std::vector<std::vector<Interval>> busyIntervals(const LaunchIndex &index, const Options &options);
};

} // namespace lanescope
