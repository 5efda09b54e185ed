// MultiRankLoader: rank sets written from a real corpus trace (the same Kineto trace as N ranks, with
// distributedInfo, clocks shifted by hours, one rank slowed), loaded as a folder and as files given
// together; the op, kernel and device tables per rank equal those of the single file; a truncated
// rank file; baseTimeNanoseconds; clocks hours apart (a note); ranks from folder names; two files of one
// rank; the corpus's own distributedInfo pair (HTA's sampled ranks 0 and 1).
#include "compress.h"
#include "corpus.h"
#include "filebytes.h"
#include "loadtrace.h"

#include "analysis/devicesummary.h"
#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "analysis/rankfilter.h"
#include "analysis/ranksteptable.h"
#include "io/folder/profilefolder.h"
#include "io/input/inputbuffer.h"
#include "io/ranks/multirankloader.h"
#include "io/traceloader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <optional>

using namespace lanescope;
using lanescope::test::corpusFile;

namespace {

const QString kSource = QStringLiteral("hta/negative_queue_length_values_check__rank0.json.gz"); // distributedInfo rank 0, 5 steps
constexpr int64_t kHourUs = int64_t(3600) * 1000000;

struct Variant
{
    int64_t rank = 0;
    int64_t shiftUs = 0;              // added to every ts
    int64_t num = 1, den = 1;         // ts (from the first one) and dur scaled by num / den: a slowed rank
    std::optional<int64_t> baseNs;    // baseTimeNanoseconds written at the top
};

std::string us3(int64_t ns) // microseconds with three decimals, as Kineto writes sub-µs times
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
    return buf;
}

// The same trace as another rank: every "ts" and "dur" rewritten in the text, distributedInfo's rank
// replaced, baseTimeNanoseconds added; the rest byte for byte.
std::string rankVariant(const std::string &text, const Variant &v)
{
    int64_t first = INT64_MAX;
    for (size_t at = text.find("\"ts\": "); at != std::string::npos; at = text.find("\"ts\": ", at + 1))
        first = std::min<int64_t>(first, std::strtoll(text.c_str() + at + 6, nullptr, 10));
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    size_t copied = 0;
    for (size_t at = 0; at < text.size();) {
        const bool ts = text.compare(at, 6, "\"ts\": ") == 0, dur = !ts && text.compare(at, 7, "\"dur\": ") == 0;
        if (!ts && !dur) {
            at = text.find('"', at + 1);
            if (at == std::string::npos)
                break;
            continue;
        }
        const size_t numAt = at + (ts ? 6 : 7);
        char *end = nullptr;
        const int64_t value = std::strtoll(text.c_str() + numAt, &end, 10);
        out.append(text, copied, numAt - copied);
        const int64_t ns = ts ? (value - first) * 1000 * v.num / v.den + (first + v.shiftUs) * 1000 : value * 1000 * v.num / v.den;
        out += us3(ns);
        copied = at = size_t(end - text.c_str());
    }
    out.append(text, copied, std::string::npos);
    const size_t info = out.find("\"distributedInfo\"");
    const size_t rankAt = out.find("\"rank\": ", info);
    const size_t rankEnd = out.find_first_not_of("0123456789", rankAt + 8);
    out.replace(rankAt + 8, rankEnd - rankAt - 8, std::to_string(v.rank));
    if (v.baseNs)
        out.insert(out.find('{') + 1, "\n  \"baseTimeNanoseconds\": " + std::to_string(*v.baseNs) + ",");
    return out;
}

// The same text without its distributedInfo object: the rank then comes from the file or folder name.
std::string withoutDistributedInfo(std::string json)
{
    const size_t key = json.find("\"distributedInfo\"");
    json.erase(key, json.find('}', key) + 2 - key);
    return json;
}

const Warning *findDiagnostic(const Trace &t, const std::string &text)
{
    for (const Warning &w : t.diagnostics().warnings())
        if (w.message.find(text) != std::string::npos)
            return &w;
    return nullptr;
}

std::string sourceText()
{
    return std::string(InputBuffer::read(corpusFile(kSource).toStdString(), {}).view());
}

int64_t firstStepOfRank(const Trace &t, int64_t rank)
{
    int64_t first = INT64_MAX;
    const RankFilter f(t, rank);
    for (uint32_t i = 0; i < t.allSlices().size(); ++i)
        if (t.str(t.allSlices()[i].name).starts_with("ProfilerStep#") && f.accepts(SliceId(i)))
            first = std::min(first, t.allSlices()[i].start);
    return first;
}

const std::string &meta(const Trace &t, const std::string &key)
{
    static const std::string none;
    const std::string *v = t.metadata().find(key);
    return v ? *v : none;
}

} // namespace

class TestMultiRankLoader : public QObject
{
    Q_OBJECT

private slots:
    // Four ranks of one trace: rank 1 two hours ahead, rank 2 five hours behind, rank 3 30 s ahead and
    // 1.3 x slower, no baseTimeNanoseconds: every rank's first step lands on rank 0's, and the tables of
    // each rank equal those of the single file (rank 3's durations 1.3 x).
    void folderOfFourRanks()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kSource);
        const std::string text = sourceText();
        QTemporaryDir dir;
        const std::vector<Variant> variants = {{0, 0}, {1, 2 * kHourUs}, {2, -5 * kHourUs}, {3, 30000000, 13, 10}};
        for (const Variant &v : variants) {
            const std::string json = rankVariant(text, v);
            // Named without a rank on purpose (distributedInfo says it); rank 2 gzip-compressed.
            const QString name = dir.filePath(QStringLiteral("worker%1.pt.trace.json").arg(v.rank * 7));
            QVERIFY(v.rank == 2 ? test::writeFile(name + QStringLiteral(".gz"), test::gzipOf(json)) : test::writeFile(name, json));
        }
        const auto single = test::load(corpusFile(kSource));
        const auto t = test::load(dir.path());
        QVERIFY(single && t);
        QCOMPARE(t->metadata().format, std::string("multi-rank"));
        QCOMPARE(meta(*t, "ranks"), std::string("0 1 2 3"));
        QCOMPARE(meta(*t, "ranks.clock"), std::string("first ProfilerStep#"));
        QCOMPARE(RankFilter::ranks(*t), (std::vector<int64_t>{0, 1, 2, 3}));
        std::vector<std::string> names;
        for (const TrackGroup &g : t->groups())
            if (g.kind == GroupKind::Rank)
                names.emplace_back(t->str(g.name));
        QCOMPARE(names, (std::vector<std::string>{"Rank 0", "Rank 1", "Rank 2", "Rank 3"}));
        QVERIFY2(meta(*t, "rank.2").find("5.0 h apart") != std::string::npos, meta(*t, "rank.2").c_str());
        // Clocks hours apart are a note (expected, said), naming the rule and the offset; 30 s is not.
        const Warning *far = findDiagnostic(*t, "rank 2: its clock was 5.0 h apart from rank 0's; placed by the first ProfilerStep# rule, shifted by ");
        QVERIFY(far && far->isNote());
        QCOMPARE(far->firstSeen, std::string("worker14.pt.trace.json.gz"));
        QVERIFY(far->message.ends_with(" " + std::to_string(5 * kHourUs * 1000) + " ns"));
        QVERIFY(findDiagnostic(*t, "rank 1: its clock was 2.0 h apart") && !findDiagnostic(*t, "rank 3: its clock"));
        size_t clockNotes = 0;
        for (const Warning &w : t->diagnostics().warnings())
            clockNotes += w.isNote() && w.message.find(": its clock was ") != std::string::npos;
        QCOMPARE(clockNotes, size_t(2));
        QVERIFY(meta(*t, "rank.1").find("rank from distributedInfo.rank") != std::string::npos);
        // The file's own diagnostics, once per rank, prefixed with the rank and its file, keeping their
        // severity (Kineto's unmatched ac2g ends are a note; this file has no warning).
        QVERIFY(!single->diagnostics().hasWarnings());
        QVERIFY(!t->diagnostics().hasWarnings());
        const Warning &own = single->diagnostics().warnings().front();
        QVERIFY2(own.isNote() && own.message.starts_with("Kineto flow ends without a start"), own.message.c_str());
        size_t prefixed = 0;
        for (const Warning &w : t->diagnostics().warnings())
            prefixed += w.isNote() && w.message.starts_with("rank ") && w.message.ends_with("): " + own.message) && w.count == own.count;
        QCOMPARE(prefixed, size_t(4));
        const int64_t anchor = firstStepOfRank(*single, -1);
        for (int64_t r = 0; r < 4; ++r)
            QCOMPARE(firstStepOfRank(*t, r), anchor);
        QCOMPARE(t->allSlices().size(), single->allSlices().size() * 4);

        const LaunchIndex ix = LaunchIndex::build(*t), six = LaunchIndex::build(*single);
        const OpTable::Result base = OpTable::compute(*single, six, {});
        for (int64_t r = 0; r < 3; ++r) {
            OpTable::Options o;
            o.rank = r;
            const OpTable::Result rows = OpTable::compute(*t, ix, o);
            QCOMPARE(rows.rows.size(), base.rows.size());
            QCOMPARE(rows.cpuSelfTotal, base.cpuSelfTotal);
            QCOMPARE(rows.deviceTime, base.deviceTime);
            QCOMPARE(rows.rows.front().name, base.rows.front().name);
            QCOMPARE(rows.rows.front().deviceTotal, base.rows.front().deviceTotal);
            KernelTable::Options k;
            k.rank = r;
            QCOMPARE(KernelTable::compute(*t, ix, k).executionTime, KernelTable::compute(*single, six, {}).executionTime);
            DeviceSummary::Options d;
            d.rank = r;
            const auto devices = DeviceSummary::compute(*t, ix, d);
            const auto one = DeviceSummary::compute(*single, six, {});
            QCOMPARE(devices.size(), one.size());
            QCOMPARE(devices.front().device, "Rank " + std::to_string(r) + " · " + one.front().device);
            QCOMPARE(devices.front().busy, one.front().busy);
        }
        OpTable::Options slow;
        slow.rank = 3;
        QCOMPARE(OpTable::compute(*t, ix, slow).deviceTime, base.deviceTime * 13 / 10);
        QCOMPARE(OpTable::compute(*t, ix, {}).rows.front().calls, base.rows.front().calls * 4);

        // The step table: ranks 0-2 at the single file's median, rank 3 at 1.3 x it, a straggler.
        const auto stepRow = std::find_if(base.rows.begin(), base.rows.end(), [](const OpTable::Row &r) { return r.name == "ProfilerStep*"; });
        QVERIFY(stepRow != base.rows.end());
        std::vector<int64_t> d;
        for (uint32_t s : stepRow->occurrences)
            d.push_back(single->slice(SliceId(s)).duration);
        std::sort(d.begin(), d.end());
        const int64_t median = d[(d.size() - 1) / 2];
        const RankStepTable::Result steps = RankStepTable::compute(*t, ix, {});
        QCOMPARE(steps.rows.size(), size_t(4));
        QCOMPARE(steps.medianOfRanks, median);
        for (const RankStepTable::Row &row : steps.rows) {
            QCOMPARE(row.steps, uint64_t(d.size()));
            QCOMPARE(row.median, row.rank == 3 ? median * 13 / 10 : median);
            QCOMPARE(row.slowest, row.rank == 3 ? d.back() * 13 / 10 : d.back());
            QCOMPARE(row.straggler, row.rank == 3);
        }
        QCOMPARE(steps.rows[3].ratio, double(median * 13 / 10) / double(median));
    }

    // Files given together (the CLI's `info a b c`, the GUI's `lanescope a b c`): ranks from the file
    // names; two files of one rank are not a rank set.
    void filesGivenTogether()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kSource);
        const std::string text = sourceText();
        QTemporaryDir dir;
        std::vector<std::string> paths;
        for (int64_t r = 0; r < 2; ++r) {
            std::string json = rankVariant(text, {0, r * 1000}); // both say rank 0 inside: the name decides
            json.erase(json.find("\"distributedInfo\""), json.find('}', json.find("\"distributedInfo\"")) + 2 - json.find("\"distributedInfo\""));
            paths.push_back(dir.filePath(QStringLiteral("trace_rank-%1.json").arg(r + 4)).toStdString());
            QVERIFY(test::writeFile(QString::fromStdString(paths.back()), json));
        }
        QVERIFY(MultiRankLoader::looksLikeRankSet(paths));
        const LoadResult r = MultiRankLoader::loadFiles(paths);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(meta(*r.trace, "ranks"), std::string("4 5"));
        QVERIFY(meta(*r.trace, "rank.5").find("rank from file name") != std::string::npos);
        QCOMPARE(r.trace->metadata().files.size(), size_t(2));

        const std::vector<std::string> same = {paths[0], paths[0]};
        QVERIFY(!MultiRankLoader::looksLikeRankSet(same));
        const LoadResult twice = MultiRankLoader::loadFiles(same);
        QVERIFY(!twice.ok());
        QVERIFY2(twice.error.find("do not carry distinct ranks") != std::string::npos, twice.error.c_str());
    }

    // baseTimeNanoseconds on every rank: the ranks keep their real skew (7 ms here); bases five hours
    // apart are not believed: that rank goes to the first-step rule, with a note.
    void baseTimeClock()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kSource);
        const std::string text = sourceText();
        const int64_t b = 1683500000000000000;
        QTemporaryDir dir;
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("rank0.json")), rankVariant(text, {0, 0, 1, 1, b})));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("rank1.json")), rankVariant(text, {1, 0, 1, 1, b + 7000000})));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("rank2.json")), rankVariant(text, {2, 0, 1, 1, b + 5 * kHourUs * 1000})));
        const auto t = test::load(dir.path());
        QVERIFY(t);
        QCOMPARE(meta(*t, "ranks.clock"), std::string("baseTimeNanoseconds + first ProfilerStep#"));
        QCOMPARE(firstStepOfRank(*t, 1) - firstStepOfRank(*t, 0), int64_t(7000000));
        QCOMPARE(firstStepOfRank(*t, 2), firstStepOfRank(*t, 0));
        QVERIFY2(meta(*t, "rank.2").find("baseTimeNanoseconds would put it 5.0 h from rank 0") != std::string::npos, meta(*t, "rank.2").c_str());
        const Warning *far = findDiagnostic(*t, "rank 2: its clock was 5.0 h apart from rank 0's; placed by the first ProfilerStep# rule, shifted by 0 ns");
        QVERIFY(far && far->isNote());
        QVERIFY(!findDiagnostic(*t, "rank 1: its clock")); // 7 ms: the bases are believed
        QVERIFY(meta(*t, "rank.1").find("clock: baseTimeNanoseconds") != std::string::npos);
    }

    // A rank file whose gzip stream is damaged in the middle: the others load, the file is listed as not
    // readable with its name and byte offset, and a warning says so. (A rank file merely cut short
    // loads what is complete, with a warning: docs/diagnostics.md.)
    void truncatedRankFile()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kSource);
        const std::string text = sourceText();
        QTemporaryDir dir;
        for (int64_t r = 0; r < 3; ++r) {
            const std::string gz = test::gzipOf(rankVariant(text, {r, r * 1000}));
            std::string damaged = gz;
            for (size_t i = gz.size() / 2; i < gz.size() / 2 + 64; ++i)
                damaged[i] = char(damaged[i] ^ 0x5a);
            QVERIFY(test::writeFile(dir.filePath(QStringLiteral("trace_rank_%1.json.gz").arg(r)), r == 1 ? damaged : gz));
        }
        const auto t = test::load(dir.path());
        QVERIFY(t);
        QCOMPARE(meta(*t, "ranks"), std::string("0 2"));
        const auto bad = std::find_if(t->metadata().files.begin(), t->metadata().files.end(),
                                      [](const FileReport &f) { return f.outcome == FileOutcome::NotReadable; });
        QVERIFY(bad != t->metadata().files.end());
        QCOMPARE(bad->path, std::string("trace_rank_1.json.gz"));
        QVERIFY2(bad->detail.find("trace_rank_1.json.gz") != std::string::npos && bad->detail.find("byte") != std::string::npos,
                 bad->detail.c_str());
        bool warned = false;
        for (const Warning &w : t->diagnostics().warnings())
            warned = warned || w.message.find("rank file not loaded (rank 1 by its name)") != std::string::npos;
        QVERIFY(warned);
        const Warning *w = findDiagnostic(*t, "rank file not loaded (rank 1 by its name): ");
        QVERIFY(w && !w->isNote());
        QVERIFY2(w->message.find("trace_rank_1.json.gz: at byte ") != std::string::npos, w->message.c_str());
        QCOMPARE(w->firstSeen, std::string("trace_rank_1.json.gz"));
    }

    // The corpus's real pair: HTA's sampled ranks 0 and 1 of a 128-rank job (distributedInfo, no base):
    // rank 1 alone equals the file alone.
    void corpusDistributedInfo()
    {
        const QString a = QStringLiteral("hta/trace_filter__sampled_rank-0.json.gz"), b = QStringLiteral("hta/trace_filter__sampled_rank-1.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(a);
        LANESCOPE_REQUIRE_CORPUS_FILE(b);
        const LoadResult r = MultiRankLoader::loadFiles({corpusFile(a).toStdString(), corpusFile(b).toStdString()});
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(MultiRankLoader::looksLikeRankSet({corpusFile(a).toStdString(), corpusFile(b).toStdString()}));
        QCOMPARE(meta(*r.trace, "ranks"), std::string("0 1"));
        const auto one = test::load(corpusFile(b));
        QVERIFY(one);
        const LaunchIndex ix = LaunchIndex::build(*r.trace), oix = LaunchIndex::build(*one);
        OpTable::Options o;
        o.rank = 1;
        const OpTable::Result mine = OpTable::compute(*r.trace, ix, o), alone = OpTable::compute(*one, oix, {});
        QCOMPARE(mine.rows.size(), alone.rows.size());
        QCOMPARE(mine.deviceTime, alone.deviceTime);
        QCOMPARE(mine.cpuSelfTotal, alone.cpuSelfTotal);
        const RankStepTable::Result steps = RankStepTable::compute(*r.trace, ix, {});
        QCOMPARE(steps.rows.size(), size_t(2));
        QCOMPARE(steps.rows[1].steps, uint64_t(2));
        QVERIFY(!steps.rows[0].straggler && !steps.rows[1].straggler);
    }

    // The rank from the folder holding each trace (rank_0/, rank-1/, node_rank2/ as launchers write
    // them), decided from the folder scan alone; one trace without any rank makes it a profile folder.
    void rankSubfolders()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kSource);
        const std::string text = sourceText();
        QTemporaryDir dir;
        const QStringList folders = {QStringLiteral("rank_0"), QStringLiteral("rank-1"), QStringLiteral("node_rank2")};
        for (int r = 0; r < 3; ++r) {
            QVERIFY(QDir(dir.path()).mkpath(folders[r]));
            const std::string json = withoutDistributedInfo(rankVariant(text, {0, r * 2000, r == 2 ? 3 : 1, r == 2 ? 2 : 1}));
            const QString name = dir.filePath(folders[r] + QStringLiteral("/host.pt.trace.json"));
            QVERIFY(r == 1 ? test::writeFile(name + QStringLiteral(".gz"), test::gzipOf(json)) : test::writeFile(name, json));
        }
        QVERIFY(MultiRankLoader::isCandidate(ProfileFolder::scan(dir.path().toStdString())));
        const auto t = test::load(dir.path());
        QVERIFY(t);
        QCOMPARE(t->metadata().format, std::string("multi-rank"));
        QCOMPARE(meta(*t, "ranks"), std::string("0 1 2"));
        QVERIFY2(meta(*t, "rank.1").starts_with("rank-1/host.pt.trace.json.gz; rank from folder name"), meta(*t, "rank.1").c_str());
        const auto single = test::load(corpusFile(kSource));
        QVERIFY(single);
        QCOMPARE(t->allSlices().size(), single->allSlices().size() * 3);
        const LaunchIndex ix = LaunchIndex::build(*t);
        const RankStepTable::Result steps = RankStepTable::compute(*t, ix, {});
        QCOMPARE(steps.rows.size(), size_t(3));
        QVERIFY(steps.rows[2].straggler && !steps.rows[0].straggler && !steps.rows[1].straggler); // 1.5 x slower
        QCOMPARE(steps.rows[2].median, steps.rows[0].median * 3 / 2);

        // A fourth trace with no rank anywhere: not a rank set, an ordinary profile folder (one load).
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("extra")));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("extra/host.pt.trace.json")), withoutDistributedInfo(text)));
        QVERIFY(!MultiRankLoader::isCandidate(ProfileFolder::scan(dir.path().toStdString())));
        const auto folder = test::load(dir.path());
        QVERIFY(folder);
        QCOMPARE(folder->metadata().format, std::string("profile-folder"));
    }

    // Two files claiming one rank (a re-run copied beside the first): both load, kept apart in two
    // groups named with their files, one warning says so; the rank filter takes both.
    void twoFilesOfOneRank()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kSource);
        const std::string text = sourceText();
        QTemporaryDir dir;
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("worker_a.json")), rankVariant(text, {0, 0})));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("worker_b.json")), rankVariant(text, {1, 1000})));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("worker_c.json.gz")), test::gzipOf(rankVariant(text, {1, 5000}))));
        const auto t = test::load(dir.path());
        QVERIFY(t);
        QCOMPARE(t->metadata().format, std::string("multi-rank"));
        QCOMPARE(meta(*t, "ranks"), std::string("0 1"));
        std::vector<std::string> names;
        for (const TrackGroup &g : t->groups())
            if (g.kind == GroupKind::Rank)
                names.emplace_back(t->str(g.name));
        QCOMPARE(names, (std::vector<std::string>{"Rank 0", "Rank 1 (worker_b.json)", "Rank 1 (worker_c.json.gz)"}));
        const Warning *w = findDiagnostic(*t, "2 files claim rank 1 (worker_b.json, worker_c.json.gz): kept apart");
        QVERIFY(w && !w->isNote());
        QCOMPARE(w->firstSeen, std::string("worker_b.json"));
        QVERIFY(!meta(*t, "rank.1 (worker_c.json.gz)").empty());
        QCOMPARE(RankFilter::ranks(*t), (std::vector<int64_t>{0, 1}));
        const auto single = test::load(corpusFile(kSource));
        QVERIFY(single);
        const RankFilter one(*t, 1);
        size_t accepted = 0;
        for (uint32_t i = 0; i < t->allSlices().size(); ++i)
            accepted += one.accepts(SliceId(i));
        QCOMPARE(accepted, single->allSlices().size() * 2);

        // Given together: the same (the CLI's info a b c); the GUI opens such files as a comparison.
        const std::vector<std::string> paths = {dir.filePath(QStringLiteral("worker_a.json")).toStdString(),
                                                dir.filePath(QStringLiteral("worker_b.json")).toStdString(),
                                                dir.filePath(QStringLiteral("worker_c.json.gz")).toStdString()};
        QVERIFY(!MultiRankLoader::looksLikeRankSet(paths));
        const LoadResult r = MultiRankLoader::loadFiles(paths);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(findDiagnostic(*r.trace, "2 files claim rank 1"));
    }

    // Rank files of two jobs in one folder (ranks 0 and 1 of the corpus trace's world of 16, rank 2 of
    // a world of 8): kept apart, the job with more files loads, the other's file is reported and
    // warned about, never merged on the same clock.
    void twoJobsKeptApart()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kSource);
        const std::string text = sourceText();
        std::string other = rankVariant(text, {2, 0});
        const std::string world16 = "\"world_size\": 16";
        const size_t ws = other.find(world16);
        QVERIFY(ws != std::string::npos);
        other.replace(ws, world16.size(), "\"world_size\": 8");
        QTemporaryDir dir;
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("rank0.json")), rankVariant(text, {0, 0})));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("rank1.json")), rankVariant(text, {1, 0})));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("rank2.json")), other));
        const auto t = test::load(dir.path());
        QVERIFY(t);
        QCOMPARE(meta(*t, "ranks"), std::string("0 1"));
        QCOMPARE(RankFilter::ranks(*t), (std::vector<int64_t>{0, 1}));
        const Warning *w = findDiagnostic(*t, "rank files of more than one job");
        QVERIFY(w && !w->isNote());
        QVERIFY2(w->message.find("loaded the job of world size 16") != std::string::npos, w->message.c_str());
        QVERIFY2(w->message.find("not loaded: rank2.json (world size 8") != std::string::npos, w->message.c_str());
        bool reported = false;
        for (const FileReport &r : t->metadata().files)
            if (r.path == "rank2.json") {
                QCOMPARE(r.outcome, FileOutcome::Ignored);
                QVERIFY2(r.detail.find("rank 2 of another job (world size 8") == 0, r.detail.c_str());
                reported = true;
            }
        QVERIFY(reported);
    }

    // A folder of Kineto traces without ranks is still an ordinary profile folder.
    void withoutRanksStaysAFolder()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kSource);
        std::string text = sourceText();
        text.erase(text.find("\"distributedInfo\""), text.find('}', text.find("\"distributedInfo\"")) + 2 - text.find("\"distributedInfo\""));
        QTemporaryDir dir;
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("a.json")), text));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("b.json")), text));
        const auto t = test::load(dir.path());
        QVERIFY(t);
        QCOMPARE(t->metadata().format, std::string("profile-folder"));
        QVERIFY(RankFilter::ranks(*t).empty());
    }
};

QTEST_GUILESS_MAIN(TestMultiRankLoader)
#include "tst_multirankloader.moc"
