#include "tracecomparison.h"

#include "model/tracebuilder.h"
#include "model/tracemerger.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace lanescope {

namespace {

// Long digit runs (pids, tids, hashes) become '#'; short numbers (stream 7, Q1-E0, NeuronCore 0) stay.
std::string generic(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        if (s[i] >= '0' && s[i] <= '9') {
            size_t j = i;
            while (j < s.size() && s[j] >= '0' && s[j] <= '9')
                ++j;
            if (j - i >= 3)
                out += '#';
            else
                out.append(s.substr(i, j - i));
            i = j;
        } else {
            out += s[i++];
        }
    }
    // Trailing blanks differ between producers ("stream 0 " vs "stream 0").
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

struct LaneRef
{
    uint32_t profile = 0;
    uint32_t track = 0;
};

// A set of lanes that face each other: at most one lane per profile.
struct MatchSet
{
    std::vector<int64_t> trackOf; // per profile: source track index or -1
    bool byRole = false;
    bool alive = true;

    int members() const
    {
        return int(std::count_if(trackOf.begin(), trackOf.end(), [](int64_t t) { return t >= 0; }));
    }
    int onlyProfile() const
    {
        for (size_t p = 0; p < trackOf.size(); ++p)
            if (trackOf[p] >= 0)
                return int(p);
        return -1;
    }
};

uint64_t eventCount(const Track &t)
{
    return uint64_t(t.sliceCount) + t.instantCount + t.counterCount;
}

std::string profileName(const Trace &t, size_t index)
{
    const std::string &path = t.metadata().sourcePath;
    const size_t slash = path.find_last_of('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    return name.empty() ? "profile " + std::to_string(index + 1) : name;
}

} // namespace

std::string TraceComparison::defaultLabel(size_t profileIndex)
{
    return profileIndex < 26 ? std::string(1, char('A' + profileIndex)) : "P" + std::to_string(profileIndex + 1);
}

std::string TraceComparison::laneKey(const Trace &trace, TrackId track)
{
    const Track &t = trace.track(track);
    std::string key;
    for (GroupId g = t.group; g.isValid() && g.value < trace.groups().size(); g = trace.group(g).parent) {
        key.insert(0, generic(trace.str(trace.group(g).name)) + " / ");
        if (key.size() > 4096)
            break; // a cyclic group chain in a hostile file
    }
    return key + generic(trace.str(t.name));
}

std::string TraceComparison::laneRole(const Trace &trace, TrackId track)
{
    const Track &t = trace.track(track);
    if (t.kind == TrackKind::Counter)
        return "counter";
    const std::string_view name = trace.str(t.name);
    static constexpr std::string_view kEngines[] = {"Tensor", "TensorMatrix", "Vector", "Scalar", "GpSimd", "Sync"};
    for (std::string_view e : kEngines)
        if (name == e)
            return "engine " + std::string(e);
    if (startsWith(name, "thread"))
        return "thread";
    if (startsWith(name, "stream"))
        return "stream";
    if (name.find("-Q") != std::string_view::npos && name.find("-E") != std::string_view::npos)
        return "dma";
    if (startsWith(name, "Q") && name.find("-E") != std::string_view::npos)
        return "dma";
    return "other";
}

bool TraceComparison::anchorTime(const Trace &trace, const CompareAnchor &anchor, size_t profileIndex, int64_t &ts)
{
    switch (anchor.kind) {
    case CompareAnchor::Kind::Start:
        ts = trace.startNs();
        return true;
    case CompareAnchor::Kind::Slices: {
        if (profileIndex >= anchor.slices.size())
            return false;
        const SliceId id = anchor.slices[profileIndex];
        if (!id.isValid() || id.value >= trace.allSlices().size())
            return false;
        ts = trace.slice(id).start;
        return true;
    }
    case CompareAnchor::Kind::Times:
        if (profileIndex >= anchor.times.size())
            return false;
        ts = anchor.times[profileIndex];
        return true;
    case CompareAnchor::Kind::Step:
    case CompareAnchor::Kind::Marker: {
        const std::string name = anchor.kind == CompareAnchor::Kind::Step ? "ProfilerStep#" + std::to_string(anchor.step)
                                                                           : anchor.marker;
        const StringId id = trace.strings().find(name);
        if (!id.isValid())
            return false;
        bool found = false;
        for (const Slice &s : trace.allSlices())
            if (s.name == id && (!found || s.start < ts)) {
                ts = s.start;
                found = true;
            }
        for (const Instant &in : trace.allInstants())
            if (in.name == id && (!found || in.ts < ts)) {
                ts = in.ts;
                found = true;
            }
        return found;
    }
    }
    return false;
}

bool TraceComparison::matchingAnchor(const ComparisonResult &comparison, SliceId combinedSlice, CompareAnchor &anchor,
                                     std::string *error)
{
    const Trace *c = comparison.combined.get();
    if (!c || !combinedSlice.isValid() || combinedSlice.value >= c->allSlices().size()) {
        if (error)
            *error = "no event selected";
        return false;
    }
    const size_t profiles = comparison.offsetsNs.size();
    std::vector<int32_t> profileOfTrack(c->tracks().size(), -1);
    for (const ComparedLane &l : comparison.lanes)
        if (l.combined.value < profileOfTrack.size())
            profileOfTrack[l.combined.value] = int32_t(l.profile);
    const Slice &picked = c->slice(combinedSlice);
    const int32_t pickedProfile = profileOfTrack[c->trackOfSlice(combinedSlice).value];
    if (pickedProfile < 0) {
        if (error)
            *error = "the selected event belongs to no profile";
        return false;
    }
    // Slices of that name per profile, in combined time order (ties by id, as the timeline steps).
    std::vector<std::vector<std::pair<int64_t, uint32_t>>> byProfile(profiles);
    for (uint32_t t = 0; t < c->tracks().size(); ++t) {
        if (profileOfTrack[t] < 0)
            continue;
        const Track &track = c->tracks()[t];
        for (uint32_t i = 0; i < track.sliceCount; ++i) {
            const uint32_t id = track.sliceBegin + i;
            if (c->allSlices()[id].name == picked.name)
                byProfile[size_t(profileOfTrack[t])].emplace_back(c->allSlices()[id].start, id);
        }
    }
    for (auto &v : byProfile)
        std::sort(v.begin(), v.end());
    const auto &mine = byProfile[size_t(pickedProfile)];
    const size_t k = size_t(std::find_if(mine.begin(), mine.end(), [&](const auto &p) { return p.second == combinedSlice.value; })
                            - mine.begin());
    anchor = CompareAnchor{};
    anchor.kind = CompareAnchor::Kind::Times;
    for (size_t p = 0; p < profiles; ++p) {
        if (k >= byProfile[p].size()) {
            if (error)
                *error = "profile " + (p < comparison.labels.size() ? comparison.labels[p] : defaultLabel(p)) + " has only " + std::to_string(byProfile[p].size()) + " \""
                    + std::string(c->str(picked.name)) + "\" event(s), the selection is number " + std::to_string(k + 1);
            return false;
        }
        anchor.times.push_back(byProfile[p][k].first - comparison.offsetsNs[p]);
    }
    return true;
}

ComparisonResult TraceComparison::build(const std::vector<std::shared_ptr<const Trace>> &profiles,
                                        const CompareOptions &options)
{
    if (profiles.size() < 2)
        throw std::runtime_error("a comparison needs at least two profiles");
    for (size_t p = 0; p < profiles.size(); ++p)
        if (!profiles[p])
            throw std::runtime_error("profile " + defaultLabel(p) + " is missing");
    const size_t n = profiles.size();
    std::vector<std::string> labels(n);
    for (size_t p = 0; p < n; ++p)
        labels[p] = p < options.labels.size() && !options.labels[p].empty() ? options.labels[p] : defaultLabel(p);

    ComparisonResult result;
    result.labels = labels;
    result.offsetsNs.resize(n);
    for (size_t p = 0; p < n; ++p) {
        int64_t anchor = 0;
        if (!anchorTime(*profiles[p], options.anchor, p, anchor)) {
            std::string what = options.anchor.kind == CompareAnchor::Kind::Step
                ? "no slice named ProfilerStep#" + std::to_string(options.anchor.step)
                : options.anchor.kind == CompareAnchor::Kind::Marker ? "no slice or instant named \"" + options.anchor.marker + "\""
                                                                      : "no anchor slice chosen";
            throw std::runtime_error("profile " + labels[p] + " (" + profileName(*profiles[p], p) + "): " + what);
        }
        const int64_t nudge = p < options.nudgeNs.size() ? options.nudgeNs[p] : 0;
        result.offsetsNs[p] = nudge - anchor;
    }

    // Pass 1: lanes with equal keys (the n-th occurrence of a key meets the n-th occurrence).
    std::vector<MatchSet> sets;
    std::map<std::string, uint32_t> setOfKey;
    std::vector<std::vector<uint32_t>> setOfTrack(n);
    for (size_t p = 0; p < n; ++p) {
        const Trace &t = *profiles[p];
        std::unordered_map<std::string, uint32_t> occurrences;
        setOfTrack[p].assign(t.tracks().size(), UINT32_MAX);
        for (uint32_t i = 0; i < t.tracks().size(); ++i) {
            if (eventCount(t.tracks()[i]) == 0)
                continue;
            std::string key = laneKey(t, TrackId(i));
            key += "#" + std::to_string(occurrences[key]++);
            auto [it, inserted] = setOfKey.try_emplace(key, uint32_t(sets.size()));
            if (inserted || sets[it->second].trackOf[p] >= 0) {
                it->second = uint32_t(sets.size());
                sets.push_back(MatchSet{std::vector<int64_t>(n, -1)});
            }
            sets[it->second].trackOf[p] = i;
            setOfTrack[p][i] = it->second;
        }
    }

    // Pass 2: what is left alone meets a lone lane of the same role, busiest with busiest.
    std::map<std::string, std::vector<std::vector<uint32_t>>> lonelyByRole; // role -> per profile -> sets
    for (uint32_t s = 0; s < sets.size(); ++s) {
        if (sets[s].members() != 1)
            continue;
        const int p = sets[s].onlyProfile();
        auto &perProfile = lonelyByRole[laneRole(*profiles[p], TrackId(uint32_t(sets[s].trackOf[p])))];
        perProfile.resize(n);
        perProfile[p].push_back(s);
    }
    for (auto &[role, perProfile] : lonelyByRole) {
        for (size_t p = 0; p < n; ++p)
            std::stable_sort(perProfile[p].begin(), perProfile[p].end(), [&](uint32_t a, uint32_t b) {
                const Trace &t = *profiles[p];
                return eventCount(t.tracks()[sets[a].trackOf[p]]) > eventCount(t.tracks()[sets[b].trackOf[p]]);
            });
        size_t longest = 0;
        for (const auto &v : perProfile)
            longest = std::max(longest, v.size());
        for (size_t k = 0; k < longest; ++k) {
            int64_t target = -1;
            for (size_t p = 0; p < n; ++p) {
                if (k >= perProfile[p].size())
                    continue;
                const uint32_t s = perProfile[p][k];
                if (target < 0) {
                    target = s;
                    continue;
                }
                sets[target].trackOf[p] = sets[s].trackOf[p];
                sets[target].byRole = true;
                setOfTrack[p][uint32_t(sets[s].trackOf[p])] = uint32_t(target);
                sets[s].alive = false;
            }
        }
    }

    // The combined trace: A's groups are the frame; every other profile is copied below a group
    // "only in B", and its lanes that have a partner in A move next to that partner.
    TraceBuilder b;
    TraceMerger merger(b);
    std::vector<MergeResult> merged(n);
    std::vector<GroupId> onlyGroup(n);
    for (size_t p = 0; p < n; ++p) {
        MergeOptions mo;
        mo.timeOffsetNs = result.offsetsNs[p];
        mo.diagnosticsPrefix = labels[p] + ": ";
        mo.metadataPrefix = labels[p] + ".";
        if (p > 0) {
            onlyGroup[p] = b.addGroup(GroupKind::Global, b.intern("only in " + labels[p] + " · " + profileName(*profiles[p], p)));
            b.group(onlyGroup[p]).sortIndex = (int64_t(1) << 50) + int64_t(p);
            mo.parent = onlyGroup[p];
        }
        merged[p] = merger.append(*profiles[p], mo);
    }

    // Order of A's lanes inside each group (as the timeline sorts them), so partners sit right below.
    const Trace &a = *profiles[0];
    std::vector<int64_t> rankInGroup(a.tracks().size(), 0);
    {
        std::vector<uint32_t> order(a.tracks().size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
            const Track &tx = a.tracks()[x], &ty = a.tracks()[y];
            if (tx.group.value != ty.group.value)
                return tx.group.value < ty.group.value;
            if (tx.sortIndex != ty.sortIndex)
                return tx.sortIndex < ty.sortIndex;
            return tx.externalId < ty.externalId;
        });
        int64_t rank = 0;
        for (size_t i = 0; i < order.size(); ++i) {
            if (i > 0 && a.tracks()[order[i]].group.value != a.tracks()[order[i - 1]].group.value)
                rank = 0;
            rankInGroup[order[i]] = rank++;
        }
    }

    for (size_t p = 0; p < n; ++p) {
        const Trace &t = *profiles[p];
        for (uint32_t i = 0; i < t.tracks().size(); ++i) {
            const TrackId combined = merged[p].tracks[i];
            Track &track = b.track(combined);
            const uint32_t s = setOfTrack[p][i];
            ComparedLane lane{combined, uint32_t(p), TrackId(i)};
            const bool partnered = s != UINT32_MAX && sets[s].members() > 1;
            std::string name = labels[p] + " · " + std::string(t.str(t.tracks()[i].name));
            if (partnered) {
                lane.matchSet = int32_t(s);
                lane.matchedByRole = sets[s].byRole;
                const int64_t aTrack = sets[s].trackOf[0];
                if (p == 0) {
                    track.sortIndex = rankInGroup[i] * 64;
                } else if (aTrack >= 0) {
                    const Track &partner = b.track(merged[0].tracks[uint32_t(aTrack)]);
                    track.group = partner.group;
                    track.sortIndex = rankInGroup[uint32_t(aTrack)] * 64 + int64_t(std::min<size_t>(p, 63));
                }
                if (sets[s].byRole && aTrack >= 0 && p > 0)
                    name += "  (as " + std::string(a.str(a.tracks()[uint32_t(aTrack)].name)) + ")";
            } else if (s != UINT32_MAX) {
                ++result.unmatchedLanes;
                if (p == 0)
                    track.sortIndex = rankInGroup[i] * 64;
                name += "  — only in " + labels[p];
            } else if (p == 0) {
                track.sortIndex = rankInGroup[i] * 64;
            }
            track.name = b.intern(name);
            result.lanes.push_back(lane);
        }
    }
    for (const MatchSet &s : sets)
        if (s.alive && s.members() > 1)
            ++result.matchedSets;

    TraceMetadata &md = b.metadata();
    md.format = "comparison";
    for (size_t p = 0; p < n; ++p) {
        md.entries.emplace_back("compare." + labels[p] + ".source", profiles[p]->metadata().sourcePath);
        md.entries.emplace_back("compare." + labels[p] + ".offset_ns", std::to_string(result.offsetsNs[p]));
    }
    md.sourcePath = profiles[0]->metadata().sourcePath;
    result.combined = std::make_shared<const Trace>(b.finish());
    return result;
}

} // namespace lanescope
