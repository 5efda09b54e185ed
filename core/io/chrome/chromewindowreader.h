#pragma once
// Parses one window of a Chrome/Kineto event array ("[" events "]", JsonWindowSplitter) with simdjson
// On-Demand into ChromeWindowEvents: phases, times digit-exact to ns, pid / tid, ids, flow fields and
// args as formats.md section 2 describes them. Touches nothing shared, so windows parse in parallel.
#include "chromewindowevents.h"
#include "io/input/loadoptions.h"
#include "io/json/jsonwindowsplitter.h"

#include <simdjson.h>

#include <string>

namespace lanescope {

class ChromeWindowReader
{
public:
    // Never throws: a failure (ImportError naming the file byte, LoadCancelled) is kept in `error`.
    // `parser`: reused across the windows one thread parses (nullptr: a fresh one).
    static ChromeWindowEvents read(JsonWindow &window, const std::string &name, const LoadOptions &options,
                                   simdjson::ondemand::parser *parser = nullptr);
    // The same into `out` (reset first; its vectors' memory is reused).
    static void read(JsonWindow &window, const std::string &name, const LoadOptions &options, simdjson::ondemand::parser *parser,
                     ChromeWindowEvents &out);
};

} // namespace lanescope
