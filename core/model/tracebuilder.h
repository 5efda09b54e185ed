#pragma once
// Mutable side of the model, used by importers. Slices get a provisional index when added;
// finish() sorts every track once (start asc, longer first), computes depth (a slice's parent is the
// innermost slice of its track that contains it whole), resolves flows and
// returns the immutable Trace.
#include "trace.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

// One end of a flow, resolved in finish() once slices are sorted.
struct FlowEnd
{
    enum class Bind : uint8_t {
        Slice,     // a known slice (provisional index)
        Enclosing, // the deepest slice on `track` whose [start, end] contains ts (start inclusive)
        Next,      // the first slice on `track` that starts at or after ts
    };
    Bind bind = Bind::Slice;
    uint32_t provisionalSlice = UINT32_MAX;
    TrackId track;
    int64_t ts = 0;

    static FlowEnd slice(uint32_t provisional) { return FlowEnd{Bind::Slice, provisional, {}, 0}; }
    static FlowEnd enclosing(TrackId t, int64_t ts) { return FlowEnd{Bind::Enclosing, UINT32_MAX, t, ts}; }
    static FlowEnd next(TrackId t, int64_t ts) { return FlowEnd{Bind::Next, UINT32_MAX, t, ts}; }
};

class TraceBuilder
{
public:
    TraceBuilder();

    // The note computeDepths() writes for slices that start inside a slice of their thread and outlive
    // it (a producer habit, nothing lost: docs/diagnostics.md), one count per such slice; counted over
    // the whole trace, so a merge counts it again rather than copying a source's.
    static constexpr std::string_view kOverlapNote =
        "slices start inside a slice on the same thread and outlive it (placed beside it, under the "
        "innermost slice that contains them)";

    StringId intern(std::string_view s) { return m_trace.m_strings.intern(s); }
    std::string_view str(StringId id) const { return m_trace.m_strings.view(id); }

    GroupId addGroup(GroupKind kind, StringId name, GroupId parent = {}, int64_t externalId = 0);
    TrackGroup &group(GroupId id) { return m_trace.m_groups[id.value]; }
    TrackId addTrack(GroupId group, TrackKind kind, StringId name, int64_t externalId = 0);
    Track &track(TrackId id) { return m_trace.m_tracks[id.value]; }
    size_t trackCount() const { return m_trace.m_tracks.size(); }

    ArgSetId addArgs(std::span<const Arg> args) { return m_trace.m_args.add(args); }
    std::span<const Arg> args(ArgSetId id) const { return m_trace.m_args.args(id); }

    // Returns the provisional index of the slice (valid until finish()).
    uint32_t addSlice(TrackId track, int64_t start, int64_t duration, StringId name, StringId category,
                      ArgSetId args = {}, uint16_t flags = 0);
    Slice &provisionalSlice(uint32_t index) { return m_slices[index]; }
    TrackId provisionalSliceTrack(uint32_t index) const { return TrackId(m_sliceTrack[index]); }
    size_t sliceCount() const { return m_slices.size(); }
    void reserveSlices(size_t n);
    void reserveArgs(size_t args, size_t sets) { m_trace.m_args.reserve(args, sets); }

    void addInstant(TrackId track, int64_t ts, StringId name, StringId category, ArgSetId args = {},
                    InstantScope scope = InstantScope::Thread);
    void addCounterSample(TrackId track, int64_t ts, double value);
    void addFlow(FlowEnd from, FlowEnd to, StringId category, StringId name, uint64_t externalId);

    Diagnostics &diagnostics() { return m_trace.m_diagnostics; }
    ImportStats &stats() { return m_trace.m_stats; }
    TraceMetadata &metadata() { return m_trace.m_metadata; }

    // Sorts and indexes everything; the builder is empty afterwards.
    Trace finish();
    // finish() for a builder that holds groups only (no tracks, slices, instants, counters or flows) and
    // one finished trace to go below `parent`, moved instead of copied: its records keep their order and
    // indexes (nothing is copied, sorted or indexed again). Its groups come after the builder's (their ids
    // shifted), its root groups below `parent`; its warnings and metadata entries are appended, prefixed
    // with `prefix`; its stats and synthetic flag are added. The same trace as TraceMerger::append(source,
    // {parent, diagnosticsPrefix = metadataPrefix = prefix}) and finish(), but for the strings' ids (a
    // profile folder that loaded one file). The builder is empty afterwards.
    Trace finishAround(Trace &&source, GroupId parent, const std::string &prefix);

private:
    struct PendingFlow
    {
        FlowEnd from, to;
        StringId category, name;
        uint64_t externalId;
    };
    struct PendingInstant
    {
        uint32_t track;
        Instant instant;
    };
    struct PendingCounter
    {
        uint32_t track;
        CounterSample sample;
    };

    void clampTimes();
    void computeTimeBounds();
    void sortSlices(std::vector<uint32_t> &finalIndexOfProvisional);
    void computeDepths(std::vector<uint32_t> &parentOf);
    uint16_t packRows(const Track &t);
    void sortInstantsAndCounters();
    void resolveFlows(const std::vector<uint32_t> &finalIndexOfProvisional, const std::vector<uint32_t> &parentOf);
    uint32_t resolveEnd(const FlowEnd &end, const std::vector<uint32_t> &finalIndexOfProvisional,
                        const std::vector<uint32_t> &parentOf) const;

    Trace m_trace;
    std::vector<Slice> m_slices;
    std::vector<uint32_t> m_sliceTrack;
    std::vector<PendingInstant> m_instants;
    std::vector<PendingCounter> m_counters;
    std::vector<PendingFlow> m_flows;
};

} // namespace lanescope
