#pragma once
// The immutable trace model: groups of tracks holding time-sorted slices (with depth), instants or
// counter samples; flows between slices; args in a side table; one string pool. Built once by a
// TraceBuilder, read-only afterwards, safe to share between threads.
#include "argstore.h"
#include "column.h"
#include "diagnostics.h"
#include "filereport.h"
#include "ids.h"
#include "records.h"
#include "stringpool.h"
#include "util/uninitializedallocator.h"

#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace lanescope {

struct DepthTables;

struct ImportStats
{
    uint64_t eventsRead = 0;  // events read from the file, metadata included
    uint64_t bytesRead = 0;   // decompressed bytes parsed
    std::map<std::string, uint64_t> phases;     // phase letter -> count as read
    std::map<std::string, uint64_t> categories; // cat -> count as read
};

struct TraceMetadata
{
    std::string format;     // "chrome-json", "ntff", ...
    std::string sourcePath;
    bool synthetic = false; // generated sample data: the UI says so
    // Top-level keys kept verbatim (raw JSON text for objects), e.g. displayTimeUnit, deviceProperties.
    std::vector<std::pair<std::string, std::string>> entries;
    // Every input file and what was done with it (a profile folder lists all its files; empty for a
    // trace read from one file).
    std::vector<FileReport> files;

    const std::string *find(std::string_view key) const;
};

class Trace
{
public:
    Trace();
    ~Trace();
    Trace(Trace &&) noexcept;
    Trace &operator=(Trace &&) noexcept;
    Trace(const Trace &) = delete;
    Trace &operator=(const Trace &) = delete;

    const StringPool &strings() const { return m_strings; }
    std::string_view str(StringId id) const { return m_strings.view(id); }

    std::span<const TrackGroup> groups() const { return m_groups; }
    const TrackGroup &group(GroupId id) const { return m_groups[id.value]; }
    std::span<const Track> tracks() const { return m_tracks; }
    const Track &track(TrackId id) const { return m_tracks[id.value]; }
    // "process 12 / thread 7": the group chain and the track name
    std::string trackPath(TrackId id) const;
    std::string groupPath(GroupId id) const;

    std::span<const Slice> allSlices() const { return m_slices; }
    std::span<const Slice> slices(TrackId id) const;
    const Slice &slice(SliceId id) const { return m_slices[id.value]; }
    SliceId sliceId(TrackId track, uint32_t indexInTrack) const { return SliceId(m_tracks[track.value].sliceBegin + indexInTrack); }
    TrackId trackOfSlice(SliceId id) const;
    // The enclosing slice one level up (it contains this one whole: TraceBuilder's nesting), or invalid.
    SliceId parent(SliceId id) const;
    // Indices (within the track) of slices that may overlap [t0, t1]: callers skip those ending before t0.
    std::pair<uint32_t, uint32_t> sliceRange(TrackId track, int64_t t0, int64_t t1) const;

    std::span<const Instant> allInstants() const { return m_instants; }
    std::span<const Instant> instants(TrackId id) const;
    std::span<const CounterSample> allCounterSamples() const { return m_counters; }
    std::span<const CounterSample> counterSamples(TrackId id) const;

    std::span<const Flow> flows() const { return m_flows; }
    std::vector<FlowId> flowsFrom(SliceId id) const;
    std::vector<FlowId> flowsTo(SliceId id) const;

    const ArgStore &args() const { return m_args; }

    // The slices of every track by depth, with their level-of-detail summaries (depthindex.h): built
    // on the first call (thread-safe; later calls share them), or viewed in a reopened cache file.
    std::shared_ptr<const DepthTables> depthTables() const;
    // Whether depthTables() is ready without building (e.g. read from the cache).
    bool hasDepthTables() const;

    int64_t startNs() const { return m_start; }
    int64_t endNs() const { return m_end; }
    bool empty() const { return m_slices.empty() && m_instants.empty() && m_counters.empty(); }

    const Diagnostics &diagnostics() const { return m_diagnostics; }
    const ImportStats &stats() const { return m_stats; }
    const TraceMetadata &metadata() const { return m_metadata; }

    // Resident bytes of every per-slice structure (records and indexes, args excluded).
    size_t sliceResidentBytes() const;
    size_t memoryUsage() const;

private:
    friend class TraceBuilder;
    friend class TraceSerializer; // the trace cache stores and restores these arrays as they are
    friend class MappedModel;     // and views them in a memory-mapped cache file

    // The arrays are Columns: owned vectors as the builder makes them, or views into a mapped cache
    // file (MappedModel), which the columns keep mapped for as long as the trace lives.
    StringPool m_strings;
    Column<TrackGroup> m_groups;
    Column<Track> m_tracks;
    Column<Slice, UninitializedAllocator<Slice>> m_slices; // see TraceBuilder::sortSlices
    Column<uint32_t> m_trackBySliceBegin; // track ids ordered by sliceBegin (tracks with slices only)
    Column<Instant> m_instants;
    Column<CounterSample> m_counters;
    Column<Flow> m_flows;
    Column<std::pair<uint32_t, uint32_t>> m_flowsBySource; // (slice, flow) sorted
    Column<std::pair<uint32_t, uint32_t>> m_flowsByTarget;
    ArgStore m_args;
    int64_t m_start = 0;
    int64_t m_end = 0;
    Diagnostics m_diagnostics;
    ImportStats m_stats;
    TraceMetadata m_metadata;
    // depthTables(), once built or set (a mutex and the tables; null in a moved-from trace).
    struct DepthCache;
    std::unique_ptr<DepthCache> m_depth;
    void setDepthTables(std::shared_ptr<const DepthTables> tables) const;
};

} // namespace lanescope
