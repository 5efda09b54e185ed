#pragma once
// One file, recognised by content (never by name) and read by the matching importer of the formats
// table (formats.h). TraceLoader uses it for a single file; MultiRankLoader for each rank file, so the
// two loaders do not include each other; ProfileFolderLoader for each file of a folder (importAs,
// readRowsAs: the format is known from the scan). Every load of a file goes through here and reads it
// the way its table entry says: streamed when it has a stream reader, else whole. run() is the one
// place where a load's exceptions become a LoadResult ("file: at byte N: problem", cancelled, out of memory).
#include "io/input/loadoptions.h"
#include "io/ntff/ntffprofile.h"
#include "model/filereport.h"

#include <functional>
#include <string>

namespace lanescope {

class FileImporter
{
public:
    // Throws ImportError (file, byte offset, what was expected) or LoadCancelled.
    static Trace import(const std::string &path, const LoadOptions &options = {});
    // `path`, known to be of `format` (a folder scan recognised it), read by that format's entry of the
    // formats table: from an InputStream (decompressed in blocks, parsed in windows, bounded memory) when
    // it has importStream, else whole (InputBuffer::read) by its import. Throws ImportError (also for a
    // format without an importer, saying why) or LoadCancelled.
    static Trace importAs(const std::string &path, FileFormat format, const LoadOptions &options = {});
    // The device rows of `path` of `format` (an NTFF or neuron-profile JSON paired with its NEFF): by
    // readRowsStream from an InputStream when the format has one, else by readRows on the whole file.
    // Throws ImportError (also for a format without device rows) or LoadCancelled.
    static NtffProfile readRowsAs(const std::string &path, FileFormat format, const LoadOptions &options = {});
    // Whether `format` has device rows (readRowsAs reads them).
    static bool hasRows(FileFormat format);
    // import() that never throws.
    static LoadResult load(const std::string &path, const LoadOptions &options = {});
    // Runs `load` and turns what it throws into LoadResult::error / cancelled, naming `path`.
    static LoadResult run(const std::string &path, const std::function<Trace()> &load);
};

} // namespace lanescope
