// lanescope-cli stats PATH --name REGEX [--json] [--range FROM:TO]
// Duration statistics per slice name (core/analysis/durationstats.h): count, total, mean, median,
// p90, p99 (nearest rank), min, max, population standard deviation and a log-spaced histogram.
#include "commands.h"
#include "tableargs.h"
#include "tableoutput.h"

#include "analysis/durationstats.h"
#include "util/durationtext.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>

namespace lanescope::cli {

namespace {

std::string ns(double v) { return DurationText::column(v); }

QJsonObject toJson(const DurationStats::Row &r)
{
    QJsonArray bins;
    for (const DurationStats::Bin &b : r.histogram)
        bins.append(QJsonObject{{QStringLiteral("from_ns"), qint64(b.from)},
                                {QStringLiteral("to_ns"), qint64(b.to)},
                                {QStringLiteral("count"), qint64(b.count)}});
    return QJsonObject{{QStringLiteral("name"), QString::fromStdString(r.name)},
                       {QStringLiteral("count"), qint64(r.count)},
                       {QStringLiteral("total_ns"), qint64(r.total)},
                       {QStringLiteral("mean_ns"), r.mean},
                       {QStringLiteral("median_ns"), qint64(r.median)},
                       {QStringLiteral("p90_ns"), qint64(r.p90)},
                       {QStringLiteral("p99_ns"), qint64(r.p99)},
                       {QStringLiteral("min_ns"), qint64(r.min)},
                       {QStringLiteral("max_ns"), qint64(r.max)},
                       {QStringLiteral("stddev_ns"), r.stddev},
                       {QStringLiteral("histogram"), bins}};
}

void printText(const DurationStats::Result &result)
{
    std::printf("%-50s %9s %12s %12s %12s %12s %12s %12s %12s %12s\n", "Name", "Count", "Total", "Mean", "Median", "p90",
                "p99", "Min", "Max", "Stddev");
    for (const DurationStats::Row &r : result.rows) {
        const std::string name = r.name.size() > 50 ? r.name.substr(0, 47) + "..." : r.name;
        std::printf("%-50s %9llu %12s %12s %12s %12s %12s %12s %12s %12s\n", name.c_str(), (unsigned long long)r.count,
                    ns(double(r.total)).c_str(), ns(r.mean).c_str(), ns(double(r.median)).c_str(), ns(double(r.p90)).c_str(),
                    ns(double(r.p99)).c_str(), ns(double(r.min)).c_str(), ns(double(r.max)).c_str(), ns(r.stddev).c_str());
    }
    if (result.rows.empty())
        std::printf("(no slice name matches)\n");
    if (result.rows.size() != 1)
        return;
    // One name: its histogram as bars.
    const DurationStats::Row &r = result.rows.front();
    uint64_t most = 1;
    for (const auto &b : r.histogram)
        most = std::max(most, b.count);
    std::printf("\nHistogram of %s (log-spaced bins)\n", r.name.c_str());
    for (const auto &b : r.histogram) {
        const int width = int((b.count * 50 + most - 1) / most);
        std::printf("  [%12s, %12s) %9llu %s\n", ns(double(b.from)).c_str(), ns(double(b.to)).c_str(),
                    (unsigned long long)b.count, std::string(size_t(width), '#').c_str());
    }
}

} // namespace

int cmdStats(const Args &args)
{
    // --name is this command's own; the rest (PATH, --json, --range, --no-cache) are the table flags.
    Args rest;
    bool named = false;
    std::string pattern;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--name") {
            if (i + 1 < args.size())
                pattern = args[++i];
            named = true;
        } else if (args[i].rfind("--name=", 0) == 0) {
            pattern = args[i].substr(7);
            named = true;
        } else {
            rest.push_back(args[i]);
        }
    }
    TableArgs ta;
    if (!ta.parse("stats", rest, TableArgs::Accepts{.noCsv = "--json"},
                  !named || pattern.empty() ? "--name REGEX is required (e.g. --name '^aten::mul$')" : ""))
        return kExitUnreadable;
    DurationStats::Options options;
    options.pattern = QString::fromStdString(pattern);
    if (const QString error = DurationStats::patternError(options.pattern); !error.isEmpty())
        return ta.usageError("--name " + error.toStdString()); // before loading: a typo fails at once
    LoadResult loaded;
    if (!ta.load(rest, loaded))
        return kExitUnreadable;
    ta.applyRange(options);
    const DurationStats::Result result = DurationStats::compute(*loaded.trace, options);
    if (!result.ok())
        return ta.usageError("--name " + result.error.toStdString());
    if (ta.format == TableArgs::Format::Json) {
        QJsonArray names;
        for (const auto &r : result.rows)
            names.append(toJson(r));
        printJson(QJsonObject{{QStringLiteral("names"), names}});
    } else {
        printText(result);
    }
    return kExitOk;
}

} // namespace lanescope::cli
