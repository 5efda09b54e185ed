#pragma once
// The packed records of the trace model. Memory layout is the design (Tracy): a slice is 32 bytes,
// rare fields live in side tables keyed by ArgSetId.
#include "ids.h"

#include <cstdint>

namespace lanescope {

enum class SliceFlag : uint16_t {
    None = 0,
    Unfinished = 1 << 0,   // a begin without an end: duration runs to the end of the trace
    Async = 1 << 1,        // from b/e/n or S/T/F async events
    FromBeginEnd = 1 << 2, // from a B/E pair (rather than X)
    NoDuration = 1 << 3,   // X event without dur
};

struct Slice
{
    int64_t start = 0;    // ns
    int64_t duration = 0; // ns, >= 0
    StringId name;
    StringId category;
    ArgSetId args;
    uint16_t depth = 0;
    uint16_t flags = 0;

    int64_t end() const { return start + duration; }
    bool has(SliceFlag f) const { return flags & static_cast<uint16_t>(f); }
};
static_assert(sizeof(Slice) == 32, "Slice must stay a packed 32-byte record");

enum class InstantScope : uint8_t { Thread, Process, Global };

struct Instant
{
    int64_t ts = 0;
    StringId name;
    StringId category;
    ArgSetId args;
    InstantScope scope = InstantScope::Thread;
};
static_assert(sizeof(Instant) <= 24);

struct CounterSample
{
    int64_t ts = 0;
    double value = 0;
};
static_assert(sizeof(CounterSample) == 16);

struct Flow
{
    SliceId from;
    SliceId to;
    StringId category;
    StringId name;
    uint64_t externalId = 0; // id as written in the file (correlation id, bind_id, ...)
};

enum class TrackKind : uint8_t {
    Slices,  // a thread, stream, engine or queue: nested slices + instants
    Async,   // slices that overlap without nesting (b/e/n, DMA packets, device instructions): packed into rows
    Counter, // counter samples
};

// "slices", "async", "counter": info --json's and the SQLite export's name of a track kind.
inline const char *trackKindName(TrackKind k)
{
    switch (k) {
    case TrackKind::Slices: return "slices";
    case TrackKind::Async: return "async";
    case TrackKind::Counter: return "counter";
    }
    return "slices";
}

enum class GroupKind : uint8_t {
    Global,
    Process,
    Device,
    Instance,
    Rank,
    NeuronCore,
    Counters,
    PhysicalCore, // one physical core of a logical NeuronCore (trn2): its engine, DMA and counter lanes
};

struct TrackGroup
{
    StringId name;
    GroupId parent;
    GroupKind kind = GroupKind::Process;
    int64_t externalId = 0; // pid, device index, core index
    int64_t sortIndex = 0;
    StringId labels;
};

struct Track
{
    StringId name;
    GroupId group;
    TrackKind kind = TrackKind::Slices;
    uint16_t maxDepth = 0;
    int64_t externalId = 0; // tid, stream, engine index
    int64_t sortIndex = 0;
    int64_t maxDuration = 0; // longest slice: visible-range queries start at (t0 - maxDuration)
    uint32_t sliceBegin = 0, sliceCount = 0;
    uint32_t instantBegin = 0, instantCount = 0;
    uint32_t counterBegin = 0, counterCount = 0;
    StringId unit; // counters
};

} // namespace lanescope
