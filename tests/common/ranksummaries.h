#pragma once
// Hand-built rank summaries for the job overview tests (no trace needed): a rank of a job of N ranks with
// steps of a given length and one allreduce in the middle of each step, distributedInfo as PyTorch writes
// it, written to a folder as `lanescope-cli summarize` writes them.
#include "filebytes.h"

#include "job/ranksummaryjson.h"

#include <QTemporaryDir>

#include <string>

namespace lanescope::test {

// A rank of a job of `worldSize` ranks with steps of `stepNs` and one allreduce per step.
inline RankSummary summaryOfRank(int64_t r, int64_t worldSize, int64_t stepNs = 1'000'000, const std::string &trace = {})
{
    RankSummary s;
    s.rank = r;
    s.rankSource = "distributedInfo.rank";
    // distributedInfo as PyTorch writes it: the summary keeps it whole, world size and groups come from it
    std::string ranks;
    for (int64_t i = 0; i < worldSize; ++i)
        ranks += (i ? "," : "") + std::to_string(i);
    s.distributedInfo = R"({"backend":"nccl","rank":)" + std::to_string(r) + R"(,"world_size":)" + std::to_string(worldSize) +
                        R"(,"pg_config":[{"pg_name":"0","pg_desc":"default_pg","backend_config":"cuda:nccl","pg_size":)" +
                        std::to_string(worldSize) + R"(,"ranks":[)" + ranks + "]}]}";
    s.file.path = trace.empty() ? "/nowhere/rank" + std::to_string(r) + ".json" : trace;
    s.file.name = "rank" + std::to_string(r) + ".json";
    s.file.bytes = 10;
    s.file.format = "chrome-json";
    s.baseTimeNs = 1'000'000'000;
    s.startNs = 0;
    s.endNs = 4 * stepNs;
    s.firstStepNs = 0;
    for (int i = 0; i < 3; ++i) {
        s.steps.push_back({uint32_t(i), "ProfilerStep#" + std::to_string(i), i * stepNs, stepNs});
        CollectiveInstance c;
        c.rank = r;
        c.kind = "allreduce";
        c.processGroup = "0";
        c.dtype = "Float";
        c.groupSize = worldSize;
        c.bytes = 4096;
        c.start = i * stepNs + stepNs / 2;
        c.duration = 1000;
        c.slice = SliceId(uint32_t(100 + i));
        s.collectives.push_back(c);
        s.collectiveSteps.push_back(i);
    }
    Finding f; // one finding of the rank's own, as insights gives them
    f.rule = "low-overlap";
    f.severity = r == 1 ? Severity::High : Severity::Low;
    f.title = "Rank " + std::to_string(r) + ": only 10 % of its communication is hidden behind computation";
    f.detail = "detail";
    f.action = "action";
    f.recoverableNs = 1000;
    s.findings = {f};
    return s;
}

inline bool writeSummary(const QTemporaryDir &dir, const QString &name, const RankSummary &s)
{
    return !writeFileIn(dir, name, RankSummaryJson::write(s)).isEmpty();
}

} // namespace lanescope::test
