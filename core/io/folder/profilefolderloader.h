#pragma once
// Loads every importable file of a scanned ProfileFolder and merges them into one Trace (TraceMerger):
// one top group per source file ("trace.json (framework, pid 1234)", "NeuronCore 0 · neff_<H>"),
// progress split across the files by size, cancel honoured between and inside files.
//
// Which file is loaded and how comes from the formats table (formats.h: importer, device rows, folder
// role). Host-clock alignment: a system trace (system_profile.json or ntrace.pb, SystemProfileJoin) is put
// on the framework trace's clock (shift by its baseTimeNanoseconds) and places the device timelines of its
// process folder at their nc_exec_running events (sync points; a device timeline whose own device-clock
// window lies in no traced execution stays at its NEFF's, approximate: CaptureSession, which also lists
// ntrace.pb's session files and pairs NEFFs by model_id); the rest are placed by ClockAlignment
// (clockalignment.h: identity, then order, else their own clock). Aligned device groups placed
// approximately get the suffix " (aligned approx.)", a flow from the host event to their first slice,
// and `alignment.<file>` says where and why ("sync points: ...", "approximate: ...", "none: ...").
// Runtime calls get a flow ("nrt", "runtime call") from the framework trace's op that contains them.
//
// The report: TraceMetadata::files holds a FileReport (kind, outcome, detail) for every file found;
// the metadata keeps `file.<relative path>` = its text() and "folder.files" = counts per outcome, the
// sources' own entries as "<file>: <key>"; diagnostics of every source prefixed with its file name.
#include "io/input/loadoptions.h"
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
