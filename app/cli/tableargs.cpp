#include "tableargs.h"

#include "tableoutput.h"

#include "analysis/rankfilter.h"
#include "util/textutil.h"

#include <QJsonDocument>

#include <algorithm>
#include <cstdio>

namespace lanescope::cli {

namespace {

bool given(const Args &args, const std::string &flag)
{
    return hasFlag(args, flag)
        || std::any_of(args.begin(), args.end(), [&](const std::string &a) { return a.rfind(flag + "=", 0) == 0; });
}

} // namespace

void printJson(const QJsonObject &o)
{
    const QByteArray out = QJsonDocument(o).toJson(QJsonDocument::Indented);
    std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
}

int TableArgs::usageError(const std::string &message) const
{
    std::string usage;
    for (const Command &c : commands())
        if (std::string(c.name) == m_command)
            usage = c.usage;
    std::fprintf(stderr, "lanescope-cli %s: %s\nusage: lanescope-cli %s\n", m_command, message.c_str(), usage.c_str());
    return kExitUnreadable;
}

bool TableArgs::parse(const char *command, const Args &args, Accepts accepts)
{
    m_command = command;
    std::string error;
    if (!check(args, accepts, error)) {
        usageError(error);
        return false;
    }
    if (range && range->usedBareNumber)
        std::fprintf(stderr, "lanescope-cli %s: %s\n", m_command,
                     TimeRange::deprecationNote(TimeRange::BareNumber::AbsoluteNs).c_str());
    return true;
}

bool TableArgs::parse(const char *command, const Args &args, Accepts accepts, const std::string &ownError)
{
    if (!parse(command, args, accepts))
        return false;
    if (ownError.empty())
        return true;
    usageError(ownError);
    return false;
}

bool TableArgs::check(const Args &args, Accepts accepts, std::string &error)
{
    const std::vector<std::string> valued = {"--sort", "--limit", "--range", "--format", "--table", "--rank"};
    paths = positional(args, valued);
    if (paths.empty()) {
        error = "missing PATH";
        return false;
    }
    path = paths[0];
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a.size() < 2 || a[0] != '-' || a == "--json" || a == "--group-by-shapes" || a == "--no-cache")
            continue;
        if (std::find(valued.begin(), valued.end(), a) != valued.end()) {
            ++i; // its value may start with '-': --range -2ms:
            continue;
        }
        if (std::find(valued.begin(), valued.end(), a.substr(0, a.find('='))) == valued.end()) {
            error = "unknown option '" + a + "'";
            return false;
        }
    }
    groupByShapes = hasFlag(args, "--group-by-shapes");
    if (groupByShapes && !accepts.shapes) {
        error = "--group-by-shapes applies to `ops` only";
        return false;
    }
    const std::string formatText = flagValue(args, "--format", hasFlag(args, "--json") ? "json" : "text");
    if (formatText == "json")
        format = Format::Json;
    else if (formatText == "csv")
        format = Format::Csv;
    else if (formatText == "text")
        format = Format::Text;
    else {
        error = "--format expects text, json or csv, got '" + formatText + "'";
        return false;
    }
    if (format == Format::Csv && accepts.noCsv) {
        error = std::string("--format csv is not available for ") + m_command + " (use " + accepts.noCsv + ")";
        return false;
    }
    if (hasFlag(args, "--json") && format != Format::Json) {
        error = "--json and --format " + formatText + " contradict each other";
        return false;
    }
    sort = flagValue(args, "--sort");
    if (given(args, "--sort") && !accepts.sort) {
        error = "--sort applies to `ops` and `kernels`";
        return false;
    }
    if (given(args, "--sort") && sort.empty()) {
        error = "--sort needs a column name";
        return false;
    }
    if (given(args, "--limit")) {
        const std::string limitText = flagValue(args, "--limit");
        if (!accepts.limit) {
            error = "--limit applies to `ops`, `kernels` and `devices`";
            return false;
        }
        if (!text::parseInt(limitText, limit) || limit < 0) {
            error = "--limit expects a non-negative integer, got '" + limitText + "'";
            return false;
        }
    }
    if (given(args, "--rank")) {
        const std::string rankText = flagValue(args, "--rank");
        if (!accepts.rank) {
            error = "--rank applies to `ops`, `kernels` and `devices`";
            return false;
        }
        if (!text::parseInt(rankText, rank) || rank < 0) {
            error = "--rank expects a rank number (0, 1, ...), got '" + rankText + "'";
            return false;
        }
    }
    table = flagValue(args, "--table");
    if (given(args, "--table") && !accepts.table) {
        error = "--table applies to `engines` only";
        return false;
    }
    if (given(args, "--range")) {
        range = TimeRange::parse(flagValue(args, "--range"), TimeRange::BareNumber::AbsoluteNs, &error);
        if (!range) {
            error = "--range " + error;
            return false;
        }
    }
    return true;
}

bool TableArgs::load(const Args &args, LoadResult &loaded)
{
    // Several PATHs: the files of one job's ranks, as one multi-rank trace.
    loaded = paths.size() > 1 ? loadTrace(paths, args) : loadTrace(path, args);
    if (!loaded.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", loaded.error.c_str());
        return false;
    }
    if (rank >= 0) {
        const std::vector<int64_t> ranks = RankFilter::ranks(*loaded.trace);
        if (std::find(ranks.begin(), ranks.end(), rank) == ranks.end()) {
            std::string list;
            for (int64_t r : ranks)
                list += (list.empty() ? "" : " ") + std::to_string(r);
            usageError("--rank " + std::to_string(rank) + ": " +
                       (ranks.empty() ? std::string("this trace has no ranks (not a multi-rank trace)") : "not in this trace (ranks: " + list + ")"));
            return false;
        }
    }
    if (!range)
        return true;
    std::string error;
    if (!range->resolve(loaded.trace->startNs(), loaded.trace->endNs(), true, &t0, &t1, &error)) {
        usageError("--range " + error);
        return false;
    }
    hasRange = true;
    return true;
}

} // namespace lanescope::cli
