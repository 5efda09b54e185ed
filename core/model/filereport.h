#pragma once
// What was done with each input file of a trace (every file of a profile folder): its kind, the
// outcome and a detail text. It travels with the Trace (TraceMetadata::files, cached with it), so the
// CLI, the GUI and the SQLite export print it and never parse a text back.
//
// FileFormat is the one enum of file kinds; what each kind means (detection, importer, folder role,
// dialog patterns, MIME type) is the table in core/io/formats.h. The model only carries the value.
#include <cstdint>
#include <string>

namespace lanescope {

enum class FileFormat : uint8_t {
    Unknown,           // not recognised ("other" in a folder listing)
    ChromeJson,        // Kineto / Chrome Trace Event JSON (object or bare array), possibly compressed
    NeuronProfileJson, // neuron-profile view --output-format json
    Ntff,              // raw Neuron device trace
    Neff,              // compiled Neuron program
    Folder,            // a profile folder (a path, not a file kind)
    SystemProfileJson, // system_profile.json: the Neuron system trace exported by AWS's tools
    NeuronProtobuf,    // trace_info.pb, cpu_util.pb, host_mem.pb: read with the ntrace.pb of their session
    RankSummary,       // lanescope-rank-summary JSON: one rank of a job, summarised (docs/job-summary.md)
    NeuronTrace,       // ntrace.pb: the raw Neuron system trace (with trace_info.pb beside it, docs/ntrace.md)
    ExplorerDevice,    // a processed Neuron Explorer device profile: a directory of Parquet tables (Instruction, ...)
    ExplorerSystem,    // a processed Neuron Explorer system profile: a directory of Parquet tables (SystemProfileEvents, ...)
};
constexpr int kFileFormatCount = int(FileFormat::ExplorerSystem) + 1;

enum class FileOutcome : uint8_t {
    Loaded,      // a trace that is loaded on its own (framework JSON, neuron-profile JSON, system trace)
    Paired,      // an NTFF with its NEFF (or a NEFF with its NTFFs)
    Unpaired,    // an NTFF without a NEFF (still loaded) or a NEFF without an NTFF
    NotReadable, // recognised but cannot be read (schema not public, damaged, no permission)
    Ignored,     // not a trace, or not imported (with the reason)
};
constexpr int kFileOutcomeCount = int(FileOutcome::Ignored) + 1;

// "loaded", "paired", "unpaired", "not_readable", "ignored" (info --json, SQLite).
constexpr const char *fileOutcomeName(FileOutcome o)
{
    switch (o) {
    case FileOutcome::Loaded: return "loaded";
    case FileOutcome::Paired: return "paired";
    case FileOutcome::Unpaired: return "unpaired";
    case FileOutcome::NotReadable: return "not_readable";
    case FileOutcome::Ignored: break;
    }
    return "ignored";
}

struct FileReport
{
    std::string path; // relative to the opened folder, '/'-separated (folders end in '/')
    FileFormat kind = FileFormat::Unknown;
    FileOutcome outcome = FileOutcome::Ignored;
    // Why / what was done: "as 'trace.json (framework, pid 4242)', 120 slices", "no NEFF in the folder
    // has its uuid ...". A paired file says what it is paired with: "paired with x.neff by uuid; ...".
    std::string detail;

    // The one-line status: "loaded: <detail>", "<detail>" (paired), "unpaired: <detail>", "not
    // readable: <detail>", "ignored: <detail>" (the `file.<path>` metadata entry, the SQLite files table).
    std::string text() const
    {
        switch (outcome) {
        case FileOutcome::Loaded: return detail.empty() ? std::string("loaded") : "loaded: " + detail;
        case FileOutcome::Paired: return detail;
        case FileOutcome::Unpaired: return "unpaired: " + detail;
        case FileOutcome::NotReadable: return "not readable: " + detail;
        case FileOutcome::Ignored: break;
        }
        return "ignored: " + detail;
    }
};

} // namespace lanescope
