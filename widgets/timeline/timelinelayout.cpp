#include "timelinelayout.h"

#include "model/trace.h"

#include <algorithm>

namespace lanescope {

namespace {

constexpr int kMaxGroupNesting = 64; // protects against parent cycles in malformed input

bool trackHasEvents(const Track &t)
{
    return t.sliceCount || t.instantCount || t.counterCount;
}

} // namespace

void TimelineLayout::clear()
{
    m_trace = nullptr;
    m_state = State();
    resetRows();
}

void TimelineLayout::resetRows()
{
    m_rows.clear();
    m_rowOfTrack.clear();
    m_childGroups.clear();
    m_groupTracks.clear();
    m_rootGroups.clear();
    m_ungroupedTracks.clear();
    m_totalHeight = 0;
    m_laneCount = 0;
    m_pinnedHeight = 0;
    m_pinnedRowCount = 0;
}

void TimelineLayout::build(const Trace *trace)
{
    if (trace != m_trace)
        m_state = State();
    m_trace = trace;
    relayout();
}

void TimelineLayout::relayout()
{
    resetRows();
    const Trace *trace = m_trace;
    if (!trace)
        return;
    const auto groups = trace->groups();
    const auto tracks = trace->tracks();
    m_childGroups.assign(groups.size(), {});
    m_groupTracks.assign(groups.size(), {});
    for (uint32_t g = 0; g < groups.size(); ++g) {
        const GroupId parent = groups[g].parent;
        if (parent.isValid() && parent.value < groups.size() && parent.value != g)
            m_childGroups[parent.value].push_back(g);
        else
            m_rootGroups.push_back(g);
    }
    std::set<uint32_t> pinned(m_state.pinned.begin(), m_state.pinned.end());
    for (uint32_t t = 0; t < tracks.size(); ++t) {
        if (!trackHasEvents(tracks[t]) || m_state.hidden.count(t) || pinned.count(t))
            continue;
        const GroupId g = tracks[t].group;
        if (g.isValid() && g.value < groups.size())
            m_groupTracks[g.value].push_back(t);
        else
            m_ungroupedTracks.push_back(t);
    }
    const auto groupLess = [&](uint32_t a, uint32_t b) {
        const TrackGroup &x = groups[a], &y = groups[b];
        if (x.sortIndex != y.sortIndex)
            return x.sortIndex < y.sortIndex;
        if (x.externalId != y.externalId)
            return x.externalId < y.externalId;
        return a < b;
    };
    const auto trackLess = [&](uint32_t a, uint32_t b) {
        // Tracks the user moved come in their rank order, before the others.
        const auto ra = m_state.rank.find(a), rb = m_state.rank.find(b);
        const bool hasA = ra != m_state.rank.end(), hasB = rb != m_state.rank.end();
        if (hasA != hasB)
            return hasA;
        if (hasA && ra->second != rb->second)
            return ra->second < rb->second;
        const Track &x = tracks[a], &y = tracks[b];
        if (x.sortIndex != y.sortIndex)
            return x.sortIndex < y.sortIndex;
        if (x.externalId != y.externalId)
            return x.externalId < y.externalId;
        return a < b;
    };
    std::sort(m_rootGroups.begin(), m_rootGroups.end(), groupLess);
    for (auto &v : m_childGroups)
        std::sort(v.begin(), v.end(), groupLess);
    for (auto &v : m_groupTracks)
        std::sort(v.begin(), v.end(), trackLess);
    std::sort(m_ungroupedTracks.begin(), m_ungroupedTracks.end(), trackLess);

    m_rowOfTrack.assign(tracks.size(), -1);
    for (uint32_t t : m_state.pinned)
        if (t < tracks.size() && trackHasEvents(tracks[t]) && !m_state.hidden.count(t))
            addTrack(t, 0, true);
    m_pinnedRowCount = int(m_rows.size());
    m_pinnedHeight = m_totalHeight;
    for (uint32_t t : m_ungroupedTracks)
        addTrack(t, 0);
    for (uint32_t g : m_rootGroups)
        addGroup(g, 0, 0);
}

bool TimelineLayout::hasContent(uint32_t group, int depthGuard) const
{
    if (depthGuard > kMaxGroupNesting)
        return false;
    if (!m_groupTracks[group].empty())
        return true;
    for (uint32_t c : m_childGroups[group])
        if (hasContent(c, depthGuard + 1))
            return true;
    return false;
}

void TimelineLayout::addGroup(uint32_t group, int level, int depthGuard)
{
    if (depthGuard > kMaxGroupNesting || !hasContent(group, depthGuard))
        return;
    Row row;
    row.kind = RowKind::Group;
    row.id = group;
    row.level = level;
    row.y = m_totalHeight;
    row.height = m_metrics.groupHeaderHeight;
    row.collapsed = isCollapsed(GroupId(group));
    m_rows.push_back(row);
    m_totalHeight += row.height;
    if (row.collapsed)
        return;
    for (uint32_t t : m_groupTracks[group])
        addTrack(t, level + 1);
    for (uint32_t c : m_childGroups[group])
        addGroup(c, level + 1, depthGuard + 1);
}

void TimelineLayout::addTrack(uint32_t track, int level, bool pinned)
{
    const Track &t = m_trace->tracks()[track];
    Row row;
    row.pinned = pinned;
    row.kind = RowKind::Track;
    row.id = track;
    row.level = level;
    row.y = m_totalHeight;
    if (t.kind == TrackKind::Counter || (t.counterCount && !t.sliceCount)) {
        row.height = m_metrics.counterHeight;
        const auto samples = m_trace->counterSamples(TrackId(track));
        if (!samples.empty()) {
            row.counterMin = row.counterMax = samples.front().value;
            for (const CounterSample &s : samples) {
                row.counterMin = std::min(row.counterMin, s.value);
                row.counterMax = std::max(row.counterMax, s.value);
            }
        }
    } else {
        row.slicesTop = t.instantCount ? m_metrics.instantStripHeight : 0;
        row.depthCount = t.sliceCount ? int(t.maxDepth) + 1 : 0;
        row.height = row.slicesTop + std::max(1, row.depthCount) * m_metrics.rowHeight;
        if (!t.sliceCount) // instants only: one row of markers
            row.slicesTop = 0;
    }
    m_rowOfTrack[track] = int(m_rows.size());
    m_rows.push_back(row);
    m_totalHeight += row.height;
    ++m_laneCount;
}

void TimelineLayout::toggleCollapsed(GroupId group)
{
    if (!m_state.collapsed.erase(group.value))
        m_state.collapsed.insert(group.value);
    relayout();
}

void TimelineLayout::setState(const State &state)
{
    m_state = state;
    if (m_trace) {
        const size_t tracks = m_trace->tracks().size(), groups = m_trace->groups().size();
        std::erase_if(m_state.collapsed, [&](uint32_t g) { return g >= groups; });
        std::erase_if(m_state.hidden, [&](uint32_t t) { return t >= tracks; });
        std::erase_if(m_state.pinned, [&](uint32_t t) { return t >= tracks; });
        std::erase_if(m_state.rank, [&](const auto &kv) { return kv.first >= tracks; });
    }
    relayout();
}

void TimelineLayout::setHidden(TrackId track, bool hidden)
{
    if (hidden)
        m_state.hidden.insert(track.value);
    else
        m_state.hidden.erase(track.value);
    relayout();
}

void TimelineLayout::showAllTracks()
{
    m_state.hidden.clear();
    relayout();
}

bool TimelineLayout::isPinned(TrackId track) const
{
    return std::find(m_state.pinned.begin(), m_state.pinned.end(), track.value) != m_state.pinned.end();
}

void TimelineLayout::setPinned(TrackId track, bool pinned)
{
    std::erase(m_state.pinned, track.value);
    if (pinned)
        m_state.pinned.push_back(track.value);
    relayout();
}

std::vector<uint32_t> TimelineLayout::siblingTracks(TrackId track) const
{
    if (!m_trace || track.value >= m_trace->tracks().size())
        return {};
    const GroupId g = m_trace->track(track).group;
    if (g.isValid() && g.value < m_groupTracks.size())
        return m_groupTracks[g.value];
    return m_ungroupedTracks;
}

bool TimelineLayout::moveTrack(TrackId track, TrackId before)
{
    if (!m_trace || isPinned(track) || (before.isValid() && isPinned(before)))
        return false;
    std::vector<uint32_t> order = siblingTracks(track);
    if (std::find(order.begin(), order.end(), track.value) == order.end())
        return false;
    if (before.isValid() && std::find(order.begin(), order.end(), before.value) == order.end())
        return false; // another group
    std::erase(order, track.value);
    auto at = before.isValid() ? std::find(order.begin(), order.end(), before.value) : order.end();
    order.insert(at, track.value);
    for (size_t i = 0; i < order.size(); ++i)
        m_state.rank[order[i]] = int(i);
    relayout();
    return true;
}

bool TimelineLayout::moveTrackBy(TrackId track, int delta)
{
    const std::vector<uint32_t> order = siblingTracks(track);
    const auto it = std::find(order.begin(), order.end(), track.value);
    if (it == order.end())
        return false;
    const ptrdiff_t i = it - order.begin();
    if (delta < 0 && i > 0)
        return moveTrack(track, TrackId(order[size_t(i - 1)]));
    if (delta > 0 && i + 1 < ptrdiff_t(order.size()))
        return moveTrack(track, i + 2 < ptrdiff_t(order.size()) ? TrackId(order[size_t(i + 2)]) : TrackId());
    return false;
}

int TimelineLayout::rowAt(int y) const
{
    const int i = firstRowBelow(y);
    if (i < 0 || i >= int(m_rows.size()) || m_rows[size_t(i)].y > y)
        return -1;
    return i;
}

int TimelineLayout::firstRowBelow(int y) const
{
    auto it = std::upper_bound(m_rows.begin(), m_rows.end(), y, [](int v, const Row &r) { return v < r.y + r.height; });
    return int(it - m_rows.begin());
}

int TimelineLayout::rowOfTrack(TrackId track) const
{
    return track.value < m_rowOfTrack.size() ? m_rowOfTrack[track.value] : -1;
}

} // namespace lanescope
