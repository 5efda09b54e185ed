#pragma once
// Appends whole Traces into one TraceBuilder: every group, track, slice, instant, counter sample,
// flow and arg of the source is copied, its strings re-interned in the builder's pool, its times
// shifted by a fixed offset, and its root groups hung below a parent group of the caller's choice.
// Used to merge the files of a profile folder into one timeline, and to put two traces side by side
// (compare). The source stays untouched; the builder computes sort order and depth again in finish().
//
// Slices flagged Unfinished keep the flag; finish() then extends them to the end of the merged trace.
#include "tracebuilder.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace lanescope {

struct MergeOptions
{
    GroupId parent;           // root groups of the source (and tracks without a group) go below it
    int64_t timeOffsetNs = 0; // added to every time of the source
    // The first `skipGroupLevels` levels of source groups are not copied: their tracks and child
    // groups attach to the nearest copied ancestor, or to `parent` (collapses "device / core" chains).
    int skipGroupLevels = 0;
    std::string diagnosticsPrefix; // each warning's message is prefixed, e.g. "trace.json: "
    bool copyMetadata = true;      // source metadata entries are appended as metadataPrefix + key
    std::string metadataPrefix;
    bool mergeStats = true; // event/byte counts, phases and categories are summed
    // Lanes shared across appends: a group or track of the source whose kind and name equal one an
    // earlier shared append of this merger made below the same parent is reused, so its slices and
    // samples join that lane (one NeuronCore's engine lanes over all its executions).
    bool shareLanes = false;
    // Checked every 64 Ki records; when set the copy stops early and MergeResult::cancelled is true
    // (the builder then holds part of the source and should be dropped).
    const std::atomic<bool> *cancel = nullptr;
};

struct MergeResult
{
    std::vector<GroupId> groups; // by source group index; a skipped group maps to where its content went
    std::vector<TrackId> tracks; // by source track index
    uint32_t firstSlice = 0;     // provisional index of source slice i is firstSlice + i
    uint32_t sliceCount = 0;
    bool cancelled = false;
};

class TraceMerger
{
public:
    explicit TraceMerger(TraceBuilder &builder) : m_b(builder) {}

    // Copies `source` into the builder.
    MergeResult append(const Trace &source, const MergeOptions &options = {});

private:
    StringId mapString(StringId id);
    ArgSetId mapArgs(ArgSetId id);
    bool cancelled(const MergeOptions &options, uint64_t i) const;

    TraceBuilder &m_b;
    const Trace *m_source = nullptr;
    std::vector<uint32_t> m_strings; // source string id -> builder string id + 1 (0 = not yet)
    std::vector<uint32_t> m_argSets; // source arg set -> builder arg set + 1
    std::vector<Arg> m_scratch;
    // (parent group, kind, name) -> group / track made by a shared append
    std::map<std::tuple<uint32_t, uint8_t, uint32_t>, uint32_t> m_sharedGroups, m_sharedTracks;
};

} // namespace lanescope
