// lanescope-cli summarize TRACE... -o DIR [--jobs N] [--parquet]: one small summary per rank trace
// (RankSummarizer, docs/job-summary.md), written as DIR/rank-R.summary.json (with --parquet also the
// same numbers as one row of DIR/rank-R.summary.parquet, RankSummaryParquet, for DuckDB / Spark), so
// the per-rank work runs where the traces are (as many at once as --jobs says, default the cores; on a cluster one array task per rank) and
// `lanescope-cli info DIR` opens the job overview from the summaries alone. A folder given as TRACE
// stands for its Kineto / Chrome traces. Each trace is loaded without the trace cache, one per worker
// (the memory budget is shared between the workers); a trace that fails fails its own summary, named
// with the reason, and the others go on; the exit status is 2 when any failed.
#include "commands.h"

#include "io/folder/profilefolder.h"
#include "io/formats.h"
#include "io/input/memorybudget.h"
#include "job/ranksummarizer.h"
#include "job/ranksummaryjson.h"
#include "job/ranksummaryparquet.h"
#include "util/durationtext.h"
#include "util/unittext.h"

#include <QDir>
#include <QFile>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

namespace lanescope::cli {

namespace {

namespace fs = std::filesystem;

// The traces to summarise: files as given, a folder's Kineto / Chrome traces (the formats table's
// framework traces), in order, each once.
std::vector<std::string> expandInputs(const std::vector<std::string> &paths, std::vector<std::string> &errors)
{
    std::vector<std::string> out;
    std::set<std::string> seen;
    const auto add = [&](const std::string &p) {
        std::error_code ec;
        const std::string key = fs::weakly_canonical(p, ec).string();
        if (seen.insert(ec ? p : key).second)
            out.push_back(p);
    };
    for (const std::string &p : paths) {
        std::error_code ec;
        if (!fs::is_directory(p, ec)) {
            add(p);
            continue;
        }
        try {
            const ProfileFolder folder = ProfileFolder::scan(p);
            size_t found = 0;
            for (const FolderFile &f : folder.files())
                if (Formats::info(f.kind).role == FolderRole::FrameworkTrace && f.status == FileOutcome::Loaded) {
                    add(f.path);
                    ++found;
                }
            if (found == 0)
                errors.push_back(p + ": no Kineto / Chrome trace in this folder");
        } catch (const std::exception &e) {
            errors.push_back(e.what());
        }
    }
    return out;
}

// "trace_rank3.pt.trace.json.gz" -> "trace_rank3.pt.trace"
std::string stem(const std::string &path)
{
    std::string name = fs::path(path).filename().string();
    for (const char *suffix : {".gz", ".zst", ".zip", ".json"})
        if (name.size() > std::strlen(suffix) && name.ends_with(suffix))
            name.resize(name.size() - std::strlen(suffix));
    return name;
}

class Writer
{
public:
    explicit Writer(std::string dir) : m_dir(std::move(dir)) {}

    // DIR/rank-R.summary.json; when this run already wrote that name, or the file there summarises
    // another trace, DIR/rank-R.<stem>.summary.json. Written whole to a hidden temporary file first.
    std::string write(const RankSummary &s, const QByteArray &bytes, std::string &error)
    {
        std::string name;
        {
            const std::lock_guard lock(m_mutex);
            name = "rank-" + std::to_string(s.rank) + ".summary.json";
            if (m_taken.count(name) || !sameTrace(m_dir + "/" + name, s))
                name = "rank-" + std::to_string(s.rank) + "." + stem(s.file.path) + ".summary.json";
            for (int n = 2; m_taken.count(name); ++n)
                name = "rank-" + std::to_string(s.rank) + "." + stem(s.file.path) + "-" + std::to_string(n) + ".summary.json";
            m_taken.insert(name);
        }
        const std::string path = m_dir + "/" + name, temporary = m_dir + "/." + name + ".part";
        QFile f(QString::fromStdString(temporary));
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size() || !f.flush()) {
            error = temporary + ": cannot write: " + f.errorString().toStdString();
            f.remove();
            return {};
        }
        f.close();
        std::error_code ec;
        fs::rename(temporary, path, ec);
        if (ec) {
            error = path + ": cannot write: " + ec.message();
            fs::remove(temporary, ec);
            return {};
        }
        return path;
    }

private:
    // No file there, or a summary of the same trace file (a rerun of the same array task).
    static bool sameTrace(const std::string &path, const RankSummary &s)
    {
        std::error_code ec;
        if (!fs::exists(path, ec))
            return true;
        const RankSummaryJson::Read old = RankSummaryJson::readFile(path);
        return old.ok() && old.summary.file.path == s.file.path;
    }

    std::string m_dir;
    std::mutex m_mutex;
    std::set<std::string> m_taken;
};

} // namespace

int cmdSummarize(const Args &args)
{
    std::string out, jobsText;
    std::vector<std::string> paths;
    bool parquet = false;
    for (size_t i = 0; i < args.size(); ++i) {
        if (takeValue(args, i, "-o", out) || takeValue(args, i, "--output", out) || takeValue(args, i, "--jobs", jobsText))
            continue;
        if (args[i] == "--parquet") {
            parquet = true;
            continue;
        }
        if (args[i].size() > 1 && args[i][0] == '-') {
            std::fprintf(stderr, "lanescope-cli summarize: unknown option %s\n", args[i].c_str());
            return kExitUnreadable;
        }
        paths.push_back(args[i]);
    }
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    char *end = nullptr;
    const long jobs = jobsText.empty() ? long(cores) : std::strtol(jobsText.c_str(), &end, 10);
    if (paths.empty() || out.empty() || jobs < 1 || jobs > 1024 || (end && *end)) {
        std::fprintf(stderr, "usage: lanescope-cli summarize TRACE... -o DIR [--jobs N] [--parquet]   (N from 1 to 1024, default the cores: %u)\n",
                     cores);
        return kExitUnreadable;
    }
    if (!QDir().mkpath(QString::fromStdString(out))) {
        std::fprintf(stderr, "lanescope-cli summarize: %s: cannot create the folder\n", out.c_str());
        return kExitUnreadable;
    }
    std::vector<std::string> failed;
    const std::vector<std::string> inputs = expandInputs(paths, failed);
    for (const std::string &e : failed)
        std::fprintf(stderr, "lanescope-cli summarize: %s\n", e.c_str());

    const size_t workers = std::min<size_t>(size_t(jobs), std::max<size_t>(1, inputs.size()));
    LoadOptions options;
    options.memoryBudget = MemoryBudget::fromEnvironment() / workers; // one trace per worker at a time
    options.jsonThreads = std::max(1u, unsigned(cores / workers));
    Writer writer(out);
    std::mutex printing;
    std::atomic<size_t> next{0}, done{0}, summarized{0};
    std::atomic<uint64_t> traceBytes{0}, summaryBytes{0};
    const auto t0 = std::chrono::steady_clock::now();
    const auto work = [&] {
        for (size_t i; (i = next++) < inputs.size();) {
            const auto start = std::chrono::steady_clock::now();
            const RankSummarizer::Outcome r = RankSummarizer::summarizeFile(inputs[i], options);
            std::string error = r.error, written;
            QByteArray bytes;
            if (r.ok()) {
                bytes = RankSummaryJson::write(r.summary);
                written = writer.write(r.summary, bytes, error);
                // The same numbers as one Parquet row beside it: rank-R.summary.parquet
                if (parquet && error.empty()) {
                    const std::string table = written.substr(0, written.size() - std::strlen(".json")) + ".parquet";
                    if (RankSummaryParquet::write(r.summary, table, &error))
                        written += " + .parquet";
                }
            }
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const std::lock_guard lock(printing);
            const size_t n = ++done;
            if (!error.empty()) {
                failed.push_back(error);
                std::fprintf(stderr, "[%zu/%zu] FAILED %s\n", n, inputs.size(), error.c_str());
                continue;
            }
            ++summarized;
            traceBytes += r.summary.file.bytes;
            summaryBytes += uint64_t(bytes.size());
            std::fprintf(stderr, "[%zu/%zu] rank %lld: %s (%s) -> %s (%s, %s of the trace), %s\n", n, inputs.size(),
                         (long long)r.summary.rank, inputs[i].c_str(), UnitText::bytes(double(r.summary.file.bytes)).c_str(),
                         written.c_str(), UnitText::bytes(double(bytes.size())).c_str(),
                         UnitText::percent(r.summary.file.bytes ? 100.0 * double(bytes.size()) / double(r.summary.file.bytes) : 0).c_str(),
                         DurationText::format(int64_t(seconds * 1e9)).c_str());
        }
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < workers; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
        t.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("summarized %zu of %zu rank traces into %s in %s (%zu at a time): %s of traces -> %s of summaries (%s)\n", summarized.load(),
                inputs.size(), out.c_str(), DurationText::format(int64_t(seconds * 1e9)).c_str(), workers,
                UnitText::bytes(double(traceBytes.load())).c_str(), UnitText::bytes(double(summaryBytes.load())).c_str(),
                UnitText::percent(traceBytes ? 100.0 * double(summaryBytes.load()) / double(traceBytes.load()) : 0).c_str());
    if (!failed.empty()) {
        std::printf("%zu failed:\n", failed.size());
        for (const std::string &f : failed)
            std::printf("  %s\n", f.c_str());
        return kExitUnreadable;
    }
    std::printf("open the job overview: lanescope-cli info %s\n", out.c_str());
    return kExitOk;
}

} // namespace lanescope::cli
