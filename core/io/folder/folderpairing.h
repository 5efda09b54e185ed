#pragma once
// NEFF <-> NTFF pairing in a scanned profile folder: by the uuid stored in both files first, by the NEFF
// hash in their names second (only where a uuid cannot decide), never by guess. Among several
// candidates: the same folder, then the same process folder, then the first by path. A neuron-profile
// JSON export of an NTFF that is in the folder too is ignored (the NTFF is loaded instead).
// ../shared/docs/formats.md section 1.
#include "folderfile.h"

#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class FolderPairing
{
public:
    // Sets pairedWith / pairedBy / status / detail of the NEFFs, NTFFs and neuron-profile JSON exports
    // of `files` (as FolderScan left them).
    static void pair(std::vector<FolderFile> &files);

    // A uuid that identifies something: 32 hex digits, not all zero.
    static bool uuidKnown(const std::string &uuid)
    {
        return uuid.size() == 32 && uuid.find_first_not_of('0') != std::string::npos;
    }
    // The folder part of a '/'-separated relative path ("" at the top).
    static std::string_view dirName(std::string_view path)
    {
        const size_t slash = path.rfind('/');
        return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
    }
};

} // namespace lanescope
