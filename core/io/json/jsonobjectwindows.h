#pragma once
// The windowed part of a reader of a top-level JSON object whose big arrays are cut into windows
// (JsonWindowSplitter with several keys): windowpipeline.h's parseWindowsInOrder with one simdjson
// parser per worker, each window's result `Part` carrying the window's `lead` (the top-level text
// before it, JsonObjectPieces::between) and the file offset after it (`end`), merged on the calling
// thread in file order followed by a progress report and cancel check (JsonObjectPieces::progress).
// `Part` has members lead, leadOffset and end. Shared by the neuron-profile JSON and
// system_profile.json readers.
#include "io/input/inputstream.h"
#include "io/input/loadoptions.h"
#include "jsonobjectpieces.h"
#include "jsonwindowsplitter.h"
#include "windowpipeline.h"

#include <simdjson.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace lanescope {

// `parse(window, parser, part)` on a worker thread (must not throw: keep the error in the part);
// `merge(part)` on the calling thread.
template <class Part, class Parse, class Merge>
void readObjectWindows(JsonWindowSplitter &splitter, const InputStream &input, const LoadOptions &options, int progressFrom,
                       int progressSpan, Parse &&parse, Merge &&merge)
{
    std::vector<simdjson::ondemand::parser> parsers(std::max(1u, options.jsonThreads));
    parseWindowsInOrder(
        splitter, options.jsonThreads,
        [&](JsonWindow &w, unsigned worker) {
            Part part;
            parse(w, &parsers[worker], part);
            part.lead = std::move(w.lead);
            part.leadOffset = w.leadOffset;
            part.end = w.offset + w.text.size();
            return part;
        },
        [&](Part &part) {
            merge(part);
            JsonObjectPieces::progress(input, part.end, options, progressFrom, progressSpan);
        });
}

} // namespace lanescope
