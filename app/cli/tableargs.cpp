#include "tableargs.h"

#include <cstdio>
#include <cstdlib>
#include <cerrno>

namespace lanescope::cli {

namespace {

bool parseInt(const std::string &s, int64_t &out)
{
    if (s.empty())
        return false;
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno != 0 || end != s.c_str() + s.size())
        return false;
    out = v;
    return true;
}

} // namespace

bool TableArgs::parse(const Args &args, std::string &error)
{
    const auto paths = positional(args, {"--sort", "--limit", "--range"});
    if (paths.size() != 1) {
        error = paths.empty() ? "missing PATH" : "more than one PATH given";
        return false;
    }
    path = paths[0];
    for (const auto &a : args)
        if (a.size() > 1 && a[0] == '-' && a != "--json" && a != "--group-by-shapes" && a != "--sort" && a != "--limit"
            && a != "--range" && a.rfind("--sort=", 0) != 0 && a.rfind("--limit=", 0) != 0 && a.rfind("--range=", 0) != 0) {
            error = "unknown option '" + a + "'";
            return false;
        }
    json = hasFlag(args, "--json");
    groupByShapes = hasFlag(args, "--group-by-shapes");
    sort = flagValue(args, "--sort");
    if (hasFlag(args, "--sort") && sort.empty()) {
        error = "--sort needs a column name";
        return false;
    }
    const std::string limitText = flagValue(args, "--limit");
    if (!limitText.empty() || hasFlag(args, "--limit")) {
        if (!parseInt(limitText, limit) || limit < 0) {
            error = "--limit expects a non-negative integer, got '" + limitText + "'";
            return false;
        }
    }
    const std::string range = flagValue(args, "--range");
    if (!range.empty() || hasFlag(args, "--range")) {
        const size_t colon = range.find(':');
        if (colon == std::string::npos || !parseInt(range.substr(0, colon), t0) || !parseInt(range.substr(colon + 1), t1)
            || t1 < t0) {
            error = "--range expects START_NS:END_NS with START_NS <= END_NS, got '" + range + "'";
            return false;
        }
        hasRange = true;
    }
    return true;
}

std::string formatNs(double ns)
{
    char buf[64];
    if (ns >= 1e9)
        std::snprintf(buf, sizeof buf, "%.3f s", ns / 1e9);
    else if (ns >= 1e6)
        std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.3f us", ns / 1e3);
    return buf;
}

} // namespace lanescope::cli
