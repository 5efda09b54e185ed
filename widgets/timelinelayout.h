#pragma once
// The rows of the timeline, top to bottom: a header row per group (process > thread, device >
// core, ...) followed by its tracks and child groups. Groups are ordered by sortIndex then
// externalId, tracks likewise. Tracks without any event are left out, and so are groups without
// such tracks. A track row is (maxDepth + 1) slice rows high, plus a thin strip for instants.
#include "model/ids.h"

#include <cstdint>
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
    bool isCollapsed(GroupId group) const { return m_collapsed.count(group.value) != 0; }

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
    void addTrack(uint32_t track, int level);
    bool hasContent(uint32_t group, int depthGuard) const;

    const Trace *m_trace = nullptr;
    Metrics m_metrics;
    std::set<uint32_t> m_collapsed;
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
