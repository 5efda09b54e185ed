#pragma once
// Reads `system_profile.json` (the JSON AWS's tools export from the Neuron system trace, ntrace.pb)
// into flat records with simdjson On-Demand, from an InputStream (plain, gzip or zstd streamed from
// disk, or text in memory) in bounded memory: the "trace_events", "mem_usage" and "cpu_util" arrays (or
// a bare top-level array) are cut into windows of whole elements (JsonWindowSplitter, keys in any order
// and repeated) parsed on LoadOptions::jsonThreads threads (windowpipeline.h, SystemProfileParser) and
// merged in file order, so the records, StringIds and warnings (with their first offsets) are those
// of a single pass whatever the window size or thread count. Progress 100..800 per window, cancel
// checked per window. ../shared/docs/formats.md section 1:
//
//   { "trace_events": [ { "timestamp": <Unix ns>, "duration": <ns>, "name": "nrt_execute",
//                         "group": "nrt-nc-000", "type": 11, "id": 7, "parent_id": 3,
//                         "instance_id": "i-0abc", "process_id": "4242", "thread_id": 4242,
//                         "lnc_idx": "0", "size": 4096, "tensor_id": 12, "tensor_name": "x" }, ... ],
//     "mem_usage": [ { "timestamp": ..., "percent_usage": 12.5, "usage": 1048576 }, ... ],
//     "cpu_util":  [ { "timestamp": ..., "cpu_id": 3, "util": 41.0 }, ... ], <other keys kept> }
//
// No real export is public: the field list is AWS's documentation by example. Tolerated here:
// ids and process/thread ids written as numbers or strings, `timestamp`/`duration` as strings of
// digits, a bare top-level array of events, fields nested in an `args` object, samples that sit in
// `trace_events` (recognised by `util` / `percent_usage`). AWS's exports as its documentation shows
// them load exactly like the plain form: each element possibly wrapped in an object naming its kind
// (`{"Neuron_Runtime_API_Event": {...}}`, `{"Framework_Event": {...}}`: a first field whose value is an
// object is read as the element), numbers written as strings (`"size": "4"`, `"cpu_id": "47"`,
// `"tensor_id": "4900392441224765051"`: the numeric fields become int64 args, uint64 past 2^63, doubles
// for `util` / `usage` / `percent_usage`), `mem_usage` samples with a `duration` (ignored). Every field that is not one of the lane
// fields (name, group, timestamp, duration, instance_id, process_id) is kept as an arg of its event.
// A `timestamp_sync_point` carries its pair of clocks in `sync_host_ts` / `sync_device_ts` (the names
// of the rule in formats.md; top level or in `args`).
#include "io/input/loadoptions.h"
#include "model/tracebuilder.h"
#include "systemprofiledata.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

class InputBuffer;
class InputStream;

class SystemProfileReader
{
public:
    // Strings are interned in `b`; warnings go to its diagnostics and unknown top-level keys to its
    // metadata. Throws ImportError (file, byte offset, expectation; a decoder's error, e.g. a truncated
    // gzip member, names the compressed offset) or LoadCancelled.
    static SystemProfileData read(InputStream &input, TraceBuilder &b, const LoadOptions &options);
    // Bytes already in memory, read the same way (InputStream's in-memory form, no copy of the text).
    static SystemProfileData read(InputBuffer &input, const std::string &name, TraceBuilder &b,
                                  const LoadOptions &options);
    // Parses an id token or string ("0x1f", "123", "abc") the way ids are compared.
    static SystemProfileId idFromText(std::string_view text) { return SystemProfileId::fromText(text); }
};

} // namespace lanescope
