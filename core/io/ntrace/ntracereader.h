#pragma once
// Reads ntrace.pb, the raw Neuron system trace (docs/ntrace.md), into flat records: length-prefixed
// (NtraceFrames) protobuf messages of
//
//   2 timestamp (Unix ns, host clock)  7 record type (trace_info's ntrace_inspect_type)  9 thread id
//   10 record id (worker << 50 | sequence)  12 (repeated) attribute {1 key, 2 value}, both strings
//   14 phase: 1 begin, 2 end, 3 single  15 correlation id: the begin's record id (on a begin its own)
//
// Fields at their default value may be absent (proto3: 0). The records are in file order, which is
// grouped per worker and not time order. Strings point into the bytes read (which must outlive the
// records). A record that is not valid protobuf, has a field of another wire type than documented, a
// timestamp past 2^63 or an unknown phase is skipped with a counted warning (file, byte offset, what
// was expected); framing damage ends the reading with a warning, the records before it kept.
#include "io/input/loadoptions.h"
#include "model/diagnostics.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

struct NtraceAttribute
{
    std::string_view key, value;
};

enum class NtracePhase : uint8_t { Begin = 1, End = 2, Single = 3 };

struct NtraceRecord
{
    uint64_t offset = 0; // of its length prefix
    int64_t ts = 0;
    uint64_t type = 0;
    int64_t thread = 0;
    uint64_t id = 0;
    uint64_t correlation = 0;
    NtracePhase phase = NtracePhase::Single;
    uint32_t attrBegin = 0, attrCount = 0; // into NtraceRecords::attributes
};

struct NtraceRecords
{
    std::vector<NtraceRecord> records;
    std::vector<NtraceAttribute> attributes;
    uint64_t bytes = 0;   // bytes read (the whole file unless it was cut)
    uint64_t skipped = 0; // records skipped (counted in the warnings)

    std::span<const NtraceAttribute> attrs(const NtraceRecord &r) const
    {
        return std::span<const NtraceAttribute>(attributes).subspan(r.attrBegin, r.attrCount);
    }
    // The value of `key` on `r`, or nullptr.
    const std::string_view *find(const NtraceRecord &r, std::string_view key) const;
};

class NtraceReader
{
public:
    // `file` names the file in warnings. Checks cancel every 64 Ki records (throws LoadCancelled).
    static NtraceRecords read(std::string_view bytes, const std::string &file, Diagnostics &diagnostics,
                              const LoadOptions &options = {});
};

} // namespace lanescope
