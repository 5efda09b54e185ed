#pragma once
// Where each device timeline of a profile folder goes on the host clock: a pure function from the host
// execution events of the framework traces and a description of each device timeline to offsets and
// the rule used. Used by ProfileFolderLoader; unit-tested on its own (tests/core/io/folder/tst_clockalignment.cpp).
//
// A device timeline (an NTFF, 0 = the end of its start NOTIFY) is placed
//   - SyncPoint: exactly, where the system trace's nc_exec_running put it (SystemProfileJoin; given as
//     input); it is still linked to the host event matched below, its placement is kept;
//   - Identity: at the start of a host execution event (a `privateuse1_runtime` slice whose name says
//     it executes (nrt_execute), else any runtime slice, else a `privateuse1_driver` slice) whose name
//     or args carry the NEFF hash or the uuid as a whole token; several device timelines of one NEFF on
//     one core take the matching events in time order; any framework trace when none shares the
//     device's process folder;
//   - Order: else the remaining device timelines (in the order given: exec / session index, then name)
//     take the remaining execution events of their process folder (of their pid when it has some) in
//     time order;
//   - Sequence: when the folder has no framework trace and no device timeline was placed by a system
//     trace (a folder of device profiles only), every device timeline is laid out one after another in
//     the order given (folder order): its first event a gap after the previous one's last event ends; the
//     gap is a tenth of the longest timeline (first to last event), at least 1 us (kSequenceGapMinNs).
//     Not a host placement (aligned() is false);
//   - None: else it keeps its own 0-based clock, and the note says why.
// Identity and Order placements are approximate (the device clock and the host clock share no sync
// point in those files).
#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

enum class AlignmentRule : uint8_t { None, SyncPoint, Identity, Order, Sequence };

class ClockAlignment
{
public:
    struct HostTrace
    {
        int id = -1;    // the caller's id of a framework trace (HostExecution::host)
        int group = -1; // its process folder
    };
    struct HostExecution
    {
        int host = -1;      // HostTrace::id
        uint32_t slice = 0; // Trace::allSlices index in that trace
        int64_t start = 0;  // host clock
        int tier = 0;       // 0 runtime execute, 1 other runtime call, 2 driver
        int64_t pid = -1;
        std::string name;
        std::string text; // name and args, lowercase
    };
    struct Device
    {
        std::vector<std::string> tokens; // lowercase NEFF hash, uuid (plain and dashed)
        std::string key;                 // identity + core + group: timelines of one NEFF on one core
        int group = -1;                  // process folder
        int64_t pid = -1;                // from its name; -1 unknown
        int64_t first = 0, last = 0;     // its first event's start and last event's end on its own clock (Sequence)
        bool synced = false;             // placed by the system trace's sync points
        int64_t syncOffset = 0;
        std::string syncNote;
        // placed by the system trace at the execution of its NEFF, but its own device clock says it ran
        // elsewhere (CaptureSession): kept there as an Identity placement (approximate)
        bool syncApproximate = false;
    };
    struct Placement
    {
        AlignmentRule rule = AlignmentRule::None;
        int64_t offset = 0; // add to the device timeline's times
        int host = -1;      // HostTrace::id of the host event it is linked to, -1 none
        uint32_t hostSlice = 0;
        // "sync points: ...", "approximate: placed at nrt_execute ts=<ns> (...)", "none: own clock, ..."
        std::string note;
        bool aligned() const { return rule != AlignmentRule::None && rule != AlignmentRule::Sequence; }
    };

    // One placement per device, in the order of `devices` (the order in which they take executions).
    static std::vector<Placement> align(const std::vector<HostTrace> &hosts, std::vector<HostExecution> events,
                                        const std::vector<Device> &devices);

    // The host execution events of a framework trace: its privateuse1_runtime / privateuse1_driver slices.
    static std::vector<HostExecution> hostExecutions(const Trace &framework, int host);

    static const char *ruleName(AlignmentRule r); // "none", "sync-point", "identity", "order", "sequence"
    static constexpr int64_t kSequenceGapMinNs = 1000;
};

} // namespace lanescope
