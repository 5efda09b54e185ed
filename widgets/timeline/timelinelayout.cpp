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
    m_grouping = LaneGrouping();
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
    m_activity.clear();
}

void TimelineLayout::build(const Trace *trace)
{
    if (trace != m_trace) {
        m_trace = trace;
        m_grouping = trace ? LaneGrouping::of(*trace) : LaneGrouping();
        m_state = defaultState();
    }
    relayout();
}

TimelineLayout::State TimelineLayout::defaultState() const
{
    State s;
    for (GroupId g : m_grouping.collapsedByDefault())
        s.collapsed.insert(g.value);
    return s;
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
        // Device work first (the first screen shows the device), then the trace's own order.
        const bool da = m_grouping.holdsDeviceWork(GroupId(a)), db = m_grouping.holdsDeviceWork(GroupId(b));
        if (da != db)
            return da;
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
    if (addHeader(RowKind::Group, group, level, isCollapsed(GroupId(group))))
        return;
    addGroupTracks(group, level + 1);
    for (uint32_t c : m_childGroups[group])
        addGroup(c, level + 1, depthGuard + 1);
}

bool TimelineLayout::addHeader(RowKind kind, uint32_t id, int level, bool collapsed)
{
    Row row;
    row.kind = kind;
    row.id = id;
    row.level = level;
    row.y = m_totalHeight;
    row.height = m_metrics.groupHeaderHeight;
    row.collapsed = collapsed;
    m_rows.push_back(row);
    m_totalHeight += row.height;
    return collapsed;
}

// The group's own lanes in order; a lane set's row stands where its first lane would, its lanes below
// it when it is open.
void TimelineLayout::addGroupTracks(uint32_t group, int level)
{
    const std::vector<uint32_t> &tracks = m_groupTracks[group];
    std::set<int> placed;
    for (uint32_t t : tracks) {
        const int set = m_grouping.setOf(TrackId(t));
        if (set < 0) {
            addTrack(t, level);
            continue;
        }
        if (!placed.insert(set).second)
            continue;
        if (addHeader(RowKind::LaneSet, uint32_t(set), level, isLaneSetCollapsed(uint32_t(set))))
            continue;
        for (uint32_t u : tracks)
            if (m_grouping.setOf(TrackId(u)) == set)
                addTrack(u, level + 1);
    }
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

void TimelineLayout::toggleLaneSet(uint32_t set)
{
    if (!m_state.expandedSets.erase(set))
        m_state.expandedSets.insert(set);
    relayout();
}

bool TimelineLayout::revealTrack(TrackId track)
{
    if (!m_trace || track.value >= m_trace->tracks().size() || rowOfTrack(track) >= 0)
        return false;
    bool changed = false;
    if (const int set = m_grouping.setOf(track); set >= 0)
        changed |= m_state.expandedSets.insert(uint32_t(set)).second;
    GroupId g = m_trace->track(track).group;
    for (int guard = 0; g.isValid() && g.value < m_trace->groups().size() && guard < kMaxGroupNesting; ++guard) {
        changed |= m_state.collapsed.erase(g.value) > 0;
        g = m_trace->group(g).parent;
    }
    if (changed)
        relayout();
    return changed;
}

bool TimelineLayout::toggleRow(int rowIndex)
{
    if (rowIndex < 0 || rowIndex >= int(m_rows.size()) || m_rows[size_t(rowIndex)].isTrack())
        return false;
    const Row row = m_rows[size_t(rowIndex)];
    if (row.isGroup())
        toggleCollapsed(row.group());
    else
        toggleLaneSet(row.id);
    return true;
}

std::string TimelineLayout::rowName(const Row &row) const
{
    if (!m_trace)
        return {};
    if (row.isLaneSet())
        return row.id < m_grouping.sets().size() ? m_grouping.sets()[row.id].name : std::string();
    return std::string(m_trace->str(row.isGroup() ? m_trace->group(row.group()).name : m_trace->track(row.track()).name));
}

void TimelineLayout::collectTracks(uint32_t group, int depthGuard, std::vector<TrackId> &out) const
{
    if (depthGuard > kMaxGroupNesting)
        return;
    for (uint32_t t : m_groupTracks[group])
        out.push_back(TrackId(t));
    for (uint32_t c : m_childGroups[group])
        collectTracks(c, depthGuard + 1, out);
}

std::vector<TrackId> TimelineLayout::rowTracks(const Row &row) const
{
    std::vector<TrackId> out;
    if (!m_trace)
        return out;
    if (row.isTrack()) {
        out.push_back(row.track());
    } else if (row.isLaneSet()) {
        if (row.id < m_grouping.sets().size())
            for (TrackId t : m_grouping.sets()[row.id].tracks)
                if (!m_state.hidden.count(t.value) && !isPinned(t) && trackHasEvents(m_trace->track(t)))
                    out.push_back(t);
    } else if (row.id < m_groupTracks.size()) {
        collectTracks(row.id, 0, out);
    }
    return out;
}

const LaneGrouping::Intervals &TimelineLayout::rowActivity(size_t rowIndex) const
{
    auto it = m_activity.find(rowIndex);
    if (it == m_activity.end()) {
        LaneGrouping::Intervals a;
        if (m_trace && rowIndex < m_rows.size())
            a = LaneGrouping::activity(*m_trace, rowTracks(m_rows[rowIndex]));
        it = m_activity.emplace(rowIndex, std::move(a)).first;
    }
    return it->second;
}

void TimelineLayout::setState(const State &state)
{
    m_state = state;
    if (m_trace) {
        const size_t tracks = m_trace->tracks().size(), groups = m_trace->groups().size();
        std::erase_if(m_state.collapsed, [&](uint32_t g) { return g >= groups; });
        std::erase_if(m_state.expandedSets, [&](uint32_t k) { return k >= m_grouping.sets().size(); });
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
