#pragma once
// The rows of the timeline, top to bottom: a header row per group (process > thread, device >
// core, ...) followed by its tracks and child groups. Groups are ordered by sortIndex then
// externalId, tracks likewise. Tracks without any event are left out, and so are groups without
// such tracks. A track row is (maxDepth + 1) slice rows high, plus a thin strip for instants.
//
// Lane grouping (model/lanegrouping.h) comes first: among sibling groups those holding device work
// come before host processes, a NeuronCore's DMA queue lanes fold into lane sets per queue kind (a
// set row of their own, collapsed to a summary row until expanded), and groups of many counter lanes
// start collapsed. A collapsed group or set row shows its lanes' activity.
//
// The user's arrangement (State) comes on top: hidden tracks are left out, pinned tracks come
// first (the view keeps them at the top while the rest scrolls), and tracks dragged to a new place
// keep a rank that sorts before the trace's own sort indexes within their group.
#include "model/ids.h"
#include "model/lanegrouping.h"

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

    enum class RowKind : uint8_t { Group, LaneSet, Track };

    // What the user changed, by TrackId / GroupId value; kept per file by the window.
    struct State
    {
        std::set<uint32_t> collapsed;   // groups
        std::set<uint32_t> expandedSets; // lane sets (LaneGrouping::sets() indexes) the user opened
        std::set<uint32_t> hidden;      // tracks
        std::vector<uint32_t> pinned;   // tracks, top to bottom
        std::map<uint32_t, int> rank;   // tracks moved by the user: order within their group
        bool operator==(const State &) const = default;
    };

    struct Row
    {
        RowKind kind = RowKind::Track;
        uint32_t id = 0; // GroupId or TrackId value, or the lane set's index
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
        bool isGroup() const { return kind == RowKind::Group; }
        bool isLaneSet() const { return kind == RowKind::LaneSet; }
    };

    void setMetrics(const Metrics &m) { m_metrics = m; }
    const Metrics &metrics() const { return m_metrics; }

    // Keeps collapsed groups when the trace is the same as before; a new trace starts with the lane
    // grouping's default (lane sets and groups of many counters collapsed).
    void build(const Trace *trace);
    void clear();
    void toggleCollapsed(GroupId group);
    bool isCollapsed(GroupId group) const { return m_state.collapsed.count(group.value) != 0; }
    void toggleLaneSet(uint32_t set);
    bool isLaneSetCollapsed(uint32_t set) const { return m_state.expandedSets.count(set) == 0; }
    // Unfolds the groups and lane set that hide `track` (a revealed slice is shown); true when it did.
    bool revealTrack(TrackId track);
    // Folds or unfolds the group or lane set of row `rowIndex`; false for a track row.
    bool toggleRow(int rowIndex);
    // The state a trace starts with (what build() gives a new trace).
    State defaultState() const;
    const LaneGrouping &grouping() const { return m_grouping; }
    // A group or lane set row's name ("NeuronCore 0", "DMA · IO queues").
    std::string rowName(const Row &row) const;
    // The lanes a group or lane set row stands for (visible ones, below it at any depth).
    std::vector<TrackId> rowTracks(const Row &row) const;
    // When they were busy (LaneGrouping::activity), cached per row while the layout stands.
    const LaneGrouping::Intervals &rowActivity(size_t rowIndex) const;

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
    void addGroupTracks(uint32_t group, int level);
    // A group or lane set header row; returns `collapsed` (its lanes are then left out).
    bool addHeader(RowKind kind, uint32_t id, int level, bool collapsed);
    void collectTracks(uint32_t group, int depthGuard, std::vector<TrackId> &out) const;
    bool hasContent(uint32_t group, int depthGuard) const;

    const Trace *m_trace = nullptr;
    LaneGrouping m_grouping;
    mutable std::map<size_t, LaneGrouping::Intervals> m_activity; // by row index, while the rows stand
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
