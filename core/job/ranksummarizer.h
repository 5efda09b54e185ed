#pragma once
// Makes the summary of one rank (RankSummary, docs/job-summary.md) from its loaded trace: the rank
// (RankDetection), RankClock's inputs, the ProfilerStep# occurrences of the op table, every collective
// instance with the step that launched it (CollectiveTable, CollectiveMatch::stepsOf), the op, kernel,
// device and collective tables (TableRows' JSON), the findings and key metrics of Insights, the load's
// warnings and the metadata. The same functions the CLI and the GUI run on the trace, so a summary
// says what they would.
#include "ranksummary.h"

#include "io/input/loadoptions.h"

#include <string>

namespace lanescope {

class Trace;

class RankSummarizer
{
public:
    // `path`: the file the trace was loaded from (its size and fingerprint are read from it).
    // Throws std::runtime_error naming the file when it cannot be read for its fingerprint.
    static RankSummary summarize(const Trace &trace, const std::string &path);

    struct Outcome
    {
        RankSummary summary;
        std::string error; // empty on success: "file: at byte N: problem", "...: carries no rank"
        bool ok() const { return error.empty(); }
    };
    // Loads `path` (a Kineto / Chrome trace of one rank, never through the trace cache) and summarises
    // it; never throws. A trace that carries no rank (distributedInfo.rank, the file or folder name)
    // fails with a message saying so.
    static Outcome summarizeFile(const std::string &path, const LoadOptions &options = {});
};

} // namespace lanescope
