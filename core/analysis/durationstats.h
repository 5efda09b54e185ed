#pragma once
// Duration statistics per slice name (Tracy's "Find zone"): for every slice whose name matches a
// regular expression, one row per distinct name with
//   count, total            occurrences and their summed duration (ns)
//   mean                    total / count
//   median, p90, p99        nearest rank: the p-th percentile is the value at rank ceil(p/100 * count)
//                           (1-based) of the durations in ascending order, so it is always a duration
//                           that occurred; the median is the 50th percentile (the lower middle value
//                           for an even count), p99 of 10 values is the 10th (the largest)
//   min, max                shortest and longest duration
//   stddev                  population standard deviation: sqrt(sum((d - mean)^2) / count)
//   histogram               counts on log-spaced bins [from, to) between min and max + 1 (see bins());
//                           a zero duration gets a bin [0, 1) of its own
//   fastest / slowest       the slice of the min / max duration (the earliest on a tie)
//   occurrences             slice ids of every occurrence, in trace order (track by track, each in
//                           time order); binSlices() picks those of one bin in time order
// Every slice kind the trace holds counts alike: framework ops, runtime calls, kernels, the slices
// that record NEFF executions (driver / nc_exec_running), Neuron opcodes and instructions, DMA packets.
// Names are matched once per distinct string of the pool (unanchored regex search: "^aten::mul$" for
// one name), then the slices are one pass over their name ids. Time range: occurrences that START
// inside [t0, t1), whole. Tracks: only slices on the given tracks when a list is given (compare mode
// splits the combined trace by profile this way). Shared by `lanescope-cli stats` and the GUI's
// Statistics dock.
#include "model/ids.h"

#include <QString>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lanescope {

class Trace;

class DurationStats
{
public:
    static constexpr int kDefaultBins = 40;

    struct Options
    {
        QString pattern;            // regular expression, searched in the name
        bool caseSensitive = true;
        bool hasRange = false;      // only occurrences starting in [t0, t1)
        int64_t t0 = 0, t1 = 0;
        std::vector<TrackId> tracks; // empty: every track
        int bins = kDefaultBins;    // histogram bins (at most; fewer when min and max are close)
    };

    struct Bin
    {
        int64_t from = 0; // ns, inclusive
        int64_t to = 0;   // ns, exclusive
        uint64_t count = 0;
    };

    struct Row
    {
        StringId nameId;
        std::string name;
        uint64_t count = 0;
        int64_t total = 0;
        double mean = 0;
        int64_t median = 0, p90 = 0, p99 = 0;
        int64_t min = 0, max = 0;
        double stddev = 0;
        std::vector<Bin> histogram;
        SliceId fastest, slowest;
        std::vector<uint32_t> occurrences;
    };

    struct Result
    {
        std::vector<Row> rows; // by total, longest first; then by name
        QString error;         // an invalid regular expression: its message; rows are empty then
        bool ok() const { return error.isEmpty(); }
    };

    static Result compute(const Trace &trace, const Options &options);
    // Empty for a valid pattern, else the message compute() puts in Result::error (quoting it).
    static QString patternError(const QString &pattern);

    // The value at rank ceil(p/100 * n) of `sorted` (ascending, non-empty); p in (0, 100].
    static int64_t nearestRank(std::span<const int64_t> sorted, double p);
    // Log-spaced bins for durations in [lo, hi]: at most `bins` bins [from, to), each `to` the next
    // `from`, the first starting at lo, the last ending at hi + 1; when lo is 0 a bin [0, 1) comes
    // first (zero has no logarithm) and the log bins start at 1. Edges are whole ns; bins that would
    // round to nothing are merged into the next.
    static std::vector<Bin> bins(int64_t lo, int64_t hi, int bins);
    // Counts the durations of `occurrences` into `histogram` (bins from bins()); durations outside
    // every bin are not counted.
    static void fill(const Trace &trace, std::span<const uint32_t> occurrences, std::vector<Bin> &histogram);
    // The occurrences of `row` whose duration lies in [from, to), ordered by start time then id (as
    // the timeline's search matches are).
    static std::vector<uint32_t> binSlices(const Trace &trace, const Row &row, int64_t from, int64_t to);
};

} // namespace lanescope
