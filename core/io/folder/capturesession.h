#pragma once
// What a profile folder does with a Neuron capture session, the raw system trace (ntrace.pb) read with
// its session files (NtraceImporter; docs/ntrace.md "In a profile folder"). Used by ProfileFolderLoader:
//
//   - session files: trace_info.pb, cpu_util.pb and host_mem.pb beside a loaded ntrace.pb get the outcome
//     its import reports (`session_file.<name>` metadata); beside one that could not be read they are
//     listed as not read, naming it;
//   - programs: a NEFF whose model id the system trace's records carry (trace_info's system_trace names
//     model ids: `model.<id>` metadata) is paired with it when its name is neff_<id>.neff or its network
//     name (header offset 220) is that entry;
//   - device windows: an NTFF that records its execution's window on the device clock (v6) is checked
//     against the nc_exec_running it was placed at (which carries its device times: nc_timestamp_ns,
//     end_nc_timestamp_ns): inside a traced execution of its core it is placed there exactly; inside none
//     (a capture of another run, or a device clock the sync points do not cover) it stays at the
//     execution of its NEFF and core, marked approximate, with a note giving the numbers.
#include "model/trace.h"
#include "profilefolder.h"

#include <cstdint>
#include <string>

namespace lanescope {

class CaptureSession
{
public:
    // An NTFF may start this much before the nc_exec_running that ran it on the device clock (the
    // runtime notices the start after the device began) and still count as inside it (inferred).
    static constexpr int64_t kWindowSlackNs = 1'000'000;

    // The outcomes of the session files beside folder file `system` (a system trace loaded as `trace`).
    static void reportFiles(ProfileFolder &folder, size_t system, const Trace &trace);
    // The session files beside folder file `system`, which could not be read (`why`).
    static void reportUnread(ProfileFolder &folder, size_t system, const std::string &why);
    // NEFFs of the system trace's process folder (`group`) whose model id its records carry.
    static void pairPrograms(ProfileFolder &folder, size_t system, const Trace &trace);

    // The device trace says it ran on another instance than the session (NTFF v6 field 17).
    static bool otherInstance(const Trace &system, const FolderFile &device);

    struct Placement
    {
        bool checked = false;     // the device trace has a window and the executions carry device times
        bool approximate = false; // inside no traced execution
        uint32_t slice = 0;       // the nc_exec_running to place it at (allSlices index of the system trace)
        int64_t start = 0;        // its start, system trace clock
        std::string note;         // why, in numbers
    };
    // The check of a device trace (folder file `device`, physical core `deviceCore` or -1) placed at
    // nc_exec_running `slice` of `system`.
    static Placement checkWindow(const Trace &system, const FolderFile &device, int64_t deviceCore, uint32_t slice, int64_t start);
};

} // namespace lanescope
