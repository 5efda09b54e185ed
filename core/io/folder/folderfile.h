#pragma once
// One entry found below a profile folder: what its name tells, what its content is (a FileFormat of
// the formats table), the NEFF <-> NTFF pairing and the outcome so far. Filled by FolderScan (walk and
// recognition), FolderPairing (pairs) and ProfileFolderLoader (outcome of loading).
#include "profilefilename.h"

#include "model/filereport.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

enum class PairedBy : uint8_t { None, Uuid, NameHash };

struct FolderFile
{
    std::string path;         // as walked (below the scanned folder, symbolic links not resolved)
    std::string relativePath; // '/'-separated, relative to the scanned folder
    uint64_t size = 0;
    FileFormat kind = FileFormat::Unknown;
    FileOutcome status = FileOutcome::Ignored;
    std::string detail;      // why / what was done, e.g. "no NEFF in the folder has uuid ..."
    std::string compression; // "gzip", "zstd", "zip" or empty
    FolderNameInfo name;

    std::string uuid;        // NTFF / NEFF: 32 lowercase hex digits
    std::string neffName;    // NTFF: the NEFF name recorded inside; NEFF: the network name
    uint8_t ntffVersion = 0; // NTFF
    int64_t distributedRank = -1; // Kineto / Chrome JSON: distributedInfo.rank in the head (RankDetection), -1 when none
    std::vector<int> pairedWith; // indices into the folder's files: an NTFF has one NEFF, a NEFF one or more NTFFs
    PairedBy pairedBy = PairedBy::None;
    int group = -1; // index into ProfileFolder::groups()
};

} // namespace lanescope
