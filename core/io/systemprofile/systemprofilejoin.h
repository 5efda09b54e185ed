#pragma once
// Joins an imported system trace (SystemProfileImporter) with the other files of a profile folder.
// Used by ProfileFolderLoader (its clock rules for the rest: ClockAlignment); the rules are here so they can be tested on their own.
//
// Host clock. The framework trace (Kineto) writes times relative to its `baseTimeNanoseconds`; the
// system trace writes Unix-epoch ns. When the framework trace records baseTimeNanoseconds B and the
// system trace starts at or after B, the system trace is shifted by -B; otherwise both are taken as
// one clock (offset 0), and the note says so.
//
// Device timelines (NTFF, 0 = end of its start NOTIFY) are placed at the host start of an
// `nc_exec_running` event of the same NeuronCore (already on the host clock by the sync-point rule),
// and of the same physical core when both say theirs (ntrace's device_core_idx):
//   1. by identity: the NEFF hash or uuid of the device trace appears as a whole token in the
//      event's name or args; several device traces of one identity take the matching events in order;
//   2. else by order: the k-th remaining device trace of a core (in exec / session / name order)
//      takes the k-th remaining nc_exec_running of that core in time order.
// Device traces left over keep the approximate alignment of ProfileFolderLoader.
//
// Framework op -> runtime call across files: for every runtime call of the system trace, the deepest
// slice of the framework trace on the thread of the call's `thread_id` in the process of its
// `process_id` (any process when the framework trace has one) whose [start, end] contains the call's
// [start, end] on the common clock; slices of category privateuse1_runtime / privateuse1_driver (the
// framework's own record of the same call) are skipped so the link starts at the op.
#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

class SystemProfileJoin
{
public:
    // Offset to add to the system trace's times to put them on the framework trace's clock.
    static int64_t hostOffset(const Trace *framework, const Trace &system, std::string &note);

    struct Device
    {
        int64_t core = 0;
        std::vector<std::string> tokens; // lowercase NEFF hash, uuid (plain and dashed)
        // the physical core its timeline ran on (an NTFF's device core), -1 unknown: it then takes only
        // executions of that core (their device_core_idx arg), or of no known physical core
        int64_t deviceCore = -1;
    };
    struct Placement
    {
        int device = -1;    // index into the devices given
        uint32_t slice = 0; // nc_exec_running slice in the system trace (Trace::allSlices index)
        int64_t start = 0;  // its start, system trace clock
        std::string how;    // "by uuid ...", "by order ..."
    };
    // `devices` in the order they should take executions (exec / session / name).
    static std::vector<Placement> placeDevices(const Trace &system, const std::vector<Device> &devices);

    struct Link
    {
        uint32_t frameworkSlice = 0; // Trace::allSlices index in the framework trace
        uint32_t callSlice = 0;      // in the system trace
    };
    static std::vector<Link> frameworkLinks(const Trace &framework, const Trace &system, int64_t systemOffset);
};

} // namespace lanescope
