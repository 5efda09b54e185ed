#include "clockalignment.h"

#include "util/textutil.h"

#include <algorithm>
#include <map>
#include <set>

namespace lanescope {

namespace {

struct Event : ClockAlignment::HostExecution
{
    bool claimed = false;
};

} // namespace

std::vector<ClockAlignment::HostExecution> ClockAlignment::hostExecutions(const Trace &t, int host)
{
    std::vector<HostExecution> out;
    const StringId runtime = t.strings().find("privateuse1_runtime");
    const StringId driver = t.strings().find("privateuse1_driver");
    if (!runtime.isValid() && !driver.isValid())
        return out;
    for (uint32_t ti = 0; ti < t.tracks().size(); ++ti) {
        const Track &tr = t.tracks()[ti];
        int64_t pid = -1;
        for (GroupId g = tr.group; g.isValid(); g = t.group(g).parent)
            if (t.group(g).kind == GroupKind::Process)
                pid = t.group(g).externalId;
        const auto slices = t.slices(TrackId(ti));
        for (uint32_t i = 0; i < slices.size(); ++i) {
            const Slice &s = slices[i];
            const bool isRuntime = runtime.isValid() && s.category == runtime;
            if (!isRuntime && !(driver.isValid() && s.category == driver))
                continue;
            HostExecution e;
            e.host = host;
            e.slice = tr.sliceBegin + i;
            e.start = s.start;
            e.pid = pid;
            e.name = std::string(t.str(s.name));
            e.text = text::lower(e.name);
            for (const Arg &a : t.args().args(s.args)) {
                e.text += ' ';
                if (a.type == ArgType::String || a.type == ArgType::Json)
                    e.text += text::lower(t.str(a.stringValue()));
                else if (a.type == ArgType::Int)
                    e.text += std::to_string(a.value.i);
                else if (a.type == ArgType::UInt)
                    e.text += std::to_string(a.value.u);
            }
            e.tier = !isRuntime ? 2 : text::lower(e.name).find("exec") != std::string::npos ? 0 : 1;
            out.push_back(std::move(e));
        }
    }
    return out;
}

std::vector<ClockAlignment::Placement> ClockAlignment::align(const std::vector<HostTrace> &hostTraces,
                                                             std::vector<HostExecution> executions,
                                                             const std::vector<Device> &devices)
{
    std::vector<Placement> out(devices.size());
    for (size_t i = 0; i < devices.size(); ++i)
        if (devices[i].synced)
            out[i] = {devices[i].syncApproximate ? AlignmentRule::Identity : AlignmentRule::SyncPoint, devices[i].syncOffset, -1, 0,
                      devices[i].syncNote};
    if (hostTraces.empty() && std::none_of(devices.begin(), devices.end(), [](const Device &d) { return d.synced; })) {
        // Device profiles only: one after another in the order given, a gap apart.
        int64_t longest = 0;
        for (const Device &d : devices)
            longest = std::max(longest, d.last - d.first);
        const int64_t gap = std::max(kSequenceGapMinNs, longest / 10);
        int64_t at = 0;
        for (size_t i = 0; i < devices.size(); ++i) {
            out[i].rule = AlignmentRule::Sequence;
            out[i].offset = at - devices[i].first;
            out[i].note = "sequence: no framework or system trace; device trace " + std::to_string(i + 1) + " of " +
                          std::to_string(devices.size()) + " in folder order, starting at +" + std::to_string(at) +
                          " ns, a gap of " + std::to_string(gap) + " ns after the previous one";
            at += std::max<int64_t>(0, devices[i].last - devices[i].first) + gap;
        }
        return out;
    }
    std::vector<Event> events;
    events.reserve(executions.size());
    for (HostExecution &e : executions)
        events.push_back({std::move(e), false});

    auto sameGroupHosts = [&](const Device &d) {
        std::set<int> hosts;
        for (const HostTrace &h : hostTraces)
            if (h.group == d.group)
                hosts.insert(h.id);
        return hosts;
    };
    // Identity matches are specific enough to look in every framework trace when none shares the folder.
    auto identityHosts = [&](const Device &d) {
        std::set<int> hosts = sameGroupHosts(d);
        if (hosts.empty())
            for (const HostTrace &h : hostTraces)
                hosts.insert(h.id);
        return hosts;
    };
    // A device timeline placed by the sync points keeps that placement: its host event only links it
    // (the framework trace's runtime call -> the device timeline), so analyses find the launching op.
    auto place = [&](size_t di, const Event &e, AlignmentRule rule, const std::string &how) {
        Placement &p = out[di];
        p.host = e.host;
        p.hostSlice = e.slice;
        if (devices[di].synced)
            return;
        p.rule = rule;
        p.offset = e.start;
        p.note = "approximate: placed at " + e.name + " ts=" + std::to_string(e.start) + " (" + how + ")";
    };
    auto unplaced = [&](size_t di, const std::string &why) {
        if (!devices[di].synced)
            out[di].note = "none: own clock, 0 = start of this device trace (" + why + ")";
    };

    // 1. By identity: the hash or uuid appears in the event.
    std::map<std::string, std::vector<size_t>> byKey; // devices of one NEFF on one core, in order
    std::set<size_t> matchedByIdentity;
    for (size_t di = 0; di < devices.size(); ++di) {
        const Device &d = devices[di];
        if (d.tokens.empty())
            continue;
        const std::set<int> hosts = identityHosts(d);
        bool any = false;
        for (const Event &e : events)
            if (hosts.count(e.host))
                for (const std::string &t : d.tokens)
                    any = any || text::hasToken(e.text, t);
        if (any)
            byKey[d.key].push_back(di);
    }
    for (auto &[key, list] : byKey) {
        const Device &first = devices[list.front()];
        const std::set<int> hosts = identityHosts(first);
        std::vector<Event *> matches;
        std::string matchedToken;
        for (Event &e : events) {
            if (!hosts.count(e.host))
                continue;
            for (const std::string &t : first.tokens)
                if (text::hasToken(e.text, t)) {
                    matches.push_back(&e);
                    if (matchedToken.empty())
                        matchedToken = t;
                    break;
                }
        }
        int tier = 3;
        for (const Event *e : matches)
            tier = std::min(tier, e->tier);
        std::erase_if(matches, [tier](const Event *e) { return e->tier != tier; });
        std::stable_sort(matches.begin(), matches.end(), [](const Event *a, const Event *b) { return a->start < b->start; });
        const std::string what = matchedToken.size() == 32 || matchedToken.size() == 36 ? "uuid " : "NEFF hash ";
        for (size_t k = 0; k < list.size(); ++k) {
            matchedByIdentity.insert(list[k]);
            if (k >= matches.size()) {
                unplaced(list[k], std::to_string(list.size()) + " device traces but only " + std::to_string(matches.size()) +
                                      " host execution events carry " + what + matchedToken);
                continue;
            }
            matches[k]->claimed = true;
            place(list[k], *matches[k], AlignmentRule::Identity,
                  "the " + what + matchedToken + " appears in the event; execution " + std::to_string(k + 1) + " of " +
                      std::to_string(matches.size()) + " carrying it");
        }
    }

    // 2. By order: remaining device timelines and unclaimed execution events of the same process folder.
    std::map<int, std::vector<size_t>> byGroup;
    for (size_t di = 0; di < devices.size(); ++di)
        if (!matchedByIdentity.count(di))
            byGroup[devices[di].group].push_back(di);
    for (auto &[group, list] : byGroup) {
        const std::set<int> hosts = sameGroupHosts(devices[list.front()]);
        if (hosts.empty()) {
            for (size_t di : list)
                unplaced(di, "no framework trace in its process folder");
            continue;
        }
        const int64_t pid = devices[list.front()].pid;
        std::vector<Event *> candidates;
        for (int tier : {0, 2}) {
            for (Event &e : events)
                if (hosts.count(e.host) && !e.claimed && e.tier == tier)
                    candidates.push_back(&e);
            if (!candidates.empty())
                break;
        }
        if (pid >= 0 && std::any_of(candidates.begin(), candidates.end(), [pid](const Event *e) { return e->pid == pid; }))
            std::erase_if(candidates, [pid](const Event *e) { return e->pid != pid; });
        std::stable_sort(candidates.begin(), candidates.end(), [](const Event *a, const Event *b) { return a->start < b->start; });
        for (size_t k = 0; k < list.size(); ++k) {
            if (k >= candidates.size()) {
                unplaced(list[k], candidates.empty() ? std::string("the framework trace has no privateuse1 execution events")
                                                     : "more device traces (" + std::to_string(list.size()) +
                                                           ") than unmatched execution events (" +
                                                           std::to_string(candidates.size()) + ")");
                continue;
            }
            candidates[k]->claimed = true;
            place(list[k], *candidates[k], AlignmentRule::Order,
                  "by order: device trace " + std::to_string(k + 1) + " of " + std::to_string(list.size()) +
                      ", execution event " + std::to_string(k + 1) + " of " + std::to_string(candidates.size()) +
                      " without a hash or uuid match");
        }
    }
    return out;
}

const char *ClockAlignment::ruleName(AlignmentRule r)
{
    switch (r) {
    case AlignmentRule::SyncPoint: return "sync-point";
    case AlignmentRule::Identity: return "identity";
    case AlignmentRule::Order: return "order";
    case AlignmentRule::Sequence: return "sequence";
    case AlignmentRule::None: break;
    }
    return "none";
}

} // namespace lanescope
