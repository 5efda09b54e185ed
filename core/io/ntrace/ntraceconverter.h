#pragma once
// Converts a Neuron capture session read from its protobuf files (trace_info.pb, ntrace.pb, cpu_util.pb,
// host_mem.pb) into the records system_profile.json gives (SystemProfileData), so that
// SystemProfileImporter builds the same lanes for both (docs/ntrace.md "Lanes"):
//
//   instance <instance id> > process <pid> >
//     neuron_rt · NC n · thread T   every call (begin/end pair) of thread T on NeuronCore n that runs on
//                                   the host clock: nrt_*, kbl_*, kmgr_*, dmem_buf_*, ... (nesting by time)
//     hardware · NC n · core C      device records (a begin with nc_timestamp_ns: nc_exec_running,
//                                   nc_model_switch) of physical core C, moved to the host clock by the
//                                   sync point of that core (NtraceSync), and that core's sync point
//                                   (an instant at its cpu_timestamp_ns)
//     cpu_util · CPU n (%), mem_usage (bytes) (host_mem.pb), device memory · NC n · <usage> (bytes)
//
// Names come only from trace_info's tables: the record type (ntrace_inspect_type; a number no entry
// names becomes "type N", counted), `model_name` beside each `model_id` (system_trace). Args: every
// attribute of the begin, then those of the end (an end attribute the begin also has with another value
// as `end_<key>`, e.g. end_nc_timestamp_ns); decimal numbers as integers, other text (0x-hex addresses,
// usage type names) as strings; `thread_id`; `end_missing` on a begin without an end. A device record
// without a model_id takes the one of the records of its NeuronCore and exec_id (nc_model_switch,
// kbl_exec_*), so an NTFF can be matched to its nc_exec_running by the NEFF's model id.
//
// Device records of a physical core without a sync point keep the host timestamp the runtime wrote
// (field 2; the same time in the real capture), counted as a warning.
#include "io/input/loadoptions.h"
#include "io/systemprofile/systemprofiledata.h"
#include "model/tracebuilder.h"
#include "ntraceinfo.h"
#include "ntracereader.h"
#include "ntracesamples.h"

#include <string>
#include <vector>

namespace lanescope {

// What was read of one session; names are the files' base names, for warnings.
struct NtraceSession
{
    NtraceInfo info;
    NtraceRecords records;
    std::vector<NtraceCpuSample> cpu;
    std::vector<NtraceMemorySample> hostMemory;
    std::string traceFile = "ntrace.pb", infoFile = "trace_info.pb";
};

class NtraceConverter
{
public:
    static constexpr const char *kSyncAttribute = "cpu_timestamp_ns";
    static constexpr const char *kDeviceTimeAttribute = "nc_timestamp_ns";
    static constexpr const char *kDeviceCoreAttribute = "device_core_idx";

    // Strings are interned in `b`; warnings go to its diagnostics, what was found (sync points, models,
    // counts) to its metadata.
    static SystemProfileData convert(const NtraceSession &session, TraceBuilder &b, const LoadOptions &options);
};

} // namespace lanescope
