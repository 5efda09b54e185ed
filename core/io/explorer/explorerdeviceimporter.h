#pragma once
// A processed Neuron Explorer device profile (a directory of Parquet tables) -> trace model, the way a
// user opens it: the directory itself, or a folder that holds one (Explorer's data path
// `<P>/profiles/global/<name>@latest/`, or `<P>` itself). The rows are read by ExplorerDeviceReader into
// an NtffProfile and built by NtffImporter::build, so the profile shows the lanes neuron-profile's JSON
// export of the same capture shows. Metadata format "neuron-explorer-parquet".
#include "io/input/loadoptions.h"
#include "io/ntff/ntffprofile.h"

#include <string>
#include <vector>

namespace lanescope {

class ExplorerDeviceImporter
{
public:
    // The device-profile directories `dir` is or holds, found by structure (a directory of table files
    // with a device table, ProfileDirectory): `dir` itself when it is one, else those among its
    // subdirectories up to three levels down (profiles/global/<name>@latest), in path order. Empty
    // when there is none (a folder of traces, a system-only profile).
    static std::vector<std::string> find(const std::string &dir);
    // Whether `dir` itself is a device-profile directory (table files, at least one device table).
    static bool isDeviceProfile(const std::string &dir);

    // The device rows of the profile `path` is or holds (the first of several, a note naming the others).
    // Throws ImportError (no profile there, unreadable directory) or LoadCancelled.
    static NtffProfile readRows(const std::string &path, const LoadOptions &options = {});
    // The same built into a trace.
    static Trace import(const std::string &path, const LoadOptions &options = {});
};

} // namespace lanescope
