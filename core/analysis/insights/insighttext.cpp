#include "insighttext.h"

#include <cstdio>

namespace lanescope::insighttext {

std::string ns(int64_t v)
{
    char buf[48];
    const double d = double(v);
    if (v >= 1000000000 || v <= -1000000000)
        std::snprintf(buf, sizeof buf, "%.3f s", d / 1e9);
    else if (v >= 1000000 || v <= -1000000)
        std::snprintf(buf, sizeof buf, "%.3f ms", d / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.3f us", d / 1e3);
    return buf;
}

std::string pct(double p)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", p);
    return buf;
}

std::string bytes(double b)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024.0 && u < 4) {
        b /= 1024.0;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", b, units[u]);
    return buf;
}

std::string join(const std::vector<std::string> &parts, const char *separator)
{
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i)
            out += separator;
        out += parts[i];
    }
    return out;
}

} // namespace lanescope::insighttext
