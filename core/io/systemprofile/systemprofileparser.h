#pragma once
// Parses one text of a system_profile.json (systemprofilereader.h has the fields) with simdjson
// On-Demand into a SystemProfilePart: a window "[" elements "]" of "trace_events" (or of a bare
// top-level array), "mem_usage" or "cpu_util" (JsonWindowSplitter), or a top-level object text (the
// whole file, or the part before / between / after the windowed arrays, each of those standing as
// "[]"). A window touches nothing shared: its strings are interned in the part's own pool and its
// warnings counted in the part, so windows parse on any thread; SystemProfileReader merges the parts
// in file order (interning the part's strings in the order they were first used, so every StringId is
// the one a single pass gives).
#include "io/input/loadoptions.h"
#include "io/json/jsonwindowsplitter.h"
#include "model/diagnostics.h"
#include "model/stringpool.h"
#include "model/tracebuilder.h"
#include "systemprofiledata.h"

#include <simdjson.h>

#include <exception>
#include <string>
#include <vector>

namespace lanescope {

class InputBuffer;

struct SystemProfilePart
{
    SystemProfileData data; // StringIds (and String / Json args) of `strings`
    StringPool strings;
    Diagnostics diagnostics;
    uint64_t end = 0;        // a window: the file offset after its text
    std::string lead;        // a window: JsonWindow::lead, the top-level text before it, parsed when merged
    uint64_t leadOffset = 0;
    std::exception_ptr error; // a window's ImportError / LoadCancelled, thrown when it is merged
};

class SystemProfileParser
{
public:
    // The keys whose arrays are read in windows, in the order of JsonWindow::key.
    static const std::vector<std::string> &windowedKeys();

    // A window of windowedKeys()[window.key].
    // Never throws: a failure is kept in out.error. Checks cancel, never reports progress (any thread).
    static void parseWindow(JsonWindow &window, const std::string &name, const LoadOptions &options,
                            simdjson::ondemand::parser *parser, SystemProfilePart &out);

    enum class Piece { Whole, Before, Between, After };
    // A top-level text starting at file offset `offset`. Top-level keys that are not arrays of events
    // go to `meta`'s metadata (their names appended to `keys`, for the error of a file without
    // "trace_events"); reports progress for Whole. Throws ImportError or LoadCancelled.
    static void parsePiece(InputBuffer &text, uint64_t offset, Piece piece, const std::string &name,
                           const LoadOptions &options, TraceBuilder &meta, std::string &keys, SystemProfilePart &out);
};

} // namespace lanescope
