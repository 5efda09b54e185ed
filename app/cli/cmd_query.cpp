// lanescope-cli query PATH "SQL": SQL over the loaded trace, the export-sqlite tables read in place
// (core/query/queryengine.h, docs/sqlite-schema.md). Rows are printed as they come.
#include "commands.h"

#include "annotations/annotation.h"
#include "query/queryengine.h"
#include "query/queryoutput.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace lanescope::cli {

namespace {

constexpr const char *kUsage = "usage: lanescope-cli query PATH \"SQL\" [--format text|csv|json] [--file Q.sql] "
                               "[--timeout SECONDS] [--max-rows N] [--no-cache]\n";

// The line of `sql` holding the error and a caret under its column.
void printPosition(const std::string &sql, const QueryError &e)
{
    if (e.line <= 0)
        return;
    std::istringstream lines(sql);
    std::string line;
    for (int i = 0; i < e.line && std::getline(lines, line); ++i) {
    }
    std::fprintf(stderr, "  %s\n  %*s^\n", line.c_str(), e.column - 1, "");
}

} // namespace

int cmdQuery(const Args &args)
{
    // Own parsing: the SQL may start with "-" (a "-- comment" line), which positional() takes for a flag.
    std::vector<std::string> pos;
    std::string file, format = "text", timeout, maxRows;
    for (size_t i = 0; i < args.size(); ++i) {
        if (takeValue(args, i, "--file", file) || takeValue(args, i, "--format", format)
            || takeValue(args, i, "--timeout", timeout) || takeValue(args, i, "--max-rows", maxRows) || args[i] == "--no-cache")
            continue;
        pos.push_back(args[i]);
    }
    if (pos.empty() || (file.empty() ? pos.size() != 2 : pos.size() != 1)) {
        std::fputs(kUsage, stderr);
        return kExitUnreadable;
    }
    QueryResultWriter::Format fmt;
    if (format == "text")
        fmt = QueryResultWriter::Format::Text;
    else if (format == "csv")
        fmt = QueryResultWriter::Format::Csv;
    else if (format == "json")
        fmt = QueryResultWriter::Format::Json;
    else {
        std::fprintf(stderr, "lanescope-cli: query: --format expects text, csv or json, not '%s'\n", format.c_str());
        return kExitUnreadable;
    }
    QueryOptions options;
    char *end = nullptr;
    if (!timeout.empty()) {
        options.timeoutSeconds = std::strtod(timeout.c_str(), &end);
        if (*end || !(options.timeoutSeconds > 0)) {
            std::fprintf(stderr, "lanescope-cli: query: --timeout expects seconds above 0, not '%s'\n", timeout.c_str());
            return kExitUnreadable;
        }
    }
    if (!maxRows.empty()) {
        const long long n = std::strtoll(maxRows.c_str(), &end, 10);
        if (*end || n <= 0) {
            std::fprintf(stderr, "lanescope-cli: query: --max-rows expects a row count above 0, not '%s'\n", maxRows.c_str());
            return kExitUnreadable;
        }
        options.maxRows = uint64_t(n);
    }
    std::string sql;
    if (!file.empty()) {
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "lanescope-cli: query: %s: cannot read the SQL file\n", file.c_str());
            return kExitUnreadable;
        }
        std::ostringstream text;
        text << in.rdbuf();
        sql = text.str();
    } else {
        sql = pos[1];
    }
    const LoadResult r = loadTrace(pos[0], args);
    if (!r.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", r.error.c_str());
        return kExitUnreadable;
    }
    QueryEngine engine(r.trace, notesForExport(pos[0], *r.trace));
    if (!engine.ok()) {
        std::fprintf(stderr, "lanescope-cli: query: %s\n", engine.error().c_str());
        return kExitUnreadable;
    }
    QueryResultWriter out(fmt, stdout);
    QueryError error;
    QueryStats stats;
    const bool ok = engine.run(sql, out, options, &error, &stats);
    out.end();
    if (!ok) {
        const std::string where = file.empty() ? std::string() : file + ": ";
        std::fprintf(stderr, "lanescope-cli: query: %s%s\n", where.c_str(), error.message.c_str());
        printPosition(sql, error);
        const bool stopped = error.kind == QueryError::Kind::TimedOut || error.kind == QueryError::Kind::Cancelled;
        return stopped ? kExitFailure : kExitUnreadable;
    }
    if (stats.truncated && options.maxRows)
        std::fprintf(stderr, "lanescope-cli: query: stopped after %llu rows (--max-rows)\n",
                     static_cast<unsigned long long>(stats.rows));
    return kExitOk;
}

} // namespace lanescope::cli
