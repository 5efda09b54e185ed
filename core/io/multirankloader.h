#pragma once
// Opens the Kineto traces of N ranks of one distributed job as one timeline: one group "Rank N" per
// rank (GroupKind::Rank, externalId N), the ranks on a common clock (RankClock: baseTimeNanoseconds,
// else each rank's first ProfilerStep#), the files loaded in parallel on both cores. Used for a
// folder whose traces are all Kineto / Chrome JSON, and for several files given together (the CLI's
// `info a.json b.json`, the GUI's `lanescope a.json b.json`), when every file carries a distinct
// rank (RankDetection: distributedInfo.rank, else the file name); otherwise the caller falls back
// (a folder to ProfileFolderLoader, several files to a comparison).
//
// A rank file that fails to load does not stop the others: its FileReport (TraceMetadata::files) is
// "not readable" with the importer's error (file, byte offset, what was expected), and a warning
// names it. The metadata says `ranks` (the ranks, ascending), `ranks.clock` (the rule) and per rank
// `rank.N` (file, where the rank came from, how its clock was placed); each rank's own entries are
// kept as "rank N: <key>" and its warnings prefixed with "rank N (<file>): ".
#include "loadoptions.h"

#include <optional>
#include <string>
#include <vector>

namespace lanescope {

class ProfileFolder;

class MultiRankLoader
{
public:
    struct Input
    {
        std::string path;  // to read
        std::string shown; // in reports: the path relative to the folder, or as given
    };

    // A folder whose files with a timeline are two or more Kineto / Chrome JSON traces and nothing
    // else, without two of them named after the same rank: worth trying as a rank set.
    static bool isCandidate(const ProfileFolder &folder);
    // Loads the folder's traces as ranks; std::nullopt when they turn out not to carry distinct ranks
    // (nothing is kept). Throws ImportError when none can be read, LoadCancelled on cancel.
    static std::optional<Trace> loadFolder(const ProfileFolder &folder, const LoadOptions &options = {});
    // The same for files given together; `title` becomes the trace's source path.
    static std::optional<Trace> load(const std::vector<Input> &files, const std::string &title, const LoadOptions &options = {});
    // Several paths as one multi-rank trace (never throws): an error when they do not carry distinct
    // ranks ("... do not carry distinct ranks: a.json and b.json are both rank 0").
    static LoadResult loadFiles(const std::vector<std::string> &paths, const LoadOptions &options = {});
    // Without loading them: do these files name distinct ranks (file names first, else the
    // distributedInfo in the first 64 KiB of their decompressed text)? The GUI's choice between a
    // multi-rank trace and a comparison.
    static bool looksLikeRankSet(const std::vector<std::string> &paths);

private:
    struct Extras
    {
        std::vector<FileReport> reports; // a folder's files that are not rank traces
        const Diagnostics *scan = nullptr; // the folder walk's problems
    };
    static std::optional<Trace> loadRanks(const std::vector<Input> &files, const std::string &title, const LoadOptions &options,
                                          const Extras &extras);
};

} // namespace lanescope
