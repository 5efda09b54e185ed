#pragma once
// Entry point for every file the user opens: recognises the format by content (never by name) and
// runs the matching importer. The CLI and the GUI both call this.
#include "loadoptions.h"
#include "profilefolder.h"

#include <string>
#include <string_view>

namespace lanescope {

enum class FileFormat {
    Unknown,
    ChromeJson,        // Kineto / Chrome Trace Event JSON (object or bare array), possibly compressed
    NeuronProfileJson, // neuron-profile view --output-format json
    Ntff,              // raw Neuron device trace
    Neff,              // compiled Neuron program
    Folder,
    SystemProfileJson, // system_profile.json: the Neuron system trace exported by AWS's tools
};

class TraceLoader
{
public:
    // Bump whenever an importer changes the model it builds: every trace cache entry made by an older
    // version is then stale and rebuilt (core/store/tracecache.h).
    static constexpr uint32_t kImporterVersion = 2;

    // Never throws: failures come back as LoadResult::error ("file: at byte N: problem").
    // A folder is scanned (ProfileFolder) and all its traces merged into one (ProfileFolderLoader).
    static LoadResult load(const std::string &path, const LoadOptions &options = {});
    // The files of a profile folder and what they are, without loading them. Throws ImportError.
    static ProfileFolder scanFolder(const std::string &dir, const LoadOptions &options = {});
    // Looks at the first bytes of a (decompressed) input.
    static FileFormat sniff(std::string_view head, uint64_t fileSize);
    // Sniffs a path without loading it (compressed files report Unknown until decompressed).
    static FileFormat sniffPath(const std::string &path);
    static const char *formatName(FileFormat f);
};

} // namespace lanescope
