#include "multirankloader.h"

#include "formats.h"
#include "model/tracemerger.h"
#include "profilefolder.h"
#include "rankclock.h"
#include "rankdetection.h"
#include "traceloader.h"
#include "util/runoncores.h"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <set>
#include <thread>
#include <unordered_map>

namespace lanescope {

namespace {

constexpr size_t kPeekBytes = size_t(64) << 10;

struct Loaded
{
    LoadResult result;
    RankOrigin origin;
};

std::optional<int64_t> firstStep(const Trace &t)
{
    std::unordered_map<uint32_t, bool> isStep;
    std::optional<int64_t> first;
    for (const Slice &s : t.allSlices()) {
        auto [it, added] = isStep.try_emplace(s.name.value, false);
        if (added)
            it->second = t.str(s.name).starts_with("ProfilerStep#");
        if (it->second && (!first || s.start < *first))
            first = s.start;
    }
    return first;
}

std::optional<int64_t> baseTime(const Trace &t)
{
    const std::string *b = t.metadata().find("baseTimeNanoseconds");
    if (!b)
        return std::nullopt;
    try {
        size_t used = 0;
        const long long v = std::stoll(*b, &used);
        return used == b->size() ? std::optional<int64_t>(v) : std::nullopt;
    } catch (const std::exception &) {
        return std::nullopt;
    }
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
            out[i].result = TraceLoader::load(files[i].path, sub);
            permille[i].store(1000, std::memory_order_relaxed);
            if (out[i].result.ok())
                out[i].origin = RankDetection::detect(*out[i].result.trace, files[i].path);
            reportTotal();
        }
    });
    return out;
}

} // namespace

bool MultiRankLoader::isCandidate(const ProfileFolder &folder)
{
    size_t traces = 0;
    std::set<int64_t> named;
    for (const FolderFile &f : folder.files()) {
        const bool loadable = Formats::info(f.kind).import &&
                              (f.status == FileOutcome::Loaded || f.status == FileOutcome::Paired || f.status == FileOutcome::Unpaired);
        if (!loadable)
            continue;
        if (f.kind != FileFormat::ChromeJson)
            return false;
        ++traces;
        if (const int64_t r = RankDetection::fromFileName(f.relativePath); r >= 0 && !named.insert(r).second)
            return false;
    }
    return traces >= 2;
}

std::optional<Trace> MultiRankLoader::loadFolder(const ProfileFolder &folder, const LoadOptions &options)
{
    std::vector<Input> inputs;
    Extras extras;
    for (const FolderFile &f : folder.files()) {
        if (f.kind == FileFormat::ChromeJson && f.status == FileOutcome::Loaded)
            inputs.push_back({f.path, f.relativePath});
        else
            extras.reports.push_back(folder.report(f)); // the folder's other files, as the scan found them
    }
    extras.scan = &folder.diagnostics();
    return loadRanks(inputs, folder.root(), options, extras);
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
    std::set<int64_t> ranks;
    std::vector<size_t> ok;
    uint64_t memory = 0;
    for (size_t i = 0; i < loaded.size(); ++i) {
        if (!loaded[i].result.ok())
            continue;
        if (!loaded[i].origin.found() || !ranks.insert(loaded[i].origin.rank).second)
            return std::nullopt; // not a rank set
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
    std::sort(ok.begin(), ok.end(), [&](size_t a, size_t b) { return loaded[a].origin.rank < loaded[b].origin.rank; });

    std::vector<RankClock::Input> clocks;
    for (size_t i : ok) {
        const Trace &t = *loaded[i].result.trace;
        clocks.push_back({loaded[i].origin.rank, baseTime(t), firstStep(t), t.startNs()});
    }
    const std::vector<RankClock::Placement> placed = RankClock::align(clocks);

    TraceBuilder b;
    TraceMetadata &md = b.metadata();
    md.format = "multi-rank";
    md.sourcePath = title;
    std::string rankList;
    std::set<RankClockRule> rules;
    for (size_t k = 0; k < ok.size(); ++k) {
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
        const std::string name = "Rank " + std::to_string(rank);
        const GroupId top = b.addGroup(GroupKind::Rank, b.intern(name), {}, rank);
        b.group(top).sortIndex = rank;
        MergeOptions mo;
        mo.parent = top;
        mo.timeOffsetNs = placed[k].offset;
        mo.diagnosticsPrefix = "rank " + std::to_string(rank) + " (" + in.shown + "): ";
        mo.metadataPrefix = "rank " + std::to_string(rank) + ": ";
        mo.cancel = options.cancel;
        if (merger.append(*l.result.trace, mo).cancelled)
            throw LoadCancelled();
        md.entries.emplace_back("rank." + std::to_string(rank), in.shown + "; rank from " + l.origin.source + "; clock: " +
                                                                     RankClock::ruleName(placed[k].rule) + ": " + placed[k].note);
        options.report(900 + int(90 * (k + 1) / ok.size()));
    }
    for (size_t i = 0; i < loaded.size(); ++i) {
        FileReport r;
        r.path = files[i].shown;
        r.kind = FileFormat::ChromeJson;
        const LoadResult &res = loaded[i].result;
        if (res.ok()) {
            r.outcome = FileOutcome::Loaded;
            r.detail = "as 'Rank " + std::to_string(loaded[i].origin.rank) + "' (rank from " + loaded[i].origin.source + "), " +
                       std::to_string(res.trace->allSlices().size()) + " slices";
        } else {
            r.outcome = FileOutcome::NotReadable;
            r.detail = res.error;
            const int64_t named = RankDetection::fromFileName(files[i].path);
            b.diagnostics().warn("rank file not loaded" + (named >= 0 ? " (rank " + std::to_string(named) + " by its name)" : std::string()) +
                                     ": " + res.error,
                                 files[i].shown);
        }
        md.files.push_back(r);
        md.entries.emplace_back("file." + r.path, r.text());
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

LoadResult MultiRankLoader::loadFiles(const std::vector<std::string> &paths, const LoadOptions &options)
{
    LoadResult result;
    std::vector<Input> inputs;
    for (const std::string &p : paths)
        inputs.push_back({p, p});
    std::string title = paths.empty() ? std::string() : paths.front();
    if (paths.size() > 1)
        title += " and " + std::to_string(paths.size() - 1) + " more rank file" + (paths.size() > 2 ? "s" : "");
    try {
        std::optional<Trace> t = load(inputs, title, options);
        if (t)
            result.trace = std::make_shared<const Trace>(std::move(*t));
        else
            result.error = title + ": these files do not carry distinct ranks (distributedInfo.rank or a rank in the file name)";
    } catch (const LoadCancelled &) {
        result.cancelled = true;
        result.error = title + ": load cancelled";
    } catch (const ImportError &e) {
        result.error = e.what();
    } catch (const std::bad_alloc &) {
        result.error = title + ": out of memory while loading";
    }
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
        if (Formats::sniff(std::string_view(head).substr(0, 4096), std::max<uint64_t>(ec ? 0 : size, head.size())) != FileFormat::ChromeJson)
            return false;
        int64_t r = RankDetection::fromFileName(p);
        if (r < 0) {
            const size_t key = head.find("\"distributedInfo\"");
            const size_t open = key == std::string::npos ? key : head.find('{', key);
            size_t close = std::string::npos;
            for (size_t at = open, depth = 0; at < head.size() && close == std::string::npos; ++at) // nested pg_config objects
                if (head[at] == '{')
                    ++depth;
                else if (head[at] == '}' && --depth == 0)
                    close = at;
            if (close != std::string::npos)
                r = RankDetection::fromDistributedInfo(std::string_view(head).substr(open, close - open + 1));
        }
        if (r < 0 || !ranks.insert(r).second)
            return false;
    }
    return true;
}

} // namespace lanescope
