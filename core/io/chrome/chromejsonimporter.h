#pragma once
// Kineto / Chrome Trace Event JSON importer (simdjson On-Demand). Object and bare-array forms
// (also unterminated arrays); every phase of formats.md section 2; ts/dur parsed digit-exact to ns.
// The event array is read in windows (JsonWindowSplitter) parsed on LoadOptions::jsonThreads threads
// and merged in file order (ChromeWindowMerger): the trace is the same as one pass would build, and
// memory holds the model plus a few windows, not the text.
#include "io/input/loadoptions.h"

#include <string>

namespace lanescope {

class InputBuffer;
class InputStream;

class ChromeJsonImporter
{
public:
    // Throws ImportError (file, byte offset, expectation) or LoadCancelled.
    static Trace import(InputBuffer &input, const std::string &name, const LoadOptions &options);
    // The same, read from a stream (a file of any size, decompressed while it is parsed).
    static Trace importStream(InputStream &input, const LoadOptions &options);
};

} // namespace lanescope
