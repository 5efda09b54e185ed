#pragma once
// The flags the table commands (ops, kernels, devices, engines) share: PATH, --json / --format
// text|json|csv, --sort COLUMN, --limit N, --range FROM:TO (core/analysis/timerange.h: after the
// trace start with units, Nabs on the trace clock; unit-less numbers are deprecated trace-clock ns),
// --group-by-shapes, --table, --rank N (a multi-rank trace: one rank's rows; several PATHs given
// together load as one multi-rank trace, io/ranks/multirankloader.h); and the steps every table command takes: parse, load, resolve the
// range, print. The numbers come from core/analysis, the columns from core/analysis/tablerows.h.
#include "commands.h"

#include "analysis/timerange.h"
#include "io/traceloader.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope::cli {

class TableArgs
{
public:
    enum class Format { Text, Json, Csv };
    // The flags a command takes besides PATH, --json, --format, --range and --no-cache.
    struct Accepts
    {
        bool sort = false;
        bool limit = false;
        bool shapes = false;
        bool table = false;
        bool rank = false;
        // Set: --format csv is refused, the message naming what the command takes ("text or json").
        const char *noCsv = nullptr;
    };

    std::string path;
    std::vector<std::string> paths; // PATH and any further rank files given with it
    int64_t rank = -1;              // --rank N, -1: all ranks
    Format format = Format::Text;
    std::string sort;       // empty: the table's default
    int64_t limit = -1;     // -1: all rows
    std::string table;      // --table (engines: engines, dma, cores)
    bool groupByShapes = false;
    std::optional<TimeRange> range;
    // After load(): the range on the trace clock (open ends at the trace's start / end).
    bool hasRange = false;
    int64_t t0 = 0, t1 = 0;

    // Parses the arguments of `command`; on a usage error prints it with the command's usage to
    // stderr and returns false. A deprecated unit-less --range prints a one-line note on stderr.
    bool parse(const char *command, const Args &args, Accepts accepts);
    // The same for a command that took flags of its own out of the arguments first: `ownError`, what
    // taking them found wrong, is reported as a usage error once the shared flags are known good.
    bool parse(const char *command, const Args &args, Accepts accepts, const std::string &ownError);
    // A command with flags of its own: `take(args, flags, rest)` moves them into `flags` and the
    // others into `rest`, returning what was wrong with them; then parse(rest) as above.
    template <typename Flags, typename Take>
    bool parse(const char *command, const Args &args, Accepts accepts, Take take, Flags &flags, Args &rest)
    {
        const std::string ownError = take(args, flags, rest);
        return parse(command, rest, accepts, ownError);
    }
    // Loads PATH (through the trace cache) and resolves --range against it; prints the error and
    // returns false when either fails.
    bool load(const Args &args, LoadResult &loaded);
    // load(), then the resolved range and --rank copied into a table's options.
    template <typename Options> bool load(const Args &args, LoadResult &loaded, Options &options)
    {
        if (!load(args, loaded))
            return false;
        applyRangeAndRank(options);
        return true;
    }

    // Copies the resolved range into a table's options (hasRange, t0, t1).
    template <typename Options> void applyRange(Options &o) const
    {
        o.hasRange = hasRange;
        o.t0 = t0;
        o.t1 = t1;
    }
    // Copies the resolved range and --rank into a table's options.
    template <typename Options> void applyRangeAndRank(Options &o) const
    {
        applyRange(o);
        o.rank = rank;
    }
    // The column --sort names (Table::columnFromName); leaves `out` alone without --sort. On an
    // unknown name prints the known ones (Table::columnName of 0..count-1, then `more`) and returns false.
    template <typename Table, typename Column> bool sortColumn(Column count, Column &out, const char *more = "") const
    {
        if (sort.empty())
            return true;
        if (const auto column = Table::columnFromName(sort)) {
            out = *column;
            return true;
        }
        std::string known;
        for (int c = 0; c < int(count); ++c)
            known += std::string(c ? ", " : "") + Table::columnName(Column(c));
        usageError("unknown sort column '" + sort + "' (use one of " + known + more + ")");
        return false;
    }

    // The number of rows to show of `total`.
    size_t shown(size_t total) const { return limit < 0 ? total : std::min(total, size_t(limit)); }
    // Prints "lanescope-cli COMMAND: MESSAGE" and the usage to stderr; returns kExitUnreadable.
    int usageError(const std::string &message) const;

private:
    bool check(const Args &args, Accepts accepts, std::string &error);
    const char *m_command = "";
};

} // namespace lanescope::cli
