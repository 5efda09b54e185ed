#pragma once
// Profile file names: which naming variant of formats.md section 1 a path follows, and what its name and
// the folders above it tell (NEFF hash, instance, core, session, rank, exec, "<instance>_pid_<pid>").

#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope {

// What a file's name and the folders above it tell. Empty / -1 when not present.
struct FolderNameInfo
{
    std::string pattern;     // the naming variant that matched, e.g. "<H>_instid_<I>_vnc_<N>.ntff"
    std::string hash;        // <H>: the NEFF hash shared by a NEFF and its NTFFs
    int64_t instanceIndex = -1; // instid_<I>
    int64_t core = -1;          // vnc_<N> or nc_<N>
    int64_t session = -1;       // session_<S>
    int64_t rank = -1;          // rank_<N>
    int64_t exec = -1;          // exec_<N>
    std::string instanceId;     // from an "<instance-id>_pid_<pid>" folder
    int64_t pid = -1;
    std::string processFolder; // relative path of that folder, e.g. "i-0abc_pid_4242"
};

class ProfileFileName
{
public:
    // `relativePath` is '/'-separated. A compression suffix (.gz, .zst, .zstd, .zip) is ignored.
    static FolderNameInfo parse(std::string_view relativePath);
};

} // namespace lanescope
