#pragma once
// A TorchNeuron (or neuron-profile, vLLM, ...) profile folder: every file found below it, recognised
// by content, with what its name tells (NEFF hash, instance, core, session, rank, process), NEFF <-> NTFF
// pairs (by the UUID stored in both files first, by the hash in the names second, never by guess)
// and a grouping by instance / process / rank. ../shared/docs/formats.md section 1.
//
// The walk is bounded: at most kMaxDepth folder levels and kMaxEntries entries, hidden folders are
// not entered, symbolic-link loops are detected by (device, inode) and reported, special files
// (FIFOs, sockets, devices) are never opened. Each regular file is opened once to read its first
// bytes (gzip / zstd heads are inflated only as far as needed); an NTFF's metadata message is read
// only up to its uuid and NEFF name; nothing is fully parsed here. ProfileFolderLoader does the loading.
#include "loadoptions.h"
#include "profilefilename.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

enum class FolderFileKind : uint8_t {
    ChromeTrace,       // Kineto / Chrome Trace Event JSON (framework trace), possibly compressed
    Ntff,              // raw Neuron device trace
    Neff,              // compiled Neuron program
    NeuronProfileJson, // neuron-profile view --output-format json
    SystemProfileJson, // system_profile.json (JSON export of the system trace): runtime API and hardware lanes
    NeuronProtobuf,    // ntrace.pb, trace_info.pb, cpu_util.pb, host_mem.pb: schema not public
    Other,             // anything else (ignored, with the reason)
};

enum class FolderFileStatus : uint8_t {
    Loaded,      // a trace that is loaded on its own (framework JSON, neuron-profile JSON)
    Paired,      // an NTFF with its NEFF (or a NEFF with its NTFFs)
    Unpaired,    // an NTFF without a NEFF (still loaded) or a NEFF without an NTFF
    NotReadable, // recognised but cannot be read (schema not public, damaged, no permission)
    Ignored,     // not a trace, or not imported (with the reason)
};

enum class PairedBy : uint8_t { None, Uuid, NameHash };

struct FolderFile
{
    std::string path;         // as walked (below the scanned folder, symbolic links not resolved)
    std::string relativePath; // '/'-separated, relative to the scanned folder
    uint64_t size = 0;
    FolderFileKind kind = FolderFileKind::Other;
    FolderFileStatus status = FolderFileStatus::Ignored;
    std::string detail; // why / what was done, e.g. "no NEFF in the folder has uuid ..."
    std::string compression; // "gzip", "zstd", "zip" or empty
    FolderNameInfo name;

    std::string uuid;        // NTFF / NEFF: 32 lowercase hex digits
    std::string neffName;    // NTFF: the NEFF name recorded inside; NEFF: the network name
    uint8_t ntffVersion = 0; // NTFF
    std::vector<int> pairedWith; // indices into ProfileFolder::files(): an NTFF has one NEFF, a NEFF one or more NTFFs
    PairedBy pairedBy = PairedBy::None;
    int group = -1; // index into ProfileFolder::groups()
};

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
    static constexpr int kMaxDepth = 8;            // folder levels below the scanned one
    static constexpr size_t kMaxEntries = 20000;   // entries looked at (files + folders)
    static constexpr size_t kHeadBytes = 64 * 1024; // bytes read (inflated) to recognise a file
    static constexpr size_t kJsonProbeBytes = 4 << 20; // a JSON object may carry "traceEvents" this late

    // Walks `dir`. Throws ImportError when `dir` is not a readable folder, LoadCancelled on cancel.
    static ProfileFolder scan(const std::string &dir, const LoadOptions &options = {});

    // Naming variants of formats.md section 1 (file name and folders above it); `relativePath` is
    // '/'-separated. A compression suffix (.gz, .zst, .zip) is ignored.
    static FolderNameInfo parseName(std::string_view relativePath) { return ProfileFileName::parse(relativePath); }

    const std::string &root() const { return m_root; }
    const std::vector<FolderFile> &files() const { return m_files; }
    const std::vector<FolderGroup> &groups() const { return m_groups; }
    // Problems of the walk itself: depth or entry limit reached, symbolic-link loops, unreadable folders.
    const Diagnostics &diagnostics() const { return m_diagnostics; }
    int find(std::string_view relativePath) const;

    // "paired with neff_1.neff by uuid", "unpaired: ...", "not readable: ...", "ignored: ...", "loaded: ..."
    std::string statusText(const FolderFile &f) const;
    static const char *kindName(FolderFileKind k);     // chrome-trace, ntff, neff, ...
    static const char *statusName(FolderFileStatus s); // loaded, paired, unpaired, not_readable, ignored
    // Reads the status back from a statusText() (used by the CLI on the merged trace's metadata).
    static FolderFileStatus statusFromText(std::string_view text);

    // For ProfileFolderLoader: the outcome of loading a file.
    void setOutcome(size_t index, FolderFileStatus status, std::string detail);

private:
    struct Walker;
    void classify(FolderFile &f, const LoadOptions &options);
    void pair();
    void groupFiles();

    std::string m_root;
    std::vector<FolderFile> m_files;
    std::vector<FolderGroup> m_groups;
    Diagnostics m_diagnostics;
};

} // namespace lanescope
