#pragma once
// The flags the table commands (ops, kernels, devices) share: PATH, --json, --sort COLUMN,
// --limit N, --range START_NS:END_NS, --group-by-shapes. Parsing only; the numbers come from
// core/analysis.
#include "commands.h"

#include <cstdint>
#include <string>

namespace lanescope::cli {

struct TableArgs
{
    std::string path;
    bool json = false;
    std::string sort;       // empty: the table's default
    int64_t limit = -1;     // -1: all rows
    bool hasRange = false;
    int64_t t0 = 0, t1 = 0; // ns on the trace's clock (as `info` prints start_ns / end_ns)
    bool groupByShapes = false;

    // False (and `error` set) on a usage error.
    bool parse(const Args &args, std::string &error);
    static const char *usageFlags() { return "[--json] [--sort COLUMN] [--limit N] [--range START_NS:END_NS]"; }
};

// "12.345 us" style text for the human-readable tables.
std::string formatNs(double ns);

} // namespace lanescope::cli
