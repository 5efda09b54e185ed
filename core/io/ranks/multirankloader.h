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
// names it. Two files of one rank are kept apart (groups "Rank N (file)") with a warning; a rank
// whose clock was hours from the reference's gets a note naming the rule and the offset. The metadata
// says `ranks` (the ranks, ascending), `ranks.clock` (the rule) and per rank `rank.N` (file, where the
// rank came from, how its clock was placed); each rank's own entries are kept as "rank N: <key>" and
// its warnings prefixed with "rank N (<file>): ".
#include "io/input/loadoptions.h"

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
        std::string rankPath; // where the file and folder name rank is read (empty: `path`)
    };

    // A folder whose files with a timeline are two or more Kineto / Chrome JSON traces and nothing
    // else, each carrying a rank (distributedInfo.rank in its head, else its file or folder name:
    // RankDetection), decided from the folder scan alone: a rank set. Nothing is loaded twice.
    static bool isCandidate(const ProfileFolder &folder);
    // Loads a candidate folder's traces as ranks. Throws ImportError when none can be read,
    // LoadCancelled on cancel.
    static Trace loadFolder(const ProfileFolder &folder, const LoadOptions &options = {});
    // The same for files given together; `title` becomes the trace's source path. std::nullopt when a
    // file that loaded carries no rank (nothing is kept).
    static std::optional<Trace> load(const std::vector<Input> &files, const std::string &title, const LoadOptions &options = {});
    // Several paths as one multi-rank trace (never throws): an error when one of them carries no rank
    // or one file is given twice ("... do not carry distinct ranks ...").
    static LoadResult loadFiles(const std::vector<std::string> &paths, const LoadOptions &options = {});
    // The source path a set of files given together gets: "a.json and 2 more rank files".
    static std::string title(const std::vector<std::string> &paths);
    // Without loading them: do these files name distinct ranks (distributedInfo in the first 64 KiB of
    // their decompressed text, else the file or folder name)? The GUI's choice between a multi-rank
    // trace and a comparison (two files of one rank are a before / after comparison there).
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
