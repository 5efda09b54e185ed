#include "devicestarvation.h"

#include "insightcontext.h"
#include "insighttext.h"

#include <algorithm>
#include <unordered_map>

namespace lanescope {

DeviceStarvation DeviceStarvation::compute(InsightContext &ctx)
{
    DeviceStarvation s;
    s.m_busy = &ctx.busyIntervals();
    const auto devices = ctx.index().devices();
    std::unordered_map<std::string, uint32_t> byName;
    for (uint32_t d = 0; d < devices.size(); ++d)
        byName.emplace(devices[d].name, d);
    s.m_starved.assign(devices.size(), 0);
    std::vector<std::string> saturated;
    for (const DeviceSummary::Row &r : ctx.devices()) {
        const auto it = byName.find(r.device);
        if (it == byName.end() || r.total <= 0)
            continue;
        if (r.busyPercent() >= kSaturatedBusyPercent) {
            saturated.push_back(r.device + " busy " + insighttext::pct(r.busyPercent()));
            continue;
        }
        s.m_starved[it->second] = 1;
        s.m_starvedTotalNs += r.total;
    }
    // At most kListed named (a job of hundreds of ranks would fill pages), then how many more.
    constexpr size_t kListed = 8;
    const size_t more = saturated.size() > kListed ? saturated.size() - kListed : 0;
    saturated.resize(saturated.size() - more);
    s.m_saturatedText = insighttext::join(saturated, ", ") + (more ? " and " + std::to_string(more) + " more" : "");
    return s;
}

std::optional<DeviceStarvation::Interval> DeviceStarvation::gapBeginningIn(uint32_t device, int64_t from, int64_t to) const
{
    if (!m_busy || device >= m_busy->size() || to < from)
        return std::nullopt;
    const auto &busy = (*m_busy)[device];
    // The merged intervals are in time order, their ends too: the last ending at or before `to`.
    auto it = std::upper_bound(busy.begin(), busy.end(), to, [](int64_t v, const Interval &iv) { return v < iv.second; });
    if (it == busy.begin() || it == busy.end())
        return std::nullopt; // nothing ended by `to`, or nothing ran after it
    const Interval &before = *(it - 1);
    if (before.second < from || it->first <= before.second)
        return std::nullopt;
    return Interval(before.second, it->first);
}

std::optional<DeviceStarvation::Interval> DeviceStarvation::gapEndingAt(uint32_t device, int64_t t) const
{
    if (!m_busy || device >= m_busy->size())
        return std::nullopt;
    const auto &busy = (*m_busy)[device];
    auto it = std::lower_bound(busy.begin(), busy.end(), t, [](const Interval &iv, int64_t v) { return iv.first < v; });
    if (it == busy.end() || it->first != t || it == busy.begin() || (it - 1)->second >= t)
        return std::nullopt;
    return Interval((it - 1)->second, t);
}

std::vector<DeviceStarvation::Interval> DeviceStarvation::idleInside(uint32_t device, int64_t s, int64_t e) const
{
    std::vector<Interval> out;
    if (!m_busy || device >= m_busy->size() || (*m_busy)[device].empty())
        return out;
    const auto &busy = (*m_busy)[device];
    s = std::max(s, busy.front().first);
    e = std::min(e, busy.back().second);
    auto it = std::upper_bound(busy.begin(), busy.end(), s, [](int64_t v, const Interval &iv) { return v < iv.second; });
    int64_t at = s;
    for (; it != busy.end() && it->first < e; ++it) {
        if (it->first > at)
            out.emplace_back(at, it->first);
        at = std::max(at, it->second);
    }
    if (at < e)
        out.emplace_back(at, e);
    return out;
}

void IdleUnion::add(uint32_t device, int64_t s, int64_t e)
{
    if (e <= s)
        return;
    if (device >= m_byDevice.size())
        m_byDevice.resize(device + 1);
    m_byDevice[device].emplace_back(s, e);
}

std::pair<int64_t, size_t> IdleUnion::merged() const
{
    int64_t total = 0;
    size_t count = 0;
    for (std::vector<DeviceStarvation::Interval> v : m_byDevice) {
        std::sort(v.begin(), v.end());
        int64_t curS = INT64_MIN, curE = INT64_MIN;
        for (const auto &[s, e] : v) {
            if (s > curE) {
                if (curE > curS)
                    total += curE - curS;
                ++count;
                curS = s;
                curE = e;
            } else {
                curE = std::max(curE, e);
            }
        }
        if (curE > curS)
            total += curE - curS;
    }
    return {total, count};
}

} // namespace lanescope
