#pragma once
// The rows of the timeline, top to bottom: a header row per group (process > thread, device >
// core, ...) followed by its tracks and child groups. Groups are ordered by sortIndex then
// externalId, tracks likewise. Tracks without any event are left out, and so are groups without
// such tracks. A track row is (maxDepth + 1) slice rows high, plus a thin strip for instants.
//
// The user's arrangement (State) comes on top: hidden tracks are left out, pinned tracks come
// first (the view keeps them at the top while the rest scrolls), and tracks dragged to a new place
// keep a rank that sorts before the trace's own sort indexes within their group.
#include "model/ids.h"

#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace lanescope {

class Trace;

class TimelineLayout
{
public:
    struct Metrics
    {
        int rowHeight = 18; // one slice depth
        int groupHeaderHeight = 20;
        int instantStripHeight = 10; // above the slices of a track that has instants
        int counterHeight = 44;
        int indent = 12; // per nesting level, in the header column
    };

    enum class RowKind : uint8_t { Group, Track };

    // What the user changed, by TrackId / GroupId value; kept per file by the window.
    struct State
    {
        std::set<uint32_t> collapsed;   // groups
        std::set<uint32_t> hidden;      // tracks
        std::vector<uint32_t> pinned;   // tracks, top to bottom
        std::map<uint32_t, int> rank;   // tracks moved by the user: order within their group
        bool operator==(const State &) const = default;
    };

    struct Row
    {
        RowKind kind = RowKind::Track;
        uint32_t id = 0; // GroupId or TrackId value
        int level = 0;   // nesting level: 0 for top-level groups
        int y = 0;       // top, in layout coordinates
        int height = 0;
        int slicesTop = 0;                     // offset of depth 0 from y (track rows)
        int depthCount = 0;                    // slice depths (track rows)
        bool collapsed = false;                // group rows
        bool pinned = false;                   // track rows shown in the pinned area
        double counterMin = 0, counterMax = 0; // counter tracks: value range over the whole trace

        GroupId group() const { return GroupId(id); }
        TrackId track() const { return TrackId(id); }
        bool isTrack() const { return kind == RowKind::Track; }
    };

    void setMetrics(const Metrics &m) { m_metrics = m; }
    const Metrics &metrics() const { return m_metrics; }

    // Keeps collapsed groups when the trace is the same as before.
    void build(const Trace *trace);
    void clear();
    void toggleCollapsed(GroupId group);
    bool isCollapsed(GroupId group) const { return m_state.collapsed.count(group.value) != 0; }

    const State &state() const { return m_state; }
    // Applies a saved arrangement (ids that do not exist in the trace are ignored).
    void setState(const State &state);
    void setHidden(TrackId track, bool hidden);
    bool isHidden(TrackId track) const { return m_state.hidden.count(track.value) != 0; }
    void showAllTracks();
    void setPinned(TrackId track, bool pinned);
    bool isPinned(TrackId track) const;
    // Moves `track` just before `before` (after the last track when invalid) within their group;
    // false when they are in different groups or either is pinned.
    bool moveTrack(TrackId track, TrackId before);
    // Moves a track one place up (-1) or down (+1) among its group's visible tracks.
    bool moveTrackBy(TrackId track, int delta);
    // The tracks of the same group as `track` in display order (hidden ones excluded).
    std::vector<uint32_t> siblingTracks(TrackId track) const;
    // Height of the pinned rows at the top (0 when none); pinned rows are rows [0, pinnedRowCount).
    int pinnedHeight() const { return m_pinnedHeight; }
    int pinnedRowCount() const { return m_pinnedRowCount; }

    const std::vector<Row> &rows() const { return m_rows; }
    int totalHeight() const { return m_totalHeight; }
    // Number of track rows currently laid out (collapsed groups hide theirs).
    int laneCount() const { return m_laneCount; }
    // Index of the row containing layout y, or -1.
    int rowAt(int y) const;
    // Index of the first row whose bottom is below y (for painting from y on).
    int firstRowBelow(int y) const;
    // Index of the track's row, or -1 when the track is hidden or empty.
    int rowOfTrack(TrackId track) const;

private:
    void relayout();
    void resetRows();
    void addGroup(uint32_t group, int level, int depthGuard);
    void addTrack(uint32_t track, int level, bool pinned = false);
    bool hasContent(uint32_t group, int depthGuard) const;

    const Trace *m_trace = nullptr;
    Metrics m_metrics;
    State m_state;
    int m_pinnedHeight = 0;
    int m_pinnedRowCount = 0;
    std::vector<Row> m_rows;
    std::vector<int> m_rowOfTrack;
    std::vector<std::vector<uint32_t>> m_childGroups; // per group, sorted
    std::vector<std::vector<uint32_t>> m_groupTracks; // per group, sorted, non-empty tracks only
    std::vector<uint32_t> m_rootGroups;
    std::vector<uint32_t> m_ungroupedTracks;
    int m_totalHeight = 0;
    int m_laneCount = 0;
};

} // namespace lanescope
