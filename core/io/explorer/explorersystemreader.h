#pragma once
// The system tables of a processed Neuron Explorer profile (../shared/docs/explorer-parquet.md section
// 2.7, read through ProfileDirectory) -> the records SystemProfileImporter builds lanes from, the same
// lanes the raw system trace ntrace.pb gets (core/io/ntrace/ntraceconverter.h; docs/parquet.md
// "System tables"). All times are host-clock Unix-epoch ns as written.
//
//   SystemProfileEvents, by trace_event_source:
//     neuron_rt  -> "neuron_rt · NC <nc_idx> · thread <thread_id>"   (nesting by time)
//     neuron_hw  -> "hardware · NC <nc_idx> · core <pcore_idx>"      (already on the host clock; a
//                   zero-length timestamp_sync_point is an instant, as ntrace's)
//     framework  -> "framework <thread_id>"
//     any other  -> "<source> · NC n", kept, counted as a warning
//   in the groups instance <instance_id> > process <process_id>. name, start_ts, duration_ns (else
//   end_ts - start_ts; the two disagreeing is a counted warning). Args: id, thread_id, nc_idx,
//   pcore_idx, worker_gid, framework_stream_id, flow_id (the list as text), then every key of
//   extra_attributes_json (numbers written as decimal strings as integers, objects and arrays as JSON).
//   flow_id: events sharing a flow id are linked framework -> runtime -> hardware: every event of a
//   stage from the earliest event of the nearest earlier stage present (flows "nrt" / "runtime call"
//   into the runtime, "exec" / "hardware execution" into the hardware, external id = the flow id); such
//   an event takes no link by time.
//   CpuUsage -> cpu_util · CPU <cpu_id> (cpu_id "average": the lane "cpu_util"), HostMemUsage ->
//   mem_usage (bytes) and mem_usage (%), in the process of their instance when SystemProfileEvents
//   holds exactly one for it (else "process (no process_id)").
//   SystemProfileHbmUsage -> "device memory · device D · HBM H · <category>" (bytes), one counter per
//   *_bytes column (total_bytes as "total"); a category that is 0 throughout is left out (a note).
//   SystemProfileMetadata -> metadata explorer.system.<column>; DeviceProfileList -> metadata
//   explorer.device_profile.<n> and a note: the device profiles are directories of their own.
//
// Columns are found by name; every column may be absent (one note per table names those missing) or
// of another type (a warning naming file, column and byte, then treated as absent); an absent table
// is a note. Rows without start_ts are skipped (counted warning naming the first row).
#include "explorerdirectory.h"
#include "io/input/loadoptions.h"
#include "io/systemprofile/systemprofiledata.h"
#include "model/tracebuilder.h"

#include <array>
#include <string>
#include <string_view>

namespace lanescope::explorer {

class SystemTablesReader
{
public:
    static constexpr std::array<std::string_view, 6> kTables = {"SystemProfileEvents", "CpuUsage", "HostMemUsage",
                                                                "SystemProfileHbmUsage", "SystemProfileMetadata",
                                                                "DeviceProfileList"};

    // Whether `dir` holds at least one of kTables (plain or split).
    static bool hasSystemTables(const std::string &dir);

    // Reads every system table of `dir`. Strings are interned in `b`, warnings and notes go to its
    // diagnostics, what was read to its metadata. Throws LoadCancelled.
    static SystemProfileData read(const ProfileDirectory &dir, TraceBuilder &b, const LoadOptions &options);
};

} // namespace lanescope::explorer
