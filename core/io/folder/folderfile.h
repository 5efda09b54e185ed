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

// ModelId: a NEFF whose model id (its name neff_<id>.neff, its network name) a system trace's records
// carry (ntrace.pb's model_id, named by trace_info's system_trace table); pairedWith names that trace.
enum class PairedBy : uint8_t { None, Uuid, NameHash, ModelId };

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
    // NTFF (v6 metadata; absent in v4 / v5): the execution's window on the device clock (top field 15
    // {2 start, 3 end} in ps), the physical cores of its sections (field 16's field 7, in order) and the
    // instance id (field 17). ProfileFolderLoader checks the window against the system trace's executions.
    uint64_t deviceStartPs = 0, deviceEndPs = 0;
    bool hasDeviceWindow = false;
    std::vector<int64_t> deviceCores;
    std::string ntffInstanceId;
    int64_t distributedRank = -1; // Kineto / Chrome JSON: distributedInfo.rank in the head (RankDetection), -1 when none
    std::vector<int> pairedWith; // indices into the folder's files: an NTFF has one NEFF, a NEFF one or more NTFFs
    PairedBy pairedBy = PairedBy::None;
    int group = -1; // index into ProfileFolder::groups()
};

} // namespace lanescope
