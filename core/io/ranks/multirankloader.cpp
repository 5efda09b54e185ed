#include "multirankloader.h"

#include "io/fileimporter.h"
#include "io/folder/profilefolder.h"
#include "io/formats.h"
#include "model/tracemerger.h"
#include "rankclock.h"
#include "rankdetection.h"
#include "rankjob.h"
#include "util/runoncores.h"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

namespace lanescope {

namespace {

constexpr size_t kPeekBytes = size_t(64) << 10;
// What a rank file is when its report is written: the framework trace format RankDetection reads
// (distributedInfo in a Kineto trace).
constexpr FileFormat kRankFormat = FileFormat::ChromeJson;

// Which files can be ranks is the formats table's say (their folder role), not a format named here.
bool isFrameworkTrace(FileFormat f) { return Formats::info(f).role == FolderRole::FrameworkTrace; }

struct Loaded
{
    LoadResult result;
    RankOrigin origin;
};

// Ranks of different jobs (RankJob: world size or process groups differ) are kept apart: the job with
// the most rank files stays in `ok` (ties: the lowest rank's job), files of unknown job go with it;
// the others leave `ok` and `byRank` and are returned with their job's description.
std::map<size_t, std::string> keepOneJob(const std::vector<Loaded> &loaded, std::vector<size_t> &ok,
                                         std::map<int64_t, std::vector<size_t>> &byRank)
{
    std::vector<RankJob> jobOf(loaded.size());
    std::vector<std::pair<RankJob, size_t>> counts; // in order of the lowest rank
    for (size_t i : ok) {
        jobOf[i] = RankJob::of(*loaded[i].result.trace);
        if (!jobOf[i].known())
            continue;
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto &c) { return c.first == jobOf[i]; });
        if (it == counts.end())
            counts.emplace_back(jobOf[i], 1);
        else
            ++it->second;
    }
    std::map<size_t, std::string> others;
    if (counts.size() < 2)
        return others;
    const RankJob kept = std::max_element(counts.begin(), counts.end(), [](const auto &a, const auto &b) { return a.second < b.second; })->first;
    std::vector<size_t> stay;
    for (size_t i : ok) {
        if (!jobOf[i].known() || jobOf[i] == kept) {
            stay.push_back(i);
            continue;
        }
        others.emplace(i, jobOf[i].describe());
        std::vector<size_t> &claim = byRank[loaded[i].origin.rank];
        claim.erase(std::remove(claim.begin(), claim.end(), i), claim.end());
    }
    ok = std::move(stay);
    return others;
}

// Every file loaded, two at a time (runOnCores); progress and the budget are shared between them.
std::vector<Loaded> loadAll(const std::vector<MultiRankLoader::Input> &files, const LoadOptions &options)
{
    std::vector<Loaded> out(files.size());
    std::vector<std::atomic<int>> permille(files.size());
    std::atomic<size_t> next{0};
    const std::thread::id caller = std::this_thread::get_id();
    const size_t threads = std::min<size_t>(2, files.size());
    auto reportTotal = [&] {
        if (!options.progress || std::this_thread::get_id() != caller) // the caller's callbacks stay on its thread
            return;
        int64_t sum = 0;
        for (const auto &p : permille)
            sum += p.load(std::memory_order_relaxed);
        options.report(int(900 * sum / int64_t(1000 * files.size())));
    };
    runOnCores(threads, [&] {
        for (size_t i = next++; i < files.size(); i = next++) {
            LoadOptions sub;
            sub.cancel = options.cancel;
            sub.memoryBudget = options.memoryBudget / threads;
            sub.progress = [&, i](int p) {
                permille[i].store(std::clamp(p, 0, 1000), std::memory_order_relaxed);
                reportTotal();
            };
            out[i].result = FileImporter::load(files[i].path, sub);
            permille[i].store(1000, std::memory_order_relaxed);
            if (out[i].result.ok())
                out[i].origin = RankDetection::detect(*out[i].result.trace, files[i].rankPath.empty() ? files[i].path : files[i].rankPath);
            reportTotal();
        }
    });
    return out;
}

} // namespace

bool MultiRankLoader::isCandidate(const ProfileFolder &folder)
{
    size_t traces = 0;
    for (const FolderFile &f : folder.files()) {
        const bool loadable = Formats::info(f.kind).import &&
                              (f.status == FileOutcome::Loaded || f.status == FileOutcome::Paired || f.status == FileOutcome::Unpaired);
        if (!loadable)
            continue;
        if (!isFrameworkTrace(f.kind) || (f.distributedRank < 0 && !RankDetection::fromPath(f.relativePath).found()))
            return false;
        ++traces;
    }
    return traces >= 2;
}

Trace MultiRankLoader::loadFolder(const ProfileFolder &folder, const LoadOptions &options)
{
    std::vector<Input> inputs;
    Extras extras;
    for (const FolderFile &f : folder.files()) {
        if (isFrameworkTrace(f.kind) && f.status == FileOutcome::Loaded)
            inputs.push_back({f.path, f.relativePath, f.relativePath}); // the folder's name below the root counts, not above it
        else
            extras.reports.push_back(folder.report(f)); // the folder's other files, as the scan found them
    }
    extras.scan = &folder.diagnostics();
    std::optional<Trace> t = loadRanks(inputs, folder.root(), options, extras);
    if (!t) // isCandidate saw a rank in every file's head or name; the loaded text says the same
        throw ImportError(folder.root(), "a trace of the rank set carries no rank after loading");
    return std::move(*t);
}

std::optional<Trace> MultiRankLoader::load(const std::vector<Input> &files, const std::string &title, const LoadOptions &options)
{
    return loadRanks(files, title, options, {});
}

std::optional<Trace> MultiRankLoader::loadRanks(const std::vector<Input> &files, const std::string &title, const LoadOptions &options,
                                                const Extras &extras)
{
    options.report(0);
    std::vector<Loaded> loaded = loadAll(files, options);
    if (options.cancelled() || std::any_of(loaded.begin(), loaded.end(), [](const Loaded &l) { return l.result.cancelled; }))
        throw LoadCancelled();
    std::map<int64_t, std::vector<size_t>> byRank; // files that loaded, per rank they claim
    std::vector<size_t> ok;
    uint64_t memory = 0;
    for (size_t i = 0; i < loaded.size(); ++i) {
        if (!loaded[i].result.ok())
            continue;
        if (!loaded[i].origin.found())
            return std::nullopt; // not a rank set
        byRank[loaded[i].origin.rank].push_back(i);
        ok.push_back(i);
        memory += loaded[i].result.trace->memoryUsage();
    }
    if (ok.empty()) {
        std::string what;
        for (size_t i = 0; i < loaded.size(); ++i)
            what += "\n  " + loaded[i].result.error;
        throw ImportError(title, "none of the " + std::to_string(files.size()) + " rank traces can be read:" + what);
    }
    if (memory > options.memoryBudget)
        throw ImportError(title, "the rank traces need " + MemoryBudget::format(memory) + ", more than the memory budget of " +
                                     MemoryBudget::format(options.memoryBudget) + " (" + MemoryBudget::hint() + ")");
    std::stable_sort(ok.begin(), ok.end(), [&](size_t a, size_t b) { return loaded[a].origin.rank < loaded[b].origin.rank; });
    const std::map<size_t, std::string> otherJob = keepOneJob(loaded, ok, byRank);

    std::vector<RankClock::Input> clocks;
    for (size_t i : ok) {
        clocks.push_back(RankClock::inputOf(*loaded[i].result.trace, loaded[i].origin.rank));
    }
    const std::vector<RankClock::Placement> placed = RankClock::align(clocks);

    TraceBuilder b;
    TraceMetadata &md = b.metadata();
    md.format = "multi-rank";
    md.sourcePath = title;
    std::string rankList;
    std::set<RankClockRule> rules;
    for (size_t k = 0; k < ok.size(); ++k) {
        if (k == 0 || loaded[ok[k]].origin.rank != loaded[ok[k - 1]].origin.rank)
            rankList += (k ? " " : "") + std::to_string(loaded[ok[k]].origin.rank);
        rules.insert(placed[k].rule);
    }
    md.entries.emplace_back("ranks", rankList);
    std::string rule;
    for (RankClockRule r : rules)
        rule += (rule.empty() ? "" : " + ") + std::string(RankClock::ruleName(r));
    md.entries.emplace_back("ranks.clock", rule);

    TraceMerger merger(b);
    for (size_t k = 0; k < ok.size(); ++k) {
        const Loaded &l = loaded[ok[k]];
        const Input &in = files[ok[k]];
        const int64_t rank = l.origin.rank;
        const std::vector<size_t> &claim = byRank[rank];
        // Two files of one rank stay two groups, each named with its file; the rank filter takes both.
        const std::string label = std::to_string(rank) + (claim.size() > 1 ? " (" + in.shown + ")" : std::string());
        const GroupId top = b.addGroup(GroupKind::Rank, b.intern("Rank " + label), {}, rank);
        b.group(top).sortIndex = rank;
        MergeOptions mo;
        mo.parent = top;
        mo.timeOffsetNs = placed[k].offset;
        mo.diagnosticsPrefix = "rank " + std::to_string(rank) + " (" + in.shown + "): ";
        mo.metadataPrefix = "rank " + label + ": ";
        mo.cancel = options.cancel;
        if (merger.append(*l.result.trace, mo).cancelled)
            throw LoadCancelled();
        md.entries.emplace_back("rank." + label, in.shown + "; rank from " + l.origin.source + "; clock: " +
                                                     RankClock::ruleName(placed[k].rule) + ": " + placed[k].note);
        if (placed[k].apartNs != 0) // expected with unsynchronised hosts: said, not warned
            b.diagnostics().note("rank " + label + ": its clock was " + RankClock::distanceText(placed[k].apartNs) + " apart from rank " +
                                     std::to_string(loaded[ok[0]].origin.rank) + "'s; placed by the " + RankClock::ruleName(placed[k].rule) +
                                     " rule, shifted by " + std::to_string(placed[k].offset) + " ns",
                                 in.shown);
        if (claim.size() > 1 && claim.front() == ok[k]) {
            std::string names;
            for (size_t i : claim)
                names += (names.empty() ? "" : ", ") + files[i].shown;
            b.diagnostics().warn(std::to_string(claim.size()) + " files claim rank " + std::to_string(rank) + " (" + names +
                                     "): kept apart as groups 'Rank " + std::to_string(rank) +
                                     " (<file>)'; the rank filter and the step table count them as one rank",
                                 in.shown);
        }
        options.report(900 + int(90 * (k + 1) / ok.size()));
    }
    for (size_t i = 0; i < loaded.size(); ++i) {
        FileReport r;
        r.path = files[i].shown;
        r.kind = kRankFormat;
        const LoadResult &res = loaded[i].result;
        if (const auto other = otherJob.find(i); other != otherJob.end()) {
            r.outcome = FileOutcome::Ignored;
            r.detail = "rank " + std::to_string(loaded[i].origin.rank) + " of another job (" + other->second +
                       "): not merged with this job's ranks; open it with its own job's files";
        } else if (res.ok()) {
            r.outcome = FileOutcome::Loaded;
            r.detail = "as 'Rank " + std::to_string(loaded[i].origin.rank) + "' (rank from " + loaded[i].origin.source + "), " +
                       std::to_string(res.trace->allSlices().size()) + " slices";
        } else {
            r.outcome = FileOutcome::NotReadable;
            r.detail = res.error;
            const RankOrigin named = RankDetection::fromPath(files[i].rankPath.empty() ? files[i].path : files[i].rankPath);
            const std::string by = named.source == "folder name" ? "by its folder's name" : "by its name";
            b.diagnostics().warn("rank file not loaded" + (named.found() ? " (rank " + std::to_string(named.rank) + " " + by + ")" : std::string()) +
                                     ": " + res.error,
                                 files[i].shown);
        }
        md.files.push_back(r);
        md.entries.emplace_back("file." + r.path, r.text());
    }
    if (!otherJob.empty()) {
        std::string names;
        for (const auto &[i, job] : otherJob)
            names += (names.empty() ? "" : ", ") + files[i].shown + " (" + job + ")";
        b.diagnostics().warn("rank files of more than one job (different world sizes or process groups), kept apart: loaded the job of " +
                                 RankJob::of(*loaded[ok.front()].result.trace).describe() + " (" + std::to_string(ok.size()) +
                                 " files); not loaded: " + names,
                             title);
    }
    for (const FileReport &r : extras.reports) {
        md.files.push_back(r);
        md.entries.emplace_back("file." + r.path, r.text());
    }
    if (extras.scan)
        for (const Warning &w : extras.scan->warnings())
            b.diagnostics().warn("folder scan: " + w.message, w.firstSeen, w.count);
    Trace t = b.finish();
    options.report(1000);
    return t;
}

std::string MultiRankLoader::title(const std::vector<std::string> &paths)
{
    std::string title = paths.empty() ? std::string() : paths.front();
    if (paths.size() > 1)
        title += " and " + std::to_string(paths.size() - 1) + " more rank file" + (paths.size() > 2 ? "s" : "");
    return title;
}

LoadResult MultiRankLoader::loadFiles(const std::vector<std::string> &paths, const LoadOptions &options)
{
    const std::string name = title(paths);
    std::vector<Input> inputs;
    std::map<std::string, std::string> seen; // canonical path -> as given
    for (const std::string &p : paths) {
        std::error_code ec;
        const std::filesystem::path canonical = std::filesystem::weakly_canonical(p, ec);
        const auto [it, added] = seen.emplace(ec ? p : canonical.string(), p);
        if (!added) {
            LoadResult twice;
            twice.error = name + ": these files do not carry distinct ranks: " + p + " is given twice" +
                          (it->second != p ? " (as " + it->second + ")" : std::string());
            return twice;
        }
        inputs.push_back({p, p, {}});
    }
    LoadResult result = FileImporter::run(name, [&] {
        std::optional<Trace> t = load(inputs, name, options);
        if (!t)
            throw ImportError(name, "these files do not carry distinct ranks (distributedInfo.rank, or a rank in the file or folder name)");
        return std::move(*t);
    });
    return result;
}

bool MultiRankLoader::looksLikeRankSet(const std::vector<std::string> &paths)
{
    if (paths.size() < 2)
        return false;
    std::set<int64_t> ranks;
    for (const std::string &p : paths) {
        std::error_code ec;
        if (std::filesystem::is_directory(p, ec))
            return false;
        // The first 64 KiB of the text (gzip or plain): a Kineto trace, and where it writes distributedInfo.
        std::string head(kPeekBytes, '\0');
        if (gzFile f = gzopen(p.c_str(), "rb")) {
            const int n = gzread(f, head.data(), unsigned(head.size()));
            head.resize(n > 0 ? size_t(n) : 0);
            gzclose(f);
        } else {
            return false;
        }
        const uint64_t size = std::filesystem::file_size(p, ec);
        if (!isFrameworkTrace(Formats::sniff(head, std::max<uint64_t>(ec ? 0 : size, head.size()))))
            return false;
        int64_t r = RankDetection::fromHead(head);
        if (r < 0)
            r = RankDetection::fromPath(p).rank;
        if (r < 0 || !ranks.insert(r).second)
            return false;
    }
    return true;
}

} // namespace lanescope
