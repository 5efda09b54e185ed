#pragma once
// A folder of rank summaries (or one summary file) opened as the overview of its job(s)
// (`lanescope-cli info DIR`, the viewer's Job dock): the summaries are found by the formats table's
// folder scan like any other file kind (FolderRole::RankSummary), read in parallel (RankSummaryJson;
// a summary that cannot be read is named with its reason and the others go on), and split into jobs:
//   - ranks of different jobs (another world size, or other process groups) are kept apart, one
//     JobOverview each, with a warning naming the files of each job;
//   - two summaries of one rank are kept apart too: the second goes to a job of its own ("job 1 #2"),
//     with a warning naming both files.
// Each job is then computed by JobOverview. locateTrace finds the trace a summary was made from, for
// opening a rank's full trace on demand.
#include "joboverview.h"

#include "io/input/loadoptions.h"

#include <string>
#include <vector>

namespace lanescope {

class JobFolder
{
public:
    // A summary file (by content), or a folder in which the scan finds at least one summary.
    static bool isJob(const std::string &path);

    struct Result
    {
        std::string path;
        std::vector<JobOverview> jobs;
        std::vector<std::string> errors;     // one per summary that could not be read ("file: at /x: expected ...")
        std::vector<std::string> warnings;   // jobs kept apart, ranks given twice, ranks missing
        std::vector<std::string> otherFiles; // files of the folder that are not summaries (relative paths)
        uint64_t summaries = 0, summaryBytes = 0; // read, and their size on disk
        bool ok() const { return !jobs.empty(); }
    };
    // Reads every summary of `path` (a folder or one file) and computes its job(s). Never throws: a
    // path without any readable summary gives no job and the reasons in `errors`.
    static Result open(const std::string &path, const LoadOptions &options = {});
    // The jobs of summaries already read (what open() does after reading); warnings appended.
    static std::vector<JobOverview> split(std::vector<RankSummary> summaries, std::vector<std::string> &warnings);

    struct TraceLocation
    {
        std::string found;              // empty when not found
        std::vector<std::string> tried; // every path looked at, in order
    };
    // The rank's trace: the path recorded in the summary, else a file of its name beside the summary,
    // else in the folder above it (a trace copied with its summaries). A file is taken only when its
    // size is the recorded one.
    static TraceLocation locateTrace(const RankSummary &summary);
};

} // namespace lanescope
