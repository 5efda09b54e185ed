#include "findingsdiff.h"

#include <cmath>
#include <map>

namespace lanescope {

std::string FindingsDiff::key(const Finding &f)
{
    std::string k = f.rule + "|";
    for (char c : f.title) {
        if ((c >= '0' && c <= '9') || c == '.' || c == '%')
            continue;
        if (c == ' ' && !k.empty() && k.back() == ' ')
            continue;
        k += c;
    }
    return k;
}

FindingsDiffResult FindingsDiff::compare(const std::vector<Finding> &a, const std::vector<Finding> &b)
{
    FindingsDiffResult r;
    std::multimap<std::string, size_t> inB;
    for (size_t i = 0; i < b.size(); ++i)
        inB.emplace(key(b[i]), i);
    std::vector<bool> matched(b.size(), false);
    for (const Finding &fa : a) {
        auto it = inB.find(key(fa));
        if (it == inB.end()) {
            r.resolved.push_back(fa);
            continue;
        }
        const Finding &fb = b[it->second];
        matched[it->second] = true;
        inB.erase(it);
        const double base = std::abs(fa.value);
        const bool moved = base > 0 ? 100.0 * std::abs(fb.value - fa.value) / base > kChangedPercent : fb.value != fa.value;
        if (moved || fa.severity != fb.severity)
            r.changed.emplace_back(fa, fb);
    }
    for (size_t i = 0; i < b.size(); ++i)
        if (!matched[i])
            r.added.push_back(b[i]);
    return r;
}

} // namespace lanescope
