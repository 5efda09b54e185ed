#pragma once
// The trace cache's per-trace file (<cache dir>/<key>.lsmodel): the model's arrays uncompressed, each
// on a page boundary, in the records' in-memory layout, so that a reopened trace views them in place.
// open() maps the file read-only (mmap, MAP_PRIVATE) and the Trace's columns (Column) view the mapping,
// which they keep alive (shared ownership) for as long as the trace lives: reopening copies and zeroes
// nothing, and pages the viewer never touches are never read.
//
//   header   magic "LSMODEL\0", version, column count, file size, meta offset and size,
//            per column (offset, bytes, record width, checksum), then the checksum of all that and
//            the meta bytes
//   meta     TraceSerializer::encodeHeader (metadata, stats, warnings)
//   columns  strings.bytes, strings.lengths, groups, tracks, slices, ... (TraceSerializer's columns),
//            then the depth tables (Trace::depthTables, built at write when not yet), so a reopened
//            trace draws its first frame without walking its slices
//
// open() checks the magic, the version (StaleModelFile), that the file is as long as the header says,
// the header checksum, that every column lies inside the file and is made of whole records of this
// build's sizes, the checksums of the small columns read whole at open (strings, groups, tracks, the
// slice track index, the depth offsets), every index the model follows (TraceSerializer::checkReferences)
// and the depth tables' sizes, offsets and slice ids (DepthTables::check); any
// failure throws CorruptCacheEntry naming the file and what did not fit. The large record columns
// (slices, args, instants, counters, flows) are not hashed: that would read every page.
// write() writes to a temporary file beside the target and renames it over (QSaveFile), so a file that
// another process has mapped is never changed under it.
#include "model/trace.h"
#include "traceserializer.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

// A cache file written by another version of this format: rebuilt, not an error.
class StaleModelFile : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

class MappedModel
{
public:
    // Bump when the file layout changes (records changing size are caught by the width check).
    static constexpr uint32_t kVersion = 2; // 2: the depth tables (model/depthindex.h)
    static constexpr size_t kAlign = 4096;

    // The size write() will give the file.
    static uint64_t fileSize(const Trace &trace);
    // Writes `trace` to `path` (replacing it atomically). Returns false with `error` set on failure.
    static bool write(const Trace &trace, const std::string &path, std::string *error);
    // Maps `path` and returns a trace viewing it. `sourcePath` replaces the stored source path (as
    // TraceSerializer::deserialize). Throws StaleModelFile or CorruptCacheEntry. `threads`: the cores
    // the checks may use (two of them read different pages side by side; 1: one after the other).
    static Trace open(const std::string &path, const std::string &sourcePath, unsigned threads = 2);
    // "m1-v6-s32-...": this file version and TraceSerializer::layoutTag(), the cache entries' layout.
    static std::string layoutTag();

private:
    // The trace's arrays after the strings, in file order (friend of Trace and ArgStore).
    static std::vector<std::string_view> recordColumns(const Trace &t, const DepthTables &depth);
    // The trace over the file's columns (in file order) and meta block, keeping `keeper` alive.
    static Trace viewColumns(const std::shared_ptr<const void> &keeper, const std::vector<std::string_view> &columns,
                             std::string_view meta, const std::string &sourcePath, unsigned threads);
};

} // namespace lanescope
