#include "jobfolder.h"

#include "ranksummaryjson.h"

#include "io/folder/profilefolder.h"
#include "io/formats.h"
#include "util/runoncores.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace lanescope {

namespace {

bool isSummary(FileFormat f) { return Formats::info(f).role == FolderRole::RankSummary; }

// What tells jobs apart: the world size and the process groups (names, sizes, ranks).
struct JobKey
{
    int64_t worldSize = -1;
    std::vector<RankSummary::ProcessGroup> groups;
    bool operator==(const JobKey &) const = default;
};

JobKey keyOf(const RankSummary &s) { return {s.worldSize, s.processGroups}; }

std::string describe(const JobKey &k)
{
    std::string d = k.worldSize >= 0 ? "world size " + std::to_string(k.worldSize) : std::string("world size unknown");
    for (const RankSummary::ProcessGroup &g : k.groups)
        d += ", process group " + (g.name.empty() ? std::string("?") : g.name) + " of " + std::to_string(g.size) + " ranks";
    return d;
}

std::string fileName(const RankSummary &s) { return std::filesystem::path(s.summaryPath).filename().string(); }

// "a.json, b.json, c.json and 5 more"
std::string listFiles(const std::vector<RankSummary *> &summaries)
{
    constexpr size_t kNamed = 4;
    std::string out;
    for (size_t i = 0; i < summaries.size() && i < kNamed; ++i)
        out += (i ? ", " : "") + fileName(*summaries[i]);
    if (summaries.size() > kNamed)
        out += " and " + std::to_string(summaries.size() - kNamed) + " more";
    return out;
}

} // namespace

bool JobFolder::isJob(const std::string &path)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec))
        return isSummary(Formats::sniffPath(path));
    try {
        const ProfileFolder folder = ProfileFolder::scan(path);
        return std::any_of(folder.files().begin(), folder.files().end(), [](const FolderFile &f) { return isSummary(f.kind); });
    } catch (const std::exception &) {
        return false;
    }
}

std::vector<JobOverview> JobFolder::split(std::vector<RankSummary> summaries, std::vector<std::string> &warnings)
{
    std::stable_sort(summaries.begin(), summaries.end(),
                     [](const RankSummary &a, const RankSummary &b) { return a.summaryPath < b.summaryPath; });
    // Jobs by key in order of first appearance; within a job, copy k of a rank goes to instance k.
    std::vector<JobKey> keys;
    std::vector<std::vector<std::vector<RankSummary>>> instances; // key -> instance -> summaries
    std::vector<std::map<int64_t, std::vector<RankSummary *>>> byRank; // key -> rank -> its summaries
    for (RankSummary &s : summaries) {
        const JobKey key = keyOf(s);
        size_t k = size_t(std::find(keys.begin(), keys.end(), key) - keys.begin());
        if (k == keys.size()) {
            keys.push_back(key);
            instances.emplace_back();
            byRank.emplace_back();
        }
        byRank[k][s.rank].push_back(&s);
    }
    // Warnings name the files while the summaries are still where byRank points.
    if (keys.size() > 1) {
        std::string what;
        for (size_t k = 0; k < keys.size(); ++k) {
            std::vector<RankSummary *> files;
            for (const auto &[rank, list] : byRank[k])
                files.insert(files.end(), list.begin(), list.end());
            std::sort(files.begin(), files.end(), [](auto *a, auto *b) { return a->summaryPath < b->summaryPath; });
            what += std::string(k ? "; " : "") + "job " + std::to_string(k + 1) + " (" + describe(keys[k]) + "): " + listFiles(files);
        }
        warnings.push_back("rank summaries of " + std::to_string(keys.size()) +
                           " jobs in one folder (different world sizes or process groups), kept apart: " + what);
    }
    for (size_t k = 0; k < keys.size(); ++k)
        for (const auto &[rank, list] : byRank[k]) {
            if (list.size() > 1)
                warnings.push_back("rank " + std::to_string(rank) + " has " + std::to_string(list.size()) + " summaries (" + listFiles(list) +
                                   "): kept apart, the first in job " + std::to_string(k + 1) + ", the others in jobs of their own");
            for (size_t copy = 0; copy < list.size(); ++copy) {
                if (instances[k].size() <= copy)
                    instances[k].emplace_back();
                instances[k][copy].push_back(std::move(*list[copy]));
            }
        }
    std::vector<JobOverview> jobs;
    for (size_t k = 0; k < keys.size(); ++k)
        for (size_t copy = 0; copy < instances[k].size(); ++copy) {
            std::string label = "job " + std::to_string(k + 1) + (copy ? " #" + std::to_string(copy + 1) : std::string()) + " (" +
                                describe(keys[k]) + ")";
            jobs.push_back(JobOverview::compute(std::move(instances[k][copy]), std::move(label)));
            const JobOverview &job = jobs.back();
            if (!job.missingRanks.empty() && copy == 0)
                warnings.push_back(job.label + ": no summary of " + std::to_string(job.missingRanks.size()) + " of its " +
                                   std::to_string(job.worldSize) + " ranks: " + JobOverview::rankList(job.missingRanks, 16));
            for (const RankSummary &s : job.ranks)
                if (job.worldSize >= 0 && s.rank >= job.worldSize)
                    warnings.push_back(fileName(s) + ": rank " + std::to_string(s.rank) + " is not below the world size " +
                                       std::to_string(job.worldSize));
        }
    return jobs;
}

JobFolder::Result JobFolder::open(const std::string &path, const LoadOptions &options)
{
    Result result;
    result.path = path;
    std::vector<std::string> files;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        try {
            const ProfileFolder folder = ProfileFolder::scan(path, options);
            for (const FolderFile &f : folder.files()) {
                if (isSummary(f.kind))
                    files.push_back(f.path);
                else if (f.kind != FileFormat::Folder && !f.path.ends_with(".summary.parquet")) // summarize --parquet's twins
                    result.otherFiles.push_back(f.relativePath);
            }
            for (const Warning &w : folder.diagnostics().warnings())
                result.warnings.push_back("folder scan: " + Diagnostics::format(w));
        } catch (const std::exception &e) {
            result.errors.push_back(e.what());
            return result;
        }
    } else {
        files.push_back(path);
    }
    std::vector<RankSummaryJson::Read> read(files.size());
    parallelFor(files.size(), 2, [&](size_t i) { read[i] = RankSummaryJson::readFile(files[i]); });
    std::vector<RankSummary> summaries;
    for (size_t i = 0; i < read.size(); ++i) {
        if (!read[i].ok()) {
            result.errors.push_back(read[i].error);
            continue;
        }
        ++result.summaries;
        result.summaryBytes += std::filesystem::file_size(files[i], ec);
        summaries.push_back(std::move(read[i].summary));
    }
    if (files.empty())
        result.errors.push_back(path + ": no rank summaries here (lanescope-cli summarize writes them)");
    result.jobs = split(std::move(summaries), result.warnings);
    return result;
}

JobFolder::TraceLocation JobFolder::locateTrace(const RankSummary &s)
{
    TraceLocation where;
    namespace fs = std::filesystem;
    const fs::path summaryDir = fs::path(s.summaryPath).parent_path();
    std::vector<fs::path> candidates{fs::path(s.file.path)};
    if (!s.file.name.empty() && s.file.name.find('/') == std::string::npos) {
        candidates.push_back(summaryDir / s.file.name);
        candidates.push_back(summaryDir.parent_path() / s.file.name);
    }
    for (const fs::path &p : candidates) {
        const std::string text = p.lexically_normal().string();
        if (text.empty() || std::find(where.tried.begin(), where.tried.end(), text) != where.tried.end())
            continue;
        where.tried.push_back(text);
        std::error_code ec;
        if (fs::is_regular_file(p, ec) && fs::file_size(p, ec) == s.file.bytes && !ec) {
            where.found = text;
            break;
        }
    }
    return where;
}

} // namespace lanescope
