#pragma once
// Finds slices by name (substring or regular expression, optionally over arg keys and string
// values too) and returns them in time order, for the timeline's search and the CLI. Names are
// matched once per distinct string, then the slices are one pass over their name ids.
#include "model/ids.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace lanescope {

class Trace;

class SliceSearch
{
public:
    struct Options
    {
        QString pattern;
        bool regex = false;
        bool caseSensitive = false;
        bool includeArgs = false; // also match arg keys and string values
    };

    // Slice ids (SliceId values) of every match, ordered by start time then id. Empty for an empty
    // pattern; `error` (optional) receives the message of an invalid regular expression.
    static std::vector<uint32_t> find(const Trace &trace, const Options &options, QString *error = nullptr);

    // Index in `matches` of the first match starting after `t` (forward) or the last one starting
    // before `t` (backward), wrapping around; -1 when there are no matches.
    static int64_t step(const Trace &trace, const std::vector<uint32_t> &matches, int64_t t, bool forward);
};

} // namespace lanescope
