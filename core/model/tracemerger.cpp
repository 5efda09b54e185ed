#include "tracemerger.h"

#include <algorithm>

namespace lanescope {

namespace {

constexpr uint64_t kCancelEvery = uint64_t(1) << 16;

} // namespace

bool TraceMerger::cancelled(const MergeOptions &options, uint64_t i) const
{
    return (i & (kCancelEvery - 1)) == 0 && options.cancel && options.cancel->load(std::memory_order_relaxed);
}

StringId TraceMerger::mapString(StringId id)
{
    if (!id.isValid() || id.value >= m_strings.size())
        return id.isValid() ? m_b.intern({}) : StringId();
    uint32_t &slot = m_strings[id.value];
    if (slot == 0)
        slot = m_b.intern(m_source->str(id)).value + 1;
    return StringId(slot - 1);
}

ArgSetId TraceMerger::mapArgs(ArgSetId id)
{
    if (!id.isValid() || id.value >= m_argSets.size())
        return {};
    uint32_t &slot = m_argSets[id.value];
    if (slot == 0) {
        const auto args = m_source->args().args(id);
        m_scratch.assign(args.begin(), args.end());
        for (Arg &a : m_scratch) {
            a.key = mapString(a.key);
            if (a.type == ArgType::String || a.type == ArgType::Json)
                a.value.s = mapString(a.stringValue()).value;
        }
        const ArgSetId added = m_b.addArgs(m_scratch);
        slot = added.isValid() ? added.value + 1 : 0;
        return added;
    }
    return ArgSetId(slot - 1);
}

MergeResult TraceMerger::append(const Trace &source, const MergeOptions &options)
{
    MergeResult result;
    m_source = &source;
    m_strings.assign(source.strings().size(), 0);
    m_argSets.assign(source.args().setCount(), 0);

    // Groups: depth from the root decides whether a group is copied or collapsed into its parent.
    const auto groups = source.groups();
    std::vector<int> depth(groups.size(), -1);
    auto depthOf = [&](uint32_t g) {
        int d = 0;
        for (GroupId p = groups[g].parent; p.isValid() && p.value < groups.size() && d <= int(groups.size()); p = groups[p.value].parent)
            ++d;
        return d;
    };
    for (uint32_t g = 0; g < groups.size(); ++g)
        depth[g] = depthOf(g);
    // Parents may come after their children in the source: resolve in depth order.
    std::vector<uint32_t> order(groups.size());
    for (uint32_t g = 0; g < order.size(); ++g)
        order[g] = g;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return depth[a] < depth[b]; });
    result.groups.assign(groups.size(), options.parent);
    for (uint32_t g : order) {
        const TrackGroup &src = groups[g];
        const GroupId parent = src.parent.isValid() && src.parent.value < groups.size() ? result.groups[src.parent.value]
                                                                                          : options.parent;
        if (depth[g] < options.skipGroupLevels) {
            result.groups[g] = parent;
            continue;
        }
        const StringId name = mapString(src.name);
        const auto key = std::make_tuple(parent.value, uint8_t(src.kind), name.value);
        if (options.shareLanes)
            if (const auto it = m_sharedGroups.find(key); it != m_sharedGroups.end()) {
                result.groups[g] = GroupId(it->second);
                continue;
            }
        const GroupId id = m_b.addGroup(src.kind, name, parent, src.externalId);
        if (options.shareLanes)
            m_sharedGroups.emplace(key, id.value);
        TrackGroup &dst = m_b.group(id);
        dst.sortIndex = src.sortIndex;
        dst.labels = mapString(src.labels);
        result.groups[g] = id;
    }

    const auto tracks = source.tracks();
    result.tracks.reserve(tracks.size());
    for (const Track &src : tracks) {
        const GroupId group = src.group.isValid() && src.group.value < groups.size() ? result.groups[src.group.value]
                                                                                       : options.parent;
        const StringId name = mapString(src.name);
        const auto key = std::make_tuple(group.value, uint8_t(src.kind), name.value);
        if (options.shareLanes)
            if (const auto it = m_sharedTracks.find(key); it != m_sharedTracks.end()) {
                result.tracks.push_back(TrackId(it->second));
                continue;
            }
        const TrackId id = m_b.addTrack(group, src.kind, name, src.externalId);
        if (options.shareLanes)
            m_sharedTracks.emplace(key, id.value);
        Track &dst = m_b.track(id);
        dst.sortIndex = src.sortIndex;
        dst.unit = mapString(src.unit);
        result.tracks.push_back(id);
    }

    // Slices in source index order, so provisional index = firstSlice + source index.
    const auto slices = source.allSlices();
    std::vector<uint32_t> trackOf(slices.size(), 0);
    for (uint32_t t = 0; t < tracks.size(); ++t)
        std::fill_n(trackOf.begin() + tracks[t].sliceBegin,
                    std::min<size_t>(tracks[t].sliceCount, slices.size() - std::min<size_t>(slices.size(), tracks[t].sliceBegin)),
                    t);
    result.firstSlice = static_cast<uint32_t>(m_b.sliceCount());
    m_b.reserveSlices(m_b.sliceCount() + slices.size());
    for (uint32_t i = 0; i < slices.size(); ++i) {
        if (cancelled(options, i)) {
            result.cancelled = true;
            return result;
        }
        const Slice &s = slices[i];
        m_b.addSlice(result.tracks[trackOf[i]], s.start + options.timeOffsetNs, s.duration, mapString(s.name),
                     mapString(s.category), mapArgs(s.args), s.flags);
    }
    result.sliceCount = static_cast<uint32_t>(slices.size());

    uint64_t n = 0;
    for (uint32_t t = 0; t < tracks.size(); ++t) {
        const TrackId dst = result.tracks[t];
        for (const Instant &in : source.instants(TrackId(t))) {
            if (cancelled(options, ++n)) {
                result.cancelled = true;
                return result;
            }
            m_b.addInstant(dst, in.ts + options.timeOffsetNs, mapString(in.name), mapString(in.category),
                           mapArgs(in.args), in.scope);
        }
        for (const CounterSample &c : source.counterSamples(TrackId(t))) {
            if (cancelled(options, ++n)) {
                result.cancelled = true;
                return result;
            }
            m_b.addCounterSample(dst, c.ts + options.timeOffsetNs, c.value);
        }
    }

    for (const Flow &f : source.flows()) {
        if (!f.from.isValid() || !f.to.isValid() || f.from.value >= slices.size() || f.to.value >= slices.size())
            continue;
        m_b.addFlow(FlowEnd::slice(result.firstSlice + f.from.value), FlowEnd::slice(result.firstSlice + f.to.value),
                    mapString(f.category), mapString(f.name), f.externalId);
    }

    for (const Warning &w : source.diagnostics().warnings()) {
        if (w.message == TraceBuilder::kOverlapWarning)
            continue; // TraceBuilder::finish() counts it again over the merged trace
        m_b.diagnostics().report(w.severity, options.diagnosticsPrefix + w.message, w.firstSeen, w.count);
    }

    if (options.mergeStats) {
        ImportStats &st = m_b.stats();
        st.eventsRead += source.stats().eventsRead;
        st.bytesRead += source.stats().bytesRead;
        for (const auto &[k, v] : source.stats().phases)
            st.phases[k] += v;
        for (const auto &[k, v] : source.stats().categories)
            st.categories[k] += v;
    }
    TraceMetadata &md = m_b.metadata();
    md.synthetic = md.synthetic || source.metadata().synthetic;
    if (options.copyMetadata)
        for (const auto &[k, v] : source.metadata().entries)
            md.entries.emplace_back(options.metadataPrefix + k, v);

    m_source = nullptr;
    m_strings.clear();
    m_argSets.clear();
    return result;
}

} // namespace lanescope
