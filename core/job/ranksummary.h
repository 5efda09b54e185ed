#pragma once
// One rank of a distributed job, summarised (`lanescope-cli summarize`, docs/job-summary.md): what the
// job overview needs to compute exactly what the full multi-rank load computes (the rank's clock
// inputs, its ProfilerStep# occurrences, every collective instance with its step), the rank's own
// op / kernel / device / collective tables as TableRows' JSON rows, its findings and key metrics, its
// load warnings and its metadata (rank, world size, process groups, the trace file and its
// fingerprint). A plain record: RankSummarizer fills it from a loaded trace, RankSummaryJson writes
// and reads it, JobOverview computes the job from several.
#include "analysis/collectivetable.h"
#include "analysis/insights/finding.h"
#include "analysis/ranksteptable.h"
#include "model/diagnostics.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope {

struct RankSummary
{
    static constexpr const char *kFormat = "lanescope-rank-summary";
    static constexpr int kVersion = 1;

    struct ProcessGroup // one entry of distributedInfo.pg_config
    {
        std::string name, description, backend;
        int64_t size = 0;
        std::vector<int64_t> ranks;
        bool operator==(const ProcessGroup &) const = default;
    };

    struct Table // a table's first rows as its CLI JSON (TableRows), and how many rows it had
    {
        QJsonArray rows;
        uint64_t total = 0;
    };

    // Not in the JSON: where the summary was read from (empty when made in memory).
    std::string summaryPath;

    std::string producer; // "lanescope 0.9.0"

    // The rank: RankDetection's rank and where it came from, distributedInfo's world size (-1 when
    // unknown), backend and process groups, and the distributedInfo object as written (compact JSON
    // text, empty when the trace has none).
    int64_t rank = -1;
    std::string rankSource;
    int64_t worldSize = -1;
    std::string backend;
    std::vector<ProcessGroup> processGroups;
    std::string distributedInfo;

    // The trace file: the path as given to summarize, made absolute, its base name, size on disk,
    // ContentFingerprint key ("<hash>-<bytes>") and format ("chrome-json").
    struct File
    {
        std::string path, name, fingerprint, format;
        uint64_t bytes = 0;
    } file;

    // The trace: its own clock's start / end (ns) and RankClock's inputs (baseTimeNanoseconds, first
    // ProfilerStep# start), events read and slices.
    int64_t startNs = 0, endNs = 0;
    std::optional<int64_t> baseTimeNs, firstStepNs;
    uint64_t events = 0, slices = 0;

    // Every ProfilerStep# occurrence (the op table's "ProfilerStep*" row), on the rank's own clock.
    std::vector<RankStepTable::Step> steps;
    // Every collective instance (CollectiveTable), rank set, times on the rank's own clock, slice = its
    // slice id in the rank's own trace; collectiveSteps[i] the ProfilerStep# number that launched
    // instance i (-1: none).
    std::vector<CollectiveInstance> collectives;
    std::vector<int64_t> collectiveSteps;

    // The rank's tables (TableRows' JSON keys), most time first, at most kMaxTableRows rows each.
    static constexpr size_t kMaxTableRows = 50;
    Table ops, kernels, devices, collectiveRows;

    // Insights of the rank's trace alone (InsightsJson): findings and key metrics.
    std::vector<Finding> findings;
    QJsonObject metrics;

    // The load's warnings and notes (at most kMaxWarnings) and the trace's metadata entries (values
    // cut at kMaxMetadataValue bytes).
    static constexpr size_t kMaxWarnings = 50;
    static constexpr size_t kMaxMetadataValue = 1024;
    std::vector<Warning> warnings;
    std::vector<std::pair<std::string, std::string>> metadata;
};

} // namespace lanescope
