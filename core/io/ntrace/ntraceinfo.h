#pragma once
// trace_info.pb: the index of a Neuron capture session, written by the runtime beside ntrace.pb,
// cpu_util.pb and host_mem.pb (docs/ntrace.md). One protobuf message, no length prefix:
//
//   1 format (2)  2 pid  4 instance id  6 {1 path, 2 kind, 3 records} the system trace file
//   7 host {1 CPU count, 2 CPU model, 3 memory bytes, 6 / 7 {1 path, 2 kind, 3 samples} cpu_util / host_mem}
//   10 (repeated) named enum tables {1 name, 2 (repeated) {1 number, 2 name}}
//   11 / 12 session start / end (Unix ns)  13 host IP  14 records  15 instance type  17 host name
//
// The enum tables are the only way to name what ntrace.pb holds: `ntrace_inspect_type` (record
// types), `system_trace` (interned strings: a model_id names its NEFF), `nrt_inspect_mem_usage_type`
// and `nrt_inspect_mem_alloc_errno_type`. Their numbers are not stable across runtime versions: never
// hard-code them. An entry's number may be written explicitly as 0 or left out (proto3); its name is
// read as a string even where it would also parse as a message ("pe", "ucode").
//
// A damaged message keeps what was read before the damage: a cut inside a field, a field of another
// wire type than documented are counted warnings naming the file and the byte offset.
#include "model/diagnostics.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

struct NtraceEnumTable
{
    std::string name;
    std::map<uint64_t, std::string> names; // number -> name
};

// One of the session's files as trace_info lists it (path as written at capture time).
struct NtraceSessionFile
{
    std::string path;
    uint64_t kind = 0;    // 1 system trace, 2 cpu_util, 3 host_mem (inferred)
    uint64_t records = 0; // records / samples the runtime says it wrote
    bool present = false;
};

struct NtraceInfo
{
    static constexpr const char *kTypeTable = "ntrace_inspect_type";
    static constexpr const char *kInternedTable = "system_trace";
    static constexpr const char *kMemUsageTable = "nrt_inspect_mem_usage_type";
    static constexpr const char *kAllocErrnoTable = "nrt_inspect_mem_alloc_errno_type";

    uint64_t format = 0; // field 1 (2 in the one real file; meaning unknown)
    uint64_t pid = 0;
    bool hasPid = false;
    std::string instanceId, instanceType, hostName, hostIp, cpuModel;
    uint64_t cpuCount = 0, hostMemoryBytes = 0, recordCount = 0;
    int64_t sessionStart = 0, sessionEnd = 0; // Unix ns; 0 = not given
    NtraceSessionFile systemTrace, cpuUtil, hostMem;
    std::vector<NtraceEnumTable> tables;
    uint64_t bytes = 0;
    bool damaged = false; // a cut or malformed field: what follows it is missing

    const NtraceEnumTable *table(std::string_view name) const;
    // The name `table` gives `number`, or empty when the table or the entry is missing.
    std::string_view name(std::string_view table, uint64_t number) const;
    bool hasSession() const { return sessionStart > 0 && sessionEnd >= sessionStart; }
};

class NtraceInfoReader
{
public:
    // `file` names the file in warnings ("trace_info.pb"); warnings go to `diagnostics`. Never throws
    // for damaged content (an empty message has no tables: the caller decides).
    static NtraceInfo read(std::string_view bytes, const std::string &file, Diagnostics &diagnostics);
};

} // namespace lanescope
