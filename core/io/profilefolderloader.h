#pragma once
// Loads every importable file of a scanned ProfileFolder and merges them into one Trace (TraceMerger):
// one top group per source file ("trace.json (framework, pid 1234)", "NeuronCore 0 · neff_<H>"),
// progress split across the files by size, cancel honoured between and inside files.
//
// Host-clock alignment with a system trace (system_profile.json, SystemProfileJoin): the system trace is
// put on the framework trace's clock (shift by its baseTimeNanoseconds), and each device timeline of its
// process folder is placed exactly at its nc_exec_running event (already on the host clock by the
// sync-point rule), with a flow ("exec", "device instructions") from that event to its first slice and
// `alignment.<file>` = "sync points: placed at nc_exec_running ts=<ns> of <system trace> (...)".
// Runtime calls get a flow ("nrt", "runtime call") from the framework trace's op that contains them.
//
// Device timelines not placed that way (no system trace, or more NTFFs than executions) are aligned
// approximately (the device clock and the host clock share no sync point in those files). Each device
// timeline (an NTFF, 0 = the end of its start NOTIFY) is placed at the start of one host execution event of the framework trace in the same process folder: a
// `privateuse1_runtime` slice whose name says it executes (nrt_execute), else any runtime slice, else a
// `privateuse1_driver` slice. The event is chosen
//   1. by identity: the NEFF hash (from the NTFF's or its NEFF's name, or the NEFF name recorded in the
//      NTFF) or the uuid appears as a whole token in the slice name or in any of its args; several
//      device traces of one NEFF on one core take the matching events in time order;
//   2. else by order: the remaining device traces (by exec / session index, then name) take the
//      remaining execution events of that process in time order.
// Aligned device groups get the suffix " (aligned approx.)", a flow from the host event to their first
// slice, and a metadata entry `alignment.<file>` = "approximate: placed at <event> ts=<ns> (...)".
// The others keep their own 0-based clock and say so in `alignment.<file>`.
//
// Metadata: `file.<relative path>` for every file found ("loaded: ...", "paired with X by uuid; ...",
// "unpaired: ...", "not readable: ...", "ignored: ..."), the sources' own entries as "<file>: <key>";
// diagnostics of every source prefixed with its file name.
#include "loadoptions.h"
#include "profilefolder.h"

namespace lanescope {

class ProfileFolderLoader
{
public:
    // Throws LoadCancelled, or ImportError when no file of the folder has a timeline (the message says
    // what was found). A file that fails to load is reported in the metadata, not thrown.
    static Trace load(const ProfileFolder &folder, const LoadOptions &options = {});

    static constexpr const char *kAlignedSuffix = " (aligned approx.)";
};

} // namespace lanescope
