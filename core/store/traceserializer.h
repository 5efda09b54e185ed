#pragma once
// Trace <-> compressed column blocks: the trace cache's former entry form (the cache now maps the model
// uncompressed, MappedModel, which shares this class's header, string and reference code); kept as a
// compact transport of a trace and as the yardstick bench_cache compares the mapped reopen with.
// Each model array (slices, tracks, args, strings, ...)
// is one column, split into parts of whole records and at most kPartBytes, each part one zstd frame of
// its records byte-shuffled in 128 KiB blocks (ByteShuffle: four times smaller and faster to decode
// than the records as they are) carrying the hash of its compressed bytes. Restoring checks every part
// (hash, zstd frame, size) and the model's internal references, so a damaged entry is reported, never
// served.
// The bytes are the in-memory records of this build (host byte order): layoutTag() holds
// kFormatVersion and the record sizes (part of the cache's layout tag), so another layout never reads them.
#include "model/trace.h"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace lanescope {

struct CacheBlock
{
    std::string column;    // "slices", "strings.bytes", ...
    uint32_t part = 0;     // 0.. within the column
    uint64_t rawSize = 0;  // uncompressed bytes
    uint64_t checksum = 0; // ContentFingerprint::hashBytes of `data`
    std::string data;      // one zstd frame
};

// A cache entry that cannot be restored: bad zstd frame, checksum mismatch, truncated or missing part.
class CorruptCacheEntry : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

class TraceSerializer
{
public:
    // Bump when the block layout or a record changes. 3: per-file reports (TraceMetadata::files);
    // 4: warnings carry a severity (warning / note); 5: records byte-shuffled, no zstd checksum.
    static constexpr uint32_t kFormatVersion = 6; // 6: GroupKind::PhysicalCore, NTFF rows per physical core
    static constexpr size_t kPartBytes = size_t(32) << 20;

    static std::vector<CacheBlock> serialize(const Trace &trace, int zstdLevel = 1);
    // Throws CorruptCacheEntry. `sourcePath` replaces the stored path (the same content may be opened
    // from another place).
    static Trace deserialize(std::vector<CacheBlock> blocks, const std::string &sourcePath);
    // "v1-s32-i24-...": record sizes and the format version, part of every cache key.
    static std::string layoutTag();

    // The pieces MappedModel shares. encodeHeader: the trace's metadata, stats and warnings as bytes;
    // decodeHeader reads them back into `t` (throws CorruptCacheEntry); stringColumns: every string but
    // the empty one, as bytes and lengths; restoreStrings interns them again in order, keeping every
    // StringId; checkReferences throws CorruptCacheEntry for an index that would read out of bounds.
    static std::string encodeHeader(const Trace &t);
    static void decodeHeader(std::string_view header, Trace &t, const std::string &sourcePath);
    static void stringColumns(const Trace &t, std::string &bytes, std::vector<uint32_t> &lengths);
    static void restoreStrings(Trace &t, std::string_view bytes, std::span<const uint32_t> lengths);
    static void checkReferences(const Trace &t);
};

} // namespace lanescope
