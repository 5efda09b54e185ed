#pragma once
// A TorchNeuron (or neuron-profile, vLLM, ...) profile folder: every file found below it, recognised
// by content (FolderScan, the formats table), with what its name tells (NEFF hash, instance, core,
// session, rank, process), NEFF <-> NTFF pairs (FolderPairing) and a grouping by instance / process /
// rank. ../shared/docs/formats.md section 1. Nothing is loaded here: ProfileFolderLoader does that.
#include "folderfile.h"
#include "folderscan.h"
#include "io/input/loadoptions.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

// Files of one instance / process / rank (or the folder itself when nothing says more).
struct FolderGroup
{
    std::string key;   // "i-0abc_pid_4242", "rank 3", or "" for the folder itself
    std::string label; // "i-0abc (pid 4242)", "rank 3", "" for the folder itself
    std::string instanceId;
    int64_t pid = -1;
    int64_t rank = -1;
    std::vector<int> files;
};

class ProfileFolder
{
public:
    static constexpr int kMaxDepth = FolderScan::kMaxDepth;
    static constexpr size_t kMaxEntries = FolderScan::kMaxEntries;

    // Walks `dir`, pairs and groups. Throws ImportError when `dir` is not a readable folder,
    // LoadCancelled on cancel.
    static ProfileFolder scan(const std::string &dir, const LoadOptions &options = {});

    // Naming variants of formats.md section 1 (file name and folders above it); `relativePath` is
    // '/'-separated. A compression suffix (.gz, .zst, .zip) is ignored.
    static FolderNameInfo parseName(std::string_view relativePath) { return ProfileFileName::parse(relativePath); }

    const std::string &root() const { return m_root; }
    const std::vector<FolderFile> &files() const { return m_files; }
    // Whether a file would be loaded as a timeline (an importer, and an outcome that loads).
    static bool loadable(const FolderFile &f);
    // The one loadable file when there is exactly one, else nullptr.
    const FolderFile *onlyLoadable() const;
    const std::vector<FolderGroup> &groups() const { return m_groups; }
    // Problems of the walk itself: depth or entry limit reached, symbolic-link loops, unreadable folders.
    const Diagnostics &diagnostics() const { return m_diagnostics; }
    int find(std::string_view relativePath) const;

    // The typed report of a file: kind, outcome, detail (a paired file's detail names its partners).
    FileReport report(const FolderFile &f) const;
    // report(f).text(): "paired with neff_1.neff by uuid", "unpaired: ...", "not readable: ...", ...
    std::string statusText(const FolderFile &f) const { return report(f).text(); }

    // For ProfileFolderLoader: the outcome of loading a file.
    void setOutcome(size_t index, FileOutcome status, std::string detail);
    // For ProfileFolderLoader: a pairing found while loading (a NEFF and the system trace running it).
    void setPairing(size_t index, std::vector<int> with, PairedBy by);

private:
    void groupFiles();

    std::string m_root;
    std::vector<FolderFile> m_files;
    std::vector<FolderGroup> m_groups;
    Diagnostics m_diagnostics;
};

} // namespace lanescope
