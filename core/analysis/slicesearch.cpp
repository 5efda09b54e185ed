#include "slicesearch.h"

#include "model/trace.h"

#include <QRegularExpression>

#include <algorithm>

namespace lanescope {

std::vector<uint32_t> SliceSearch::find(const Trace &trace, const Options &options, QString *error)
{
    if (error)
        error->clear();
    if (options.pattern.isEmpty())
        return {};
    QRegularExpression re;
    if (options.regex) {
        re.setPattern(options.pattern);
        re.setPatternOptions(options.caseSensitive ? QRegularExpression::NoPatternOption
                                                   : QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            if (error)
                *error = re.errorString();
            return {};
        }
    }
    const Qt::CaseSensitivity cs = options.caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
    const StringPool &pool = trace.strings();
    // 0 = not looked at, 1 = no match, 2 = match; per distinct string.
    std::vector<uint8_t> state(pool.size(), 0);
    const auto matches = [&](StringId id) {
        if (!id.isValid() || id.value >= state.size())
            return false;
        uint8_t &st = state[id.value];
        if (st == 0) {
            const std::string_view v = pool.view(id);
            const QString text = QString::fromUtf8(v.data(), qsizetype(v.size()));
            const bool hit = options.regex ? re.match(text).hasMatch() : text.contains(options.pattern, cs);
            st = hit ? 2 : 1;
        }
        return st == 2;
    };
    std::vector<uint32_t> out;
    const auto all = trace.allSlices();
    for (uint32_t i = 0; i < all.size(); ++i) {
        const Slice &s = all[i];
        bool hit = matches(s.name);
        if (!hit && options.includeArgs && s.args.isValid()) {
            for (const Arg &a : trace.args().args(s.args)) {
                if (matches(a.key) || ((a.type == ArgType::String || a.type == ArgType::Json) && matches(a.stringValue()))) {
                    hit = true;
                    break;
                }
            }
        }
        if (hit)
            out.push_back(i);
    }
    // Slices are grouped by track: merge them into one time order.
    std::stable_sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) { return all[a].start < all[b].start; });
    return out;
}

int64_t SliceSearch::step(const Trace &trace, const std::vector<uint32_t> &matches, int64_t t, bool forward)
{
    if (matches.empty())
        return -1;
    const auto all = trace.allSlices();
    if (forward) {
        auto it = std::upper_bound(matches.begin(), matches.end(), t,
                                   [&](int64_t v, uint32_t id) { return v < all[id].start; });
        return it == matches.end() ? 0 : int64_t(it - matches.begin());
    }
    auto it = std::lower_bound(matches.begin(), matches.end(), t,
                               [&](uint32_t id, int64_t v) { return all[id].start < v; });
    return it == matches.begin() ? int64_t(matches.size()) - 1 : int64_t(it - matches.begin()) - 1;
}

} // namespace lanescope
