// libFuzzer harness: the rank summary reader (core/job: RankSummaryJson::read, docs/job-summary.md) and
// the job overview computed from what it reads (JobOverview::compute).
//
// A summary that does not read gives an error naming the file and a position ("at byte N" or "at
// /json/pointer"), and an empty summary. One that reads is written back, and that text reads again to
// the same text (what summarize writes, info must read); its times stay in the trace range. The job of
// that summary with a copy as another rank (the copy's collectives moved by a few ns, one dropped)
// computes without overflow or out-of-range index (ASan, UBSan), every matched member is an instance
// of the collectives, matched and unmatched add up to every instance, and every instance's start on the
// job clock stays in the trace range.
#include "fuzz_common.h"

#include "job/joboverview.h"
#include "job/ranksummaryjson.h"
#include "model/saturating.h"

#include <QByteArray>

using namespace lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const std::string file = "rank-3.summary.json";
    const RankSummaryJson::Read read = RankSummaryJson::read(bytes, file);
    if (!read.ok()) {
        LANESCOPE_FUZZ_CHECK(read.error.rfind(file + ": at ", 0) == 0);
        LANESCOPE_FUZZ_CHECK(read.summary.collectives.empty() && read.summary.steps.empty() && read.summary.rank == -1);
        return 0;
    }
    const RankSummary &s = read.summary;
    LANESCOPE_FUZZ_CHECK(s.collectives.size() == s.collectiveSteps.size());
    LANESCOPE_FUZZ_CHECK(s.startNs >= kTraceMinTime && s.endNs <= kTraceMaxTime && s.startNs <= s.endNs);
    for (const CollectiveInstance &c : s.collectives)
        LANESCOPE_FUZZ_CHECK(c.duration >= 0 && c.duration <= kTraceMaxDuration && c.rank == s.rank);
    const QByteArray written = RankSummaryJson::write(s);
    const RankSummaryJson::Read again = RankSummaryJson::read(written, file);
    if (!again.ok()) {
        std::fprintf(stderr, "%s\n", again.error.c_str());
        fuzz::violated("a summary written back does not read");
    }
    LANESCOPE_FUZZ_CHECK(RankSummaryJson::write(again.summary) == written);

    RankSummary other = s;
    other.rank = s.rank + 1;
    for (CollectiveInstance &c : other.collectives) {
        c.rank = other.rank;
        c.start = clampTraceTime(saturatingAdd(c.start, 7));
    }
    if (!other.collectives.empty() && (size & 1)) {
        other.collectives.pop_back();
        other.collectiveSteps.pop_back();
    }
    const JobOverview job = JobOverview::compute({s, other}, "job");
    LANESCOPE_FUZZ_CHECK(job.ranks.size() == 2 && job.clocks.size() == 2);
    LANESCOPE_FUZZ_CHECK(job.steps.rows.size() <= 2);
    uint64_t members = 0;
    for (const MatchedCollective &m : job.match.matched) {
        LANESCOPE_FUZZ_CHECK(m.members.size() == 2 && m.skewNs() >= 0);
        for (uint32_t i : m.members)
            LANESCOPE_FUZZ_CHECK(i < job.collectives.instances.size());
        members += m.members.size();
    }
    LANESCOPE_FUZZ_CHECK(members + job.match.unmatched == job.collectives.instances.size());
    for (const CollectiveInstance &c : job.collectives.instances)
        LANESCOPE_FUZZ_CHECK(c.start >= kTraceMinTime && c.start <= kTraceMaxTime);
    volatile size_t sink = job.findings.size() + job.stragglers().size() + job.lateRanks().size();
    (void)sink;
    return 0;
}
