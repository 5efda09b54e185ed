#include "systemprofilejoin.h"

#include "systemprofileimporter.h"
#include "util/textutil.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace lanescope {

namespace {

int64_t processOf(const Trace &t, const Track &tr)
{
    for (GroupId g = tr.group; g.isValid(); g = t.group(g).parent)
        if (t.group(g).kind == GroupKind::Process)
            return t.group(g).externalId;
    return -1;
}

} // namespace

int64_t SystemProfileJoin::hostOffset(const Trace *framework, const Trace &system, std::string &note)
{
    const std::string *base = framework ? framework->metadata().find("baseTimeNanoseconds") : nullptr;
    int64_t b = 0;
    const bool haveBase = base && !base->empty() &&
                          std::from_chars(base->data(), base->data() + base->size(), b).ec == std::errc() && b > 0;
    // The first runtime call: hardware events may still be on the device clock.
    const std::vector<SystemProfileImporter::Event> calls = SystemProfileImporter::runtimeCalls(system);
    const int64_t first = calls.empty() ? system.startNs() : calls.front().start;
    if (haveBase && first >= b) {
        note = "host clock: Unix-epoch ns shifted by -baseTimeNanoseconds (" + std::to_string(b) + ") of the framework trace";
        return -b;
    }
    note = framework ? "host clock: taken as the framework trace's clock (no baseTimeNanoseconds to shift by)"
                     : "host clock: its own (Unix-epoch ns; no framework trace to join)";
    return 0;
}

std::vector<SystemProfileJoin::Placement> SystemProfileJoin::placeDevices(const Trace &system, const std::vector<Device> &devices)
{
    std::vector<Placement> out;
    const std::vector<SystemProfileImporter::Event> execs = SystemProfileImporter::executions(system);
    std::vector<uint8_t> claimed(execs.size(), 0), placed(devices.size(), 0);
    auto sameCore = [&](const Device &d, size_t e) {
        return (execs[e].core < 0 || execs[e].core == d.core) &&
               (d.deviceCore < 0 || execs[e].deviceCore < 0 || execs[e].deviceCore == d.deviceCore);
    };
    auto place = [&](int d, size_t e, std::string how) {
        claimed[e] = placed[size_t(d)] = 1;
        out.push_back({d, execs[e].slice, execs[e].start, std::move(how)});
    };
    // 1. identity
    std::map<std::string, std::vector<int>> byToken;
    for (int d = 0; d < int(devices.size()); ++d)
        if (!devices[size_t(d)].tokens.empty())
            byToken[devices[size_t(d)].tokens.front() + "#" + std::to_string(devices[size_t(d)].core) + "." +
                    std::to_string(devices[size_t(d)].deviceCore)].push_back(d);
    for (const auto &[key, list] : byToken) {
        const Device &first = devices[size_t(list.front())];
        std::vector<size_t> matches;
        std::string token;
        for (size_t e = 0; e < execs.size(); ++e) {
            if (claimed[e] || !sameCore(first, e))
                continue;
            for (const std::string &t : first.tokens)
                if (text::hasToken(execs[e].text, t)) {
                    matches.push_back(e);
                    if (token.empty())
                        token = t;
                    break;
                }
        }
        for (size_t k = 0; k < list.size() && k < matches.size(); ++k)
            place(list[k], matches[k],
                  "the " + std::string(token.size() >= 32 ? "uuid " : "NEFF hash ") + token + " appears in the event; execution " +
                      std::to_string(k + 1) + " of " + std::to_string(matches.size()) + " carrying it");
    }
    // 2. order, per core
    std::map<std::pair<int64_t, int64_t>, std::vector<int>> byCore;
    for (int d = 0; d < int(devices.size()); ++d)
        if (!placed[size_t(d)])
            byCore[{devices[size_t(d)].core, devices[size_t(d)].deviceCore}].push_back(d);
    for (const auto &[key, list] : byCore) {
        const int64_t core = key.first;
        std::vector<size_t> free;
        for (size_t e = 0; e < execs.size(); ++e)
            if (!claimed[e] && execs[e].core == core && sameCore(devices[size_t(list.front())], e))
                free.push_back(e);
        for (size_t k = 0; k < list.size() && k < free.size(); ++k)
            place(list[k], free[k],
                  "by order on NC " + std::to_string(core) + ": device trace " + std::to_string(k + 1) + " of " +
                      std::to_string(list.size()) + ", nc_exec_running " + std::to_string(k + 1) + " of " + std::to_string(free.size()));
    }
    return out;
}

std::vector<SystemProfileJoin::Link> SystemProfileJoin::frameworkLinks(const Trace &framework, const Trace &system, int64_t systemOffset)
{
    std::vector<Link> out;
    const std::vector<SystemProfileImporter::Event> calls = SystemProfileImporter::runtimeCalls(system);
    if (calls.empty())
        return out;
    const StringId skip1 = framework.strings().find("privateuse1_runtime");
    const StringId skip2 = framework.strings().find("privateuse1_driver");
    std::set<int64_t> pids;
    for (const Track &tr : framework.tracks())
        if (tr.sliceCount)
            pids.insert(processOf(framework, tr));
    std::map<std::pair<int64_t, int64_t>, std::vector<uint32_t>> tracks; // (pid, tid) -> tracks
    for (uint32_t ti = 0; ti < framework.tracks().size(); ++ti) {
        const Track &tr = framework.tracks()[ti];
        if (tr.kind == TrackKind::Slices && tr.sliceCount)
            tracks[{pids.size() == 1 ? -1 : processOf(framework, tr), tr.externalId}].push_back(ti);
    }
    for (const SystemProfileImporter::Event &c : calls) {
        if (c.thread < 0)
            continue;
        auto it = tracks.find({pids.size() == 1 ? -1 : c.pid, c.thread});
        if (it == tracks.end())
            continue;
        const int64_t start = c.start + systemOffset, end = c.end + systemOffset;
        uint32_t best = UINT32_MAX;
        uint16_t bestDepth = 0;
        for (uint32_t ti : it->second) {
            const Track &tr = framework.tracks()[ti];
            const auto sl = framework.slices(TrackId(ti));
            // Slices are sorted by start; those that can contain `start` begin at or before it and
            // no earlier than start - maxDuration.
            auto hi = std::upper_bound(sl.begin(), sl.end(), start, [](int64_t ts, const Slice &s) { return ts < s.start; });
            for (auto p = hi; p != sl.begin();) {
                --p;
                if (p->start < start - tr.maxDuration)
                    break;
                if (p->end() < end || p->category == skip1 || p->category == skip2)
                    continue;
                if (best == UINT32_MAX || p->depth > bestDepth) {
                    best = tr.sliceBegin + uint32_t(p - sl.begin());
                    bestDepth = p->depth;
                }
            }
        }
        if (best != UINT32_MAX)
            out.push_back({best, c.slice});
    }
    return out;
}

} // namespace lanescope
