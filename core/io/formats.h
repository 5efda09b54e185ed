#pragma once
// The one table of input formats. Every place that needs to know what a file is reads it: TraceLoader
// (detection, importer), the profile-folder scan (detection in folders, folder role), `lanescope-cli
// rows` (device rows), the GUI's file dialogs (patterns) and its NEFF check, packaging (MIME types,
// packaging/lanescope-mime.xml).
//
// Adding a format: a reader/importer, one entry in kFormats (formats.cpp) and a FileFormat value
// (core/model/filereport.h), its tests and its fuzz harness. Nothing else: every loader reads a file
// through its entry (FileImporter::import / importAs / readRowsAs: streamed when the entry has a stream
// reader, else whole), a profile folder takes the file's part from `role`, its group name from
// `folderGroupSuffix`; no loader names a format kind or an importer itself.
//
// Detection is by content, never by name (except the Neuron protobuf files, which have no magic
// number: ntrace.pb and its session files are recognised by name). Entries are tried in table order; the rules are mutually
// exclusive where they overlap. The JSON kinds are told apart by their structure: the top-level keys
// of the object, wherever they sit and in any order (JsonTopLevelScan reads the top level without
// parsing the values, in at most kJsonProbeBytes): "traceEvents" (Chrome / Kineto), "trace_events"
// (system_profile.json), any of the neuron-profile export's tables, "format": "lanescope-rank-summary".
// The first key that names a kind decides (a later "traceEvents" overrides "trace_events"). An object
// whose top level was read to its end without any of them is no kind (Unknown, and unrecognised()
// names what was looked for); opened on its own, an object read only in part is taken as Chrome JSON.
#include "io/input/loadoptions.h"
#include "io/ntff/ntffprofile.h"
#include "model/filereport.h"

#include <span>
#include <string>
#include <string_view>

namespace lanescope {

class InputBuffer;
class InputStream;

// What a file is for when found in a profile folder.
enum class FolderRole : uint8_t {
    None,            // not loaded (unknown files, the folder itself)
    FrameworkTrace,  // host timeline of the framework (Kineto / Chrome JSON): host execution events
    DeviceTrace,     // one NeuronCore's timeline (NTFF, neuron-profile JSON), aligned to the host
    CompiledProgram, // NEFF: paired with its device traces, names their DMA queues
    SystemTrace,     // system_profile.json, ntrace.pb: runtime API and hardware lanes, sync points
    SessionPart,     // read with another file of its capture session (trace_info.pb, cpu_util.pb and
                     // host_mem.pb with the ntrace.pb beside them), which says what was done with it
    RankSummary,     // one rank of a distributed job summarised (lanescope-cli summarize): a folder of them
                     // opens as the job overview (core/job/jobfolder.h), not as a timeline
};

// The first bytes of a (decompressed) file.
struct FormatProbe
{
    std::string_view head;
    uint64_t size = 0;       // content size; UINT64_MAX when unknown (compressed in a folder)
    bool compressed = false; // gzip / zstd / zip on disk
    mutable int8_t jsonKind = -1; // what the JSON object's top-level keys say, read once by the rules (-1: not yet)
};

struct FormatInfo
{
    FileFormat id;
    const char *name;        // stable text id: "chrome-json", "ntff", ... (Trace metadata format, `rows`)
    const char *folderKind;  // its name in folder listings: "chrome-trace", "ntff", ... (info --json)
    const char *displayName; // "Chrome / Kineto trace JSON"
    // Whole-file detection (TraceLoader): a file opened on its own. nullptr: never detected so.
    bool (*detect)(const FormatProbe &probe);
    // Detection inside a profile folder: stricter for JSON (a JSON file in a folder must carry its
    // format's keys), nullptr: same as `detect`.
    bool (*detectInFolder)(const FormatProbe &probe);
    // Recognised by its file name alone (formats without a magic number), nullptr: never.
    bool (*detectByName)(std::string_view baseName);
    // The importer: the file's bytes -> a Trace. nullptr: not a trace (see `notATrace`).
    Trace (*import)(InputBuffer &input, const std::string &path, const LoadOptions &options);
    // Device rows (`lanescope-cli rows`, folder pairing with a NEFF). nullptr: none.
    NtffProfile (*readRows)(InputBuffer &input, const std::string &path, const LoadOptions &options);
    FolderRole role;
    const char *dialogPatterns; // "*.ntff", empty when the file dialogs do not offer it
    const char *mimeType;       // as packaging/lanescope-mime.xml (or the common type), may be empty
    const char *notATrace;      // why it cannot be opened as a timeline (import == nullptr)
    // The importer reading from a stream (windows parsed while the rest is read and decompressed, in
    // bounded memory). nullptr: the file is read whole and given to `import`.
    Trace (*importStream)(InputStream &input, const LoadOptions &options) = nullptr;
    // Device rows read from a stream (windows parsed while the rest is read, never held whole): a
    // device trace paired with its NEFF in a folder. nullptr: `readRows` on the whole file.
    NtffProfile (*readRowsStream)(InputStream &input, const LoadOptions &options) = nullptr;
    // Appended to the name of its top group in a profile folder ("NeuronCore 0 · neff_1 (neuron-profile
    // JSON)"): an export, not the device's own trace. nullptr: nothing.
    const char *folderGroupSuffix = nullptr;
    // A format that is a directory, not a file (Neuron Explorer's processed profiles): its importer,
    // given the directory. The profile-folder scan lists such a directory as one entry (FolderScan).
    Trace (*importDirectory)(const std::string &path, const LoadOptions &options) = nullptr;
    // Its device rows (`lanescope-cli rows`), given the directory. nullptr: none.
    NtffProfile (*readRowsDirectory)(const std::string &path, const LoadOptions &options) = nullptr;
};

class Formats
{
public:
    // Every entry, in detection order.
    static std::span<const FormatInfo> all();
    // The entry of a kind (Unknown and Folder have entries too).
    static const FormatInfo &info(FileFormat f);
    static const char *name(FileFormat f) { return info(f).name; }
    static const char *folderKind(FileFormat f) { return info(f).folderKind; }

    // The bytes of a JSON file the detection reads at most: a neuron-profile export's keys may sit
    // behind its small tables in any order; a Kineto trace's "traceEvents" behind its metadata. A
    // stream's first block holds at least this much (InputStream::kBlockBytes).
    static constexpr size_t kJsonProbeBytes = size_t(4) << 20;

    // Whole-file detection on the first bytes of a (decompressed) input: up to kJsonProbeBytes of a
    // JSON file are read (pass them when you have them), the first 4 KiB decide the other formats.
    static FileFormat sniff(std::string_view head, uint64_t fileSize);
    // Why a file is no known format (sniff gave Unknown), naming what was looked for: for a JSON
    // object its top-level keys and the keys each JSON kind is recognised by.
    static std::string unrecognised(std::string_view head, uint64_t fileSize);
    // A path without loading it: Folder for a directory; compressed files report Unknown. A JSON
    // object is read up to kJsonProbeBytes when its first bytes do not decide.
    static FileFormat sniffPath(const std::string &path);
    // Detection inside a profile folder (FolderScan); Unknown when none applies.
    static FileFormat sniffInFolder(const FormatProbe &probe);
    static FileFormat sniffName(std::string_view baseName);
    // "device_profile_model_<id>.json": what `neuron-profile view --output-format json` writes beside
    // system_profile.json. In a folder, a JSON object of that name that no content rule claims is taken as a
    // neuron-profile export (its keys may all sit past the probed head).
    static bool isNeuronProfileExportName(std::string_view baseName);

    // The GUI's NEFF check: the path is a compiled program (opened in the NEFF panel, not as a trace).
    static bool isCompiledProgram(const std::string &path);
    // A file-dialog filter built from the table: "Traces (*.json *.json.gz ... *.ntff);;All files (*)",
    // the patterns of every format that opens as a timeline, and NEFFs with `withPrograms`.
    static std::string dialogFilter(bool withPrograms = true);
};

} // namespace lanescope
