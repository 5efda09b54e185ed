#pragma once
// Where the device starved, for the host-side rules (docs/insights.md): on a device busy most of its
// span a waiting host and a deep launch queue are the goal, not the problem. A device is saturated
// when its busy time (DeviceSummary, the analysed window) is >= 95 % of its span; the host-side rules
// (fusion-candidate, sync-stall, launch-bound, launch-latency, host-device-copy) look at starved
// devices only, and the sync, launch and latency rules count as recoverable the device idle gaps the
// host work explains, with their severity from that idle time as a share of the starved devices' time.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lanescope {

class InsightContext;

class DeviceStarvation
{
public:
    static constexpr double kSaturatedBusyPercent = 95.0;
    using Interval = std::pair<int64_t, int64_t>;

    static DeviceStarvation compute(InsightContext &ctx);

    // Work in the window and busy < 95 % of its span.
    bool starved(uint32_t device) const { return device < m_starved.size() && m_starved[device]; }
    bool anyStarved() const { return m_starvedTotalNs > 0; }
    // The starved devices' spans summed (device time: the denominator of the rules' severity).
    int64_t starvedTotalNs() const { return m_starvedTotalNs; }
    // "Rank 0 · GPU 0 busy 98.4 %, ..." for the saturated devices (empty without any).
    const std::string &saturatedText() const { return m_saturatedText; }

    // The idle gap of `device` (between two of its busy intervals) that begins inside [from, to]: the
    // device ran dry while the host sat in that call.
    std::optional<Interval> gapBeginningIn(uint32_t device, int64_t from, int64_t to) const;
    // The idle gap that ends where a busy interval of `device` starts at `t` (none when `t` starts no
    // busy interval or nothing ran before it).
    std::optional<Interval> gapEndingAt(uint32_t device, int64_t t) const;
    // The idle pieces of `device` inside [s, e], within its busy span (before its first work in the
    // window the device is not counted idle, as DeviceSummary counts it).
    std::vector<Interval> idleInside(uint32_t device, int64_t s, int64_t e) const;

private:
    const std::vector<std::vector<Interval>> *m_busy = nullptr; // the context's busy intervals
    std::vector<uint8_t> m_starved;
    int64_t m_starvedTotalNs = 0;
    std::string m_saturatedText;
};

// Idle time a rule explains, per device, each nanosecond counted once however many calls explain it.
class IdleUnion
{
public:
    void add(uint32_t device, int64_t s, int64_t e);
    int64_t totalNs() const { return merged().first; }
    // The distinct gaps (pieces that touch are one).
    size_t gaps() const { return merged().second; }

private:
    std::pair<int64_t, size_t> merged() const;
    std::vector<std::vector<DeviceStarvation::Interval>> m_byDevice;
};

} // namespace lanescope
