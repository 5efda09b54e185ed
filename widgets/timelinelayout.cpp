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
    m_collapsed.clear();
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
}

void TimelineLayout::build(const Trace *trace)
{
    if (trace != m_trace)
        m_collapsed.clear();
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
    for (uint32_t t = 0; t < tracks.size(); ++t) {
        if (!trackHasEvents(tracks[t]))
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

void TimelineLayout::addTrack(uint32_t track, int level)
{
    const Track &t = m_trace->tracks()[track];
    Row row;
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
    if (!m_collapsed.erase(group.value))
        m_collapsed.insert(group.value);
    relayout();
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
