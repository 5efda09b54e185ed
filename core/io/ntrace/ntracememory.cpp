#include "ntracememory.h"

#include "util/textutil.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace lanescope {

namespace {

struct Change
{
    int64_t ts = 0;
    int64_t nc = -1;
    std::string usage;
    double delta = 0;
};

} // namespace

NtraceMemoryCounters NtraceMemory::build(const NtraceRecords &all, const std::vector<NtraceCall> &calls,
                                         const std::vector<std::string_view> &names, const std::string &file, Diagnostics &d)
{
    NtraceMemoryCounters out;
    auto attr = [&](uint32_t record, std::string_view key) -> std::string_view {
        if (record == NtraceCall::kNone)
            return {};
        const std::string_view *v = all.find(all.records[record], key);
        return v ? *v : std::string_view();
    };
    auto number = [](std::string_view s, int64_t &v) { return text::parseInt(s, v); };
    struct Live
    {
        std::string usage;
        int64_t bytes = 0;
    };
    std::map<std::pair<int64_t, std::string>, Live> live; // (nc, physical_address) -> allocation
    std::vector<Change> changes;
    uint64_t unknownSize = 0, notAllocated = 0;
    // Calls are in begin order; allocations and deallocations take effect when they return.
    std::vector<size_t> order;
    for (size_t i = 0; i < calls.size(); ++i)
        if (!calls[i].single && calls[i].end != NtraceCall::kNone && (names[i] == kAlloc || names[i] == kDealloc))
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return all.records[calls[a].end].ts < all.records[calls[b].end].ts; });
    for (size_t i : order) {
        const NtraceCall &c = calls[i];
        int64_t nc = -1;
        if (!number(attr(c.begin, "nc_idx"), nc))
            number(attr(c.end, "nc_idx"), nc);
        const int64_t ts = all.records[c.end].ts;
        std::string usage(attr(c.begin, "usage_type"));
        if (names[i] == kAlloc) {
            ++out.allocations;
            int64_t bytes = 0;
            if (!number(attr(c.end, "allocated_bytes"), bytes)) {
                ++unknownSize;
                continue;
            }
            const std::string address(attr(c.end, "physical_address"));
            if (!address.empty())
                live[{nc, address}] = {usage, bytes};
            changes.push_back({ts, nc, usage, double(bytes)});
            continue;
        }
        ++out.deallocations;
        const std::string address(attr(c.begin, "physical_address"));
        auto it = address.empty() ? live.end() : live.find({nc, address});
        int64_t bytes = 0;
        const bool sized = number(attr(c.end, "freed_bytes"), bytes);
        if (it != live.end()) {
            ++out.paired;
            if (usage.empty())
                usage = it->second.usage;
            if (!sized)
                bytes = it->second.bytes;
            live.erase(it);
        } else {
            ++notAllocated;
            if (!sized) {
                ++unknownSize;
                continue;
            }
        }
        changes.push_back({ts, nc, usage, -double(bytes)});
    }
    if (unknownSize)
        d.warn(file + ": memory calls without a size (allocated_bytes / freed_bytes) left out of the device memory counters", {},
               unknownSize);
    if (notAllocated)
        d.note(file + ": deallocations of memory the trace did not see allocated (the device memory counter can go below 0)", {},
               notAllocated);
    std::map<std::pair<int64_t, std::string>, size_t> index;
    for (const Change &c : changes) {
        auto [it, added] = index.emplace(std::make_pair(c.nc, c.usage), out.series.size());
        if (added)
            out.series.push_back({c.nc, c.usage.empty() ? std::string("(no usage_type)") : c.usage, {}});
        NtraceMemorySeries &s = out.series[it->second];
        const double before = s.samples.empty() ? 0.0 : s.samples.back().second;
        s.samples.emplace_back(c.ts, before + c.delta);
    }
    std::stable_sort(out.series.begin(), out.series.end(),
                     [](const NtraceMemorySeries &a, const NtraceMemorySeries &b) { return std::tie(a.nc, a.usage) < std::tie(b.nc, b.usage); });
    return out;
}

} // namespace lanescope
