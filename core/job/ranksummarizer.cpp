#include "ranksummarizer.h"

#include "ranksummaryjson.h"

#include "analysis/collectivematch.h"
#include "analysis/devicesummary.h"
#include "analysis/insights/insights.h"
#include "analysis/insights/insightsjson.h"
#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "analysis/tablerows.h"
#include "io/ranks/rankclock.h"
#include "io/ranks/rankdetection.h"
#include "io/traceloader.h"
#include "model/trace.h"
#include "util/contentfingerprint.h"
#include "util/tablerowwriter.h"

#include <QJsonDocument>

#include <filesystem>

namespace lanescope {

namespace {

template <typename Row, typename Rows> RankSummary::Table table(const RowDescription<Row> &columns, const Rows &rows)
{
    return {TableRowWriter::jsonArray(columns, rows, RankSummary::kMaxTableRows), uint64_t(rows.size())};
}

std::string cut(const std::string &v)
{
    return v.size() <= RankSummary::kMaxMetadataValue ? v : v.substr(0, RankSummary::kMaxMetadataValue) + "...";
}

} // namespace

RankSummary RankSummarizer::summarize(const Trace &trace, const std::string &path)
{
    RankSummary s;
    s.producer = std::string("lanescope ") + LANESCOPE_VERSION;
    const RankOrigin origin = RankDetection::detect(trace, path);
    s.rank = origin.rank;
    s.rankSource = origin.source;
    if (const std::string *info = trace.metadata().find("distributedInfo")) {
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(*info));
        if (doc.isObject()) {
            s.distributedInfo = doc.toJson(QJsonDocument::Compact).toStdString();
            RankSummaryJson::readDistributedInfo(doc.object(), s);
        }
    }

    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    s.file.path = ec ? path : absolute.lexically_normal().string();
    s.file.name = std::filesystem::path(path).filename().string();
    const ContentFingerprint fp = ContentFingerprint::ofPath(path);
    s.file.fingerprint = fp.key();
    s.file.bytes = fp.size;
    s.file.format = trace.metadata().format;

    const RankClock::Input clock = RankClock::inputOf(trace, s.rank);
    s.startNs = trace.startNs();
    s.endNs = trace.endNs();
    s.baseTimeNs = clock.baseNs;
    s.firstStepNs = clock.firstStepNs;
    s.events = trace.stats().eventsRead;
    s.slices = trace.allSlices().size();

    const LaunchIndex index = LaunchIndex::build(trace);
    const OpTable::Result ops = OpTable::compute(trace, index, {});
    for (const OpTable::Row &row : ops.rows)
        if (row.name == "ProfilerStep*") // the steps RankStepTable reads (the op table folds their names)
            for (uint32_t id : row.occurrences) {
                const Slice &step = trace.slice(SliceId(id));
                s.steps.push_back({id, std::string(trace.str(step.name)), step.start, step.duration});
            }
    s.ops = table(TableRows::ops(), ops.rows);
    s.kernels = table(TableRows::kernels(), KernelTable::compute(trace, index, {}).rows);
    s.devices = table(TableRows::devices(), DeviceSummary::compute(trace, index, {}));

    CollectiveTableResult collectives = CollectiveTable::compute(trace);
    s.collectiveRows = table(TableRows::collectives(), collectives.rows);
    s.collectiveSteps = CollectiveMatch::stepsOf(trace, index, collectives);
    s.collectives = std::move(collectives.instances);
    for (CollectiveInstance &c : s.collectives)
        c.rank = s.rank;

    const Insights::Result insights = Insights::run(trace, index, {});
    s.findings = insights.findings;
    s.metrics = InsightsJson::metrics(insights.metrics);

    for (const Warning &w : trace.diagnostics().warnings()) {
        if (s.warnings.size() >= RankSummary::kMaxWarnings)
            break;
        s.warnings.push_back(w);
    }
    for (const auto &[key, value] : trace.metadata().entries)
        if (key != "distributedInfo") // kept whole under the rank
            s.metadata.emplace_back(key, cut(value));
    return s;
}

RankSummarizer::Outcome RankSummarizer::summarizeFile(const std::string &path, const LoadOptions &options)
{
    Outcome out;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        out.error = path + ": a folder; summarize takes the trace files of the ranks";
        return out;
    }
    const LoadResult loaded = TraceLoader::load(path, options);
    if (!loaded.ok()) {
        out.error = loaded.cancelled ? path + ": cancelled" : loaded.error;
        return out;
    }
    if (!RankDetection::detect(*loaded.trace, path).found()) {
        out.error = path + ": carries no rank (no distributedInfo.rank in the trace, no rank in its file or folder name such as "
                           "rank-3.json or rank_3/trace.json)";
        return out;
    }
    try {
        out.summary = summarize(*loaded.trace, path);
    } catch (const std::exception &e) {
        out.error = e.what();
    }
    return out;
}

} // namespace lanescope
