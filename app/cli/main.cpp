// lanescope-cli: the headless twin of the viewer. Prints every number the GUI shows, as text or --json.
#include "commands.h"

#include "annotations/annotationstore.h"

#include "io/input/memorybudget.h"
#include "io/ranks/multirankloader.h"
#include "store/cachedloader.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace lanescope::cli {

const std::vector<Command> &commands()
{
    static const std::vector<Command> all = {
        {"info", cmdInfo, "info PATH... [--json] [--no-cache]", "what was loaded: events, slices, tracks, phases, categories, warnings, a one-line capture verdict; ranks and their step times; a folder of rank summaries: the job overview (as `job`)"},
        {"summarize", cmdSummarize, "summarize TRACE... -o DIR [--jobs N] [--parquet]",
         "one small summary per rank trace (docs/job-summary.md), N traces at a time (default: the cores); open DIR with info or job"},
        {"job", cmdJob, "job DIR|SUMMARY [--json] [--limit N]",
         "the job overview from rank summaries: ranks, step times, stragglers, collective skew and late ranks, findings by rank"},
        {"generate-sample", cmdGenerateSample, "generate-sample --folder DIR [--variant V|--compare-set] [--capture no-sync|no-warmup] [--layout native] | -o FILE [--steps N] [--seed S]",
         "write the synthetic RMSNorm profile folder that `make run` opens (--folder; --capture: captured the wrong way), or a Kineto trace only (-o)"},
        {"rows", cmdRows, "rows PATH --table instruction|dma|semaphore [--format jsonl|csv]",
         "device rows of an NTFF or a neuron-profile JSON export, one per line, neuron-profile field names, ns from the origin, event_id for chain"},
        {"chain", cmdChain, "chain PATH --event ID [--json] [--max N] [--critical-path]",
         "the dependency chain of one event (slice id): upstream, downstream, edges, critical path"},
        {"neff", cmdNeff, "neff PATH [--json]",
         "a compiled Neuron program: header, uuid, compiler, target, members, subgraphs, DMA queues, engines"},
        {"ops", cmdOps, "ops PATH... [--json|--format text|json|csv] [--sort COL] [--limit N] [--range FROM:TO] [--group-by-shapes] [--rank N]",
         "operator table: calls, CPU total/self, device total/self per op (PyTorch key_averages numbers)"},
        {"kernels", cmdKernels, "kernels PATH... [--json|--format text|json|csv] [--sort COL] [--limit N] [--range FROM:TO] [--rank N]",
         "kernel table: kernels, memcpy, NEFF executions, Neuron opcodes by name, with the op that launched them"},
        {"devices", cmdDevices, "devices PATH... [--json|--format text|json|csv] [--limit N] [--range FROM:TO] [--rank N]",
         "per GPU / NeuronCore: total, busy, idle, compute and memcpy/DMA time"},
        {"engines", cmdEngines, "engines PATH [--json|--format text|json|csv [--table engines|dma|cores]] [--range FROM:TO] [--execution N|list] [--by engine|layer|hlo]",
         "per NeuronCore engine and DMA queue: instructions, instruction/active time, idle gaps, top opcodes, bytes, MFU"},
        {"insights", cmdInsights, "insights PATH... [--json] [--range FROM:TO] [--min-severity low|medium|high]",
         "what is slow, why and what to change: key metrics and ranked findings (docs/insights.md)"},
        {"diff", cmdDiff, "diff A B [--json] [--metric device|cpu|wall] [--fail-if-slower PCT] [--min-time NS]",
         "compare two profiles: totals, top regressions and improvements per op, kernel and engine, findings resolved / new; exit 1 past the gate"},
        {"export-sqlite", cmdExportSqlite, "export-sqlite PATH -o OUT.db [--no-cache]",
         "the loaded trace as a SQLite database for your own queries (schema: docs/sqlite-schema.md)"},
        {"export-parquet", cmdExportParquet, "export-parquet PATH -o DIR [--codec zstd|snappy|gzip|none] [--row-group-rows N] [--no-cache]",
         "the SQLite export's tables as DIR/<table>.parquet for DuckDB, pandas, Spark (docs/parquet.md)"},
        {"query", cmdQuery, "query PATH \"SQL\" [--format text|csv|json] [--file Q.sql] [--timeout SECONDS] [--max-rows N]",
         "SQL over the loaded trace: export-sqlite's tables (docs/sqlite-schema.md) read in place, read-only; a syntax error names its line and column"},
        {"cache", cmdCache, "cache --info [--json] | --clear",
         "the per-user trace cache: where it is, entries and bytes (--info), or empty it (--clear)"},
        {"screenshot", cmdScreenshot,
         "screenshot PATH -o OUT.png|OUT.svg [--range FROM:TO] [--lanes REGEX] [--width W] [--height H] [--view timeline|engines|ops]",
         "render the timeline offscreen (no display needed) to PNG or SVG; --scale 2, --caption, --dark"},
        {"stats", cmdStats, "stats PATH --name REGEX [--json] [--range FROM:TO]",
         "duration statistics per matching slice name: count, total, mean, median, p90, p99 (nearest rank), min, max, stddev, log histogram"},
        {"tree", cmdTree, "tree PATH [--range FROM:TO] [--thread TRACK|--rank N] [--merge-threads] [--weight cpu|self|device] [--min-share P] [--json|--format text|json|folded]",
         "call tree of the host threads: calls, total, self and device time launched per path of names; folded stacks for flame graphs"},
        {"collectives", cmdCollectives, "collectives PATH... [--json|--format text|json|csv] [--rank N] [--limit N]",
         "NCCL/RCCL collectives per kind, process group and size: count, total/median/max time, bytes, algbw and busbw, per rank"},
        {"memory", cmdMemory, "memory PATH [--json]",
         "device memory as neuron-profile reported it: static memory by type, HBM/SBUF/PSUM traffic, spill, MBU, usage and throughput counters"},
        {"tensors", cmdTensors, "tensors PATH [--json|--format text|json|csv] [--limit N]",
         "the NEFF's tensors: type, format, shape, size, the DMAs that moved each, load-to-SBUF count, bytes and repeat factor"},
        {"source", cmdSource, "source PATH [--range FROM:TO] [--rank N] [--root DIR]... [--file FRAMEPATH] [--limit N] [--json]",
         "Python source lines of a with_stack trace: per file (or per line of --file) calls, CPU and device time launched; files found under --root"},
        {"notes", cmdNotes, "notes PATH [--json] | --add FROM:TO TEXT | --at T TEXT | --event ID TEXT | --remove N",
         "the trace's notes (PATH.lanescope-notes.json, docs/notes.md): list, add one (--color #rrggbb), remove one"},
    };
    return all;
}

bool hasFlag(const Args &args, const std::string &flag)
{
    for (const auto &a : args)
        if (a == flag)
            return true;
    return false;
}

std::string flagValue(const Args &args, const std::string &flag, const std::string &fallback)
{
    for (size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == flag)
            return args[i + 1];
    const std::string eq = flag + "=";
    for (const auto &a : args)
        if (a.rfind(eq, 0) == 0)
            return a.substr(eq.size());
    return fallback;
}

bool takeValue(const Args &args, size_t &i, const std::string &flag, std::string &value)
{
    const std::string &a = args[i];
    if (a == flag) {
        value = i + 1 < args.size() ? args[++i] : std::string();
        return true;
    }
    if (a.rfind(flag + "=", 0) == 0) {
        value = a.substr(flag.size() + 1);
        return true;
    }
    return false;
}

std::vector<std::string> positional(const Args &args, const std::vector<std::string> &flagsWithValue)
{
    std::vector<std::string> out;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a.size() > 1 && a[0] == '-') {
            for (const auto &f : flagsWithValue)
                if (a == f) {
                    ++i;
                    break;
                }
            continue;
        }
        out.push_back(a);
    }
    return out;
}

std::vector<Annotation> notesForExport(const std::string &path, const Trace &trace)
{
    AnnotationStore notes;
    if (!notes.open(path))
        std::fprintf(stderr, "lanescope-cli: %s (the notes table stays empty)\n", notes.error().c_str());
    notes.resolve(trace);
    return notes.notes();
}

LoadResult loadTrace(const std::string &path, const Args &args, const LoadOptions &options)
{
    return loadTrace(std::vector<std::string>{path}, args, options);
}

LoadResult loadTrace(const std::vector<std::string> &paths, const Args &args, const LoadOptions &options)
{
    CacheOptions cache = CacheOptions::fromEnvironment();
    if (hasFlag(args, "--no-cache"))
        cache.enabled = false;
    CachedLoader loader(cache);
    LoadResult r = loader.load(paths, options);
    const std::string shown = paths.size() == 1 ? paths.front() : MultiRankLoader::title(paths);
    for (const auto &n : r.notices)
        std::fprintf(stderr, "lanescope-cli: %s: %s\n", shown.c_str(), n.c_str());
    return r;
}

} // namespace lanescope::cli

// --range and --format, for the commands that take them.
static void printTableFlags(std::FILE *to)
{
    std::fprintf(to, "\n  --range FROM:TO  (ops, kernels, devices, engines, tree, screenshot) time after the trace start with\n"
                     "               units ns, us (or \u00b5s), ms, s: 10ms:12.5ms, 200us:350us; an empty side is open\n"
                     "               (1.5s: to the end, :2ms from the start). Nabs is N ns on the trace clock, as `info`\n"
                     "               prints start_ns: 1700000000123456789abs:1700000000223456789abs. Deprecated: a\n"
                     "               number without a unit is trace-clock ns for the tables and engines, ms after the\n"
                     "               start for screenshot (a note on stderr says so).\n"
                     "  --format text|json|csv  (ops, kernels, devices, engines) the aligned text table (default),\n"
                     "               one JSON object (same as --json), or CSV with the JSON keys as header; engines\n"
                     "               picks its CSV table with --table engines|dma|cores.\n"
                     "  tree         --format folded: Brendan Gregg's folded stacks (frame;frame weight, ';' in a\n"
                     "               name becomes '|'), weight self ns (--weight cpu|self) or device ns launched\n"
                     "               (--weight device); --thread ID|PATH one track (ids and paths: `info`),\n"
                     "               --merge-threads one tree for all threads, --min-share P hides nodes under P %%\n"
                     "               of the root (text default 1, json 0).\n");
}

static void printUsage(std::FILE *to)
{
    std::fprintf(to, "usage: lanescope-cli COMMAND [ARGS]\n\ncommands:\n");
    for (const auto &c : lanescope::cli::commands())
        std::fprintf(to, "  %-40s %s\n", c.usage, c.summary);
    std::fprintf(to, "\n  --help       this text\n  --version    print the version\n"
                     "  --memory-budget SIZE  (any command) memory a load may use: 512M, 8G (default 16G, or\n"
                     "               $LANESCOPE_MEMORY_BUDGET); going past it is a clear error\n\n"
                     "exit status: 0 success, 1 a check failed, 2 unreadable input or usage error\n");
    printTableFlags(to);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printUsage(stderr);
        return lanescope::cli::kExitUnreadable;
    }
    const std::string cmd = argv[1];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        printUsage(stdout);
        return 0;
    }
    if (cmd == "--version" || cmd == "-V") {
        std::printf("lanescope-cli %s\n", LANESCOPE_VERSION);
        return 0;
    }
    lanescope::cli::Args args(argv + 2, argv + argc);
    // --memory-budget SIZE (any command): set through the environment, so every load sees it.
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] != "--memory-budget")
            continue;
        if (i + 1 >= args.size() || !lanescope::MemoryBudget::parse(args[i + 1])) {
            std::fprintf(stderr, "lanescope-cli: --memory-budget expects a size such as 512M or 8G\n");
            return lanescope::cli::kExitUnreadable;
        }
        ::setenv(lanescope::MemoryBudget::kEnvironmentVariable, args[i + 1].c_str(), 1);
        args.erase(args.begin() + long(i), args.begin() + long(i) + 2);
        break;
    }
    for (const auto &c : lanescope::cli::commands()) {
        if (cmd == c.name) {
            if (lanescope::cli::hasFlag(args, "--help")) {
                std::printf("usage: lanescope-cli %s\n  %s\n", c.usage, c.summary);
                if (std::strstr(c.usage, "--range"))
                    printTableFlags(stdout);
                return 0;
            }
            return c.run(args);
        }
    }
    std::fprintf(stderr, "lanescope-cli: unknown command '%s'\n\n", cmd.c_str());
    printUsage(stderr);
    return lanescope::cli::kExitUnreadable;
}
