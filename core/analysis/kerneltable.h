#pragma once
// The kernel table: device work by kind and name (LaunchIndex): GPU kernels, memcpy / memset, NEFF
// executions and driver executions, and, one level down, Neuron opcodes and DMA packets.
//   count, total, mean, min, max  over the occurrences' durations (ns)
//   % of device time  total / the summed duration of all work of the same level in the table
//                     (execution level: kernels, memcpy, memset, NEFF / driver executions;
//                     instruction level: opcodes, DMA packets), so each level adds up to 100 %
//   launched by       the op (folded name, see OpTable::foldName) that launched most occurrences,
//                     "" when none was attributed; `launchers` counts the distinct op names
//   unattributed      occurrences no op launched
// Time range: occurrences that start inside [t0, t1], whole.
#include "launchindex.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class Trace;

class KernelTable
{
public:
    enum class Column : uint8_t { Name, Kind, Count, Total, Mean, Min, Max, Percent, LaunchedBy, ColumnCount };

    struct Options
    {
        bool hasRange = false;
        int64_t t0 = 0, t1 = 0;
        Column sortBy = Column::Total;
        int64_t rank = -1; // a multi-rank trace: only this rank's slices (RankFilter), -1 all ranks
    };

    struct Row
    {
        std::string name;
        LaunchIndex::WorkKind kind = LaunchIndex::WorkKind::Kernel;
        uint64_t count = 0;
        int64_t total = 0, min = 0, max = 0;
        double percent = 0;
        std::string launchedBy;
        uint32_t launchers = 0;
        uint64_t unattributed = 0;
        std::vector<uint32_t> occurrences; // slice ids by start time (a NEFF execution: its first slice)

        double mean() const { return count ? double(total) / double(count) : 0.0; }
        double number(Column c) const;
    };

    struct Result
    {
        std::vector<Row> rows;
        int64_t executionTime = 0;   // summed execution-level work
        int64_t instructionTime = 0; // summed instruction-level work
    };

    static Result compute(const Trace &trace, const LaunchIndex &index, const Options &options);
    static void sort(std::vector<Row> &rows, Column column);
    static const char *columnName(Column c);
    static std::optional<Column> columnFromName(std::string_view name);
};

} // namespace lanescope
