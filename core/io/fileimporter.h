#pragma once
// One file, recognised by content (never by name) and read by the matching importer of the formats
// table (formats.h). TraceLoader uses it for a single file; MultiRankLoader for each rank file, so the
// two loaders do not include each other. run() is the one place where a load's exceptions become a
// LoadResult ("file: at byte N: problem", cancelled, out of memory).
#include "io/input/loadoptions.h"

#include <functional>
#include <string>

namespace lanescope {

class FileImporter
{
public:
    // Throws ImportError (file, byte offset, what was expected) or LoadCancelled.
    static Trace import(const std::string &path, const LoadOptions &options = {});
    // import() that never throws.
    static LoadResult load(const std::string &path, const LoadOptions &options = {});
    // Runs `load` and turns what it throws into LoadResult::error / cancelled, naming `path`.
    static LoadResult run(const std::string &path, const std::function<Trace()> &load);
};

} // namespace lanescope
