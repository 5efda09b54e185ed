#include "trace.h"

#include "depthindex.h"

#include <algorithm>
#include <mutex>

namespace lanescope {

const std::string *TraceMetadata::find(std::string_view key) const
{
    for (const auto &[k, v] : entries)
        if (k == key)
            return &v;
    return nullptr;
}

struct Trace::DepthCache
{
    std::mutex mutex;
    std::shared_ptr<const DepthTables> tables;
};

Trace::Trace() : m_depth(std::make_unique<DepthCache>()) {}
Trace::~Trace() = default;
Trace::Trace(Trace &&) noexcept = default;
Trace &Trace::operator=(Trace &&) noexcept = default;

std::shared_ptr<const DepthTables> Trace::depthTables() const
{
    if (!m_depth) // a moved-from trace: nothing to keep them in
        return std::make_shared<const DepthTables>(DepthTables::build(*this));
    const std::lock_guard lock(m_depth->mutex);
    if (!m_depth->tables)
        m_depth->tables = std::make_shared<const DepthTables>(DepthTables::build(*this));
    return m_depth->tables;
}

bool Trace::hasDepthTables() const
{
    if (!m_depth)
        return false;
    const std::lock_guard lock(m_depth->mutex);
    return m_depth->tables != nullptr;
}

void Trace::setDepthTables(std::shared_ptr<const DepthTables> tables) const
{
    if (!m_depth)
        return;
    const std::lock_guard lock(m_depth->mutex);
    m_depth->tables = std::move(tables);
}

std::string Trace::groupPath(GroupId id) const
{
    std::vector<std::string_view> parts;
    for (GroupId g = id; g.isValid(); g = m_groups[g.value].parent)
        parts.push_back(str(m_groups[g.value].name));
    std::string out;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        if (!out.empty())
            out += " / ";
        out += *it;
    }
    return out;
}

std::string Trace::trackPath(TrackId id) const
{
    const Track &t = track(id);
    std::string out = groupPath(t.group);
    if (!out.empty())
        out += " / ";
    out += str(t.name);
    return out;
}

std::span<const Slice> Trace::slices(TrackId id) const
{
    const Track &t = m_tracks[id.value];
    return std::span<const Slice>(m_slices.data() + t.sliceBegin, t.sliceCount);
}

std::span<const Instant> Trace::instants(TrackId id) const
{
    const Track &t = m_tracks[id.value];
    return std::span<const Instant>(m_instants.data() + t.instantBegin, t.instantCount);
}

std::span<const CounterSample> Trace::counterSamples(TrackId id) const
{
    const Track &t = m_tracks[id.value];
    return std::span<const CounterSample>(m_counters.data() + t.counterBegin, t.counterCount);
}

TrackId Trace::trackOfSlice(SliceId id) const
{
    auto it = std::upper_bound(m_trackBySliceBegin.begin(), m_trackBySliceBegin.end(), id.value,
                               [this](uint32_t v, uint32_t track) { return v < m_tracks[track].sliceBegin; });
    if (it == m_trackBySliceBegin.begin())
        return {};
    return TrackId(*(it - 1));
}

SliceId Trace::parent(SliceId id) const
{
    const Slice &s = m_slices[id.value];
    if (s.depth == 0)
        return {};
    const Track &t = m_tracks[trackOfSlice(id).value];
    for (uint32_t i = id.value; i-- > t.sliceBegin;) {
        const Slice &c = m_slices[i];
        if (c.depth + 1 == s.depth && c.start <= s.start && c.end() >= s.end())
            return SliceId(i);
        if (c.start + t.maxDuration < s.start)
            break;
    }
    return {};
}

std::pair<uint32_t, uint32_t> Trace::sliceRange(TrackId track, int64_t t0, int64_t t1) const
{
    const auto s = slices(track);
    const int64_t from = t0 - m_tracks[track.value].maxDuration;
    auto first = std::lower_bound(s.begin(), s.end(), from, [](const Slice &a, int64_t v) { return a.start < v; });
    auto last = std::upper_bound(first, s.end(), t1, [](int64_t v, const Slice &a) { return v < a.start; });
    return {static_cast<uint32_t>(first - s.begin()), static_cast<uint32_t>(last - s.begin())};
}

static std::vector<FlowId> flowLookup(std::span<const std::pair<uint32_t, uint32_t>> index, SliceId id)
{
    std::vector<FlowId> out;
    auto it = std::lower_bound(index.begin(), index.end(), std::make_pair(id.value, 0u));
    for (; it != index.end() && it->first == id.value; ++it)
        out.emplace_back(it->second);
    return out;
}

std::vector<FlowId> Trace::flowsFrom(SliceId id) const { return flowLookup(m_flowsBySource, id); }
std::vector<FlowId> Trace::flowsTo(SliceId id) const { return flowLookup(m_flowsByTarget, id); }

size_t Trace::sliceResidentBytes() const
{
    return m_slices.capacity() * sizeof(Slice) + m_trackBySliceBegin.capacity() * sizeof(uint32_t);
}

size_t Trace::memoryUsage() const
{
    return sliceResidentBytes() + m_strings.memoryUsage() + m_args.memoryUsage()
        + m_instants.capacity() * sizeof(Instant) + m_counters.capacity() * sizeof(CounterSample)
        + m_flows.capacity() * sizeof(Flow) + (m_flowsBySource.capacity() + m_flowsByTarget.capacity()) * 8
        + m_tracks.capacity() * sizeof(Track) + m_groups.capacity() * sizeof(TrackGroup);
}

} // namespace lanescope
