#pragma once
// The raw Neuron system trace of a capture session -> the trace model, in the lanes system_profile.json
// gets (SystemProfileImporter; docs/ntrace.md). ntrace.pb is read with the session files beside it:
//   trace_info.pb  required: its tables name the record types and interned strings (a missing one is an
//                  ImportError naming ntrace.pb and what is missing; a damaged one keeps what it holds
//                  before the damage, with counted warnings);
//   cpu_util.pb, host_mem.pb  optional: cpu_util and host memory counters (a damaged or missing one is a
//                  counted warning when trace_info says the session wrote it, the rest loads).
// What was done with each session file is in the metadata (`session_file.<name>` = "loaded: ..." or
// "not_readable: ..."), for a profile folder's file list (ProfileFolderLoader).
#include "io/input/loadoptions.h"

#include <string>
#include <string_view>

namespace lanescope {

class InputBuffer;

class NtraceImporter
{
public:
    static constexpr const char *kTraceFile = "ntrace.pb";
    static constexpr const char *kInfoFile = "trace_info.pb";
    static constexpr const char *kCpuFile = "cpu_util.pb";
    static constexpr const char *kMemoryFile = "host_mem.pb";
    static constexpr const char *kFormat = "neuron-ntrace";
    static constexpr const char *kSessionFileKey = "session_file."; // + base name

    // `input` holds ntrace.pb, `path` where it is (its folder holds the session files). Throws
    // ImportError (file, byte offset, what was expected) or LoadCancelled.
    static Trace import(InputBuffer &input, const std::string &path, const LoadOptions &options);
    // trace_info.pb, cpu_util.pb, host_mem.pb: read with the ntrace.pb beside them.
    static bool isSessionFile(std::string_view baseName);
};

} // namespace lanescope
