#pragma once
// lanescope-cli sub-commands. Each lives in its own cmd_*.cpp; every number they print comes from
// lanescope_core, the same functions the GUI calls.
#include "io/input/loadoptions.h"

#include <string>
#include <vector>

namespace lanescope {
struct Finding;
struct Annotation;
class Trace;
struct CollectiveMatchResult;
}

namespace lanescope::cli {

using Args = std::vector<std::string>; // arguments after the sub-command name

// Exit codes shared by all commands.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1; // e.g. a regression gate tripped
constexpr int kExitUnreadable = 2; // input cannot be read, or usage error

int cmdInfo(const Args &args);
int cmdGenerateSample(const Args &args);
int cmdRows(const Args &args);
int cmdNeff(const Args &args);
int cmdOps(const Args &args);
int cmdKernels(const Args &args);
int cmdDevices(const Args &args);
int cmdEngines(const Args &args);
int cmdDiff(const Args &args);
int cmdExportSqlite(const Args &args);
int cmdExportParquet(const Args &args);
int cmdQuery(const Args &args);
int cmdCache(const Args &args);
int cmdChain(const Args &args);
int cmdScreenshot(const Args &args);
int cmdInsights(const Args &args);
int cmdStats(const Args &args);
int cmdNotes(const Args &args);
int cmdTree(const Args &args);
int cmdSource(const Args &args);
int cmdTensors(const Args &args);
int cmdCollectives(const Args &args);
int cmdMemory(const Args &args);
int cmdSummarize(const Args &args);
int cmdJob(const Args &args);
// Whether the one PATH of `args` is a rank summary or a folder of them (info prints the job overview then).
bool isJobPath(const Args &args);

struct Command
{
    const char *name;
    int (*run)(const Args &);
    const char *usage;
    const char *summary;
};

const std::vector<Command> &commands();

// Small helpers shared by the commands.
bool hasFlag(const Args &args, const std::string &flag);
std::string flagValue(const Args &args, const std::string &flag, const std::string &fallback = {});
// For a command taking its own flags out of the arguments: when args[i] is `flag VALUE` or
// `flag=VALUE`, puts VALUE (empty when missing) in `value`, moves i past it and returns true.
bool takeValue(const Args &args, size_t &i, const std::string &flag, std::string &value);
std::vector<std::string> positional(const Args &args, const std::vector<std::string> &flagsWithValue = {});
// Loads a trace through the trace cache (CachedLoader) unless --no-cache is given or
// LANESCOPE_NO_CACHE=1; cache notices go to stderr.
LoadResult loadTrace(const std::string &path, const Args &args, const LoadOptions &options = {});
// Several paths: the files of one job's ranks as one multi-rank trace, cached under all of them.
LoadResult loadTrace(const std::vector<std::string> &paths, const Args &args, const LoadOptions &options = {});
// The trace's notes (docs/notes.md, PATH's sidecar) resolved against it, for the exporters' notes table;
// an unreadable notes file is said on stderr ("the notes table stays empty"), not fatal.
std::vector<Annotation> notesForExport(const std::string &path, const Trace &trace);
// Findings as text under a heading (insights, the findings section of diff).
void printFindings(const char *heading, const std::vector<Finding> &findings);
// The first `shown` matched collectives, most skewed first, each line after `indent` (collectives, job).
void printMostSkewed(const CollectiveMatchResult &m, size_t shown, const char *indent);

} // namespace lanescope::cli
