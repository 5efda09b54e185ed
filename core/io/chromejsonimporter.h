#pragma once
// Kineto / Chrome Trace Event JSON importer (simdjson On-Demand). Object and bare-array forms
// (also unterminated arrays); every phase of formats.md section 2; ts/dur parsed digit-exact to ns.
#include "loadoptions.h"

#include <string>

namespace lanescope {

class InputBuffer;

class ChromeJsonImporter
{
public:
    // Throws ImportError (file, byte offset, expectation) or LoadCancelled.
    static Trace import(InputBuffer &input, const std::string &name, const LoadOptions &options);
};

} // namespace lanescope
