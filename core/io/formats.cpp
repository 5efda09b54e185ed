#include "formats.h"

#include "io/chrome/chromejsonimporter.h"
#include "io/explorer/explorerdeviceimporter.h"
#include "io/explorer/explorersystemimporter.h"
#include "io/input/inputbuffer.h"
#include "io/neff/neffreader.h"
#include "io/neuronprofile/neuronprofilejsonimporter.h"
#include "io/neuronprofile/neuronprofilejsonreader.h"
#include "io/ntff/ntffimporter.h"
#include "io/ntff/ntffopcodenaming.h"
#include "io/ntff/ntffreader.h"
#include "io/ntrace/ntraceimporter.h"
#include "io/json/jsontoplevelscan.h"
#include "io/systemprofile/systemprofileimporter.h"
#include "util/textutil.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace lanescope {

namespace {

bool contains(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

// Index of the first character after a UTF-8 BOM and JSON whitespace.
size_t firstNonSpace(std::string_view s)
{
    size_t i = s.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (i < s.size() && text::isSpace(s[i]))
        ++i;
    return i;
}

// '{', '[' or 0: how the JSON text starts.
char jsonStart(std::string_view head)
{
    const size_t i = firstNonSpace(head);
    return i < head.size() && (head[i] == '{' || head[i] == '[') ? head[i] : 0;
}

// Every top-level key of a neuron-profile export except the generic "metadata", "summary" and "warnings".
constexpr std::string_view kNeuronProfileKeys[] = {
    "instruction",      "dma",          "semaphore_update", "pending_dma",   "dma_throughput", "instruction_usage",
    "nc_mem_usage",     "active_time",  "layer_summary",    "model_info",    "neff_header",    "profile_info",
    "dma_queues_info",  "neff_node",    "terminology",      "summary_groups", "summary_group_order", "ham"};
// Keys only an export writes inside its generic tables (an export holding nothing else).
constexpr std::string_view kNeuronProfileMarkers[] = {
    "\"ntff_version\"",  "\"first_hw_timestamp\"", "\"evt_wait_time\"", "\"fully_qualified_subgraph\""};
constexpr std::string_view kRankSummaryFormat = "lanescope-rank-summary";

enum class JsonKind : uint8_t {
    Undecided,     // not a JSON object, or its top level not read far enough to tell
    None,          // an object whose every top-level key was read: none of ours
    RankSummary,   // "format": "lanescope-rank-summary"
    SystemProfile, // "trace_events" (and no "traceEvents")
    NeuronProfile, // one of kNeuronProfileKeys
    Chrome,        // "traceEvents"
};

bool isNeuronProfileKey(std::string_view k)
{
    return std::find(std::begin(kNeuronProfileKeys), std::end(kNeuronProfileKeys), k) != std::end(kNeuronProfileKeys);
}

// What the top-level keys read so far say, in file order: the first key that names a kind decides,
// except "trace_events", which a later "traceEvents" overrides (a Chrome trace that also carries it).
// `final`: nothing more will be read (the object closed, or the probe's bytes are used up).
JsonKind jsonKindOf(const JsonTopLevelScan &scan, std::string_view scanned, bool final)
{
    if (scan.shape() != JsonTopLevelScan::Shape::Object)
        return JsonKind::Undecided;
    bool systemProfile = false;
    for (const JsonTopLevelScan::Key &k : scan.keys()) {
        if (k.name == "format" && k.value == '"' && k.text == kRankSummaryFormat)
            return JsonKind::RankSummary;
        if (k.name == "traceEvents")
            return JsonKind::Chrome;
        if (k.name == "trace_events")
            systemProfile = true;
        else if (!systemProfile && isNeuronProfileKey(k.name))
            return JsonKind::NeuronProfile;
    }
    if (!final && !scan.complete() && !scan.broken())
        return JsonKind::Undecided;
    if (systemProfile)
        return JsonKind::SystemProfile;
    for (std::string_view m : kNeuronProfileMarkers)
        if (contains(scanned, m))
            return JsonKind::NeuronProfile;
    return scan.complete() ? JsonKind::None : JsonKind::Undecided;
}

// Reads the top level of `text` (at most Formats::kJsonProbeBytes of it) until a key decides.
JsonKind scanJson(std::string_view text, JsonTopLevelScan &scan)
{
    text = text.substr(0, Formats::kJsonProbeBytes);
    constexpr size_t kPiece = size_t(64) << 10;
    size_t at = 0;
    while (at < text.size() && scan.feed(text.substr(at, kPiece))) {
        at += kPiece;
        if (jsonKindOf(scan, text.substr(0, at), false) != JsonKind::Undecided)
            break;
    }
    return jsonKindOf(scan, text.substr(0, std::min<uint64_t>(scan.scanned(), text.size())), true);
}

// Read once per probe: every JSON rule asks.
JsonKind jsonKind(const FormatProbe &p)
{
    if (p.jsonKind < 0) {
        JsonTopLevelScan scan;
        p.jsonKind = int8_t(jsonStart(p.head) == '{' ? scanJson(p.head, scan) : JsonKind::Undecided);
    }
    return JsonKind(p.jsonKind);
}

// system_profile.json: an object with "trace_events" (and no "traceEvents").
bool isSystemProfileJson(const FormatProbe &p) { return jsonKind(p) == JsonKind::SystemProfile; }

// neuron-profile's export is one object of arrays whose keys come in any order (its "metadata" may
// sit megabytes in): recognised by any key only it writes, wherever it sits in the top level.
bool isNeuronProfileJson(const FormatProbe &p) { return jsonKind(p) == JsonKind::NeuronProfile; }

// `lanescope-cli summarize` writes "format": "lanescope-rank-summary" (docs/job-summary.md), first, but
// any position is read.
bool isRankSummary(const FormatProbe &p) { return jsonKind(p) == JsonKind::RankSummary; }

// Opened on its own, a JSON array, an object with "traceEvents", and an object whose top level the
// probe could not read to its end (also an unterminated one) are taken as Chrome trace JSON: the
// importer finds "traceEvents" wherever it is, or says what it found instead.
bool isChromeJson(const FormatProbe &p)
{
    const char start = jsonStart(p.head);
    if (start == '[')
        return true;
    const JsonKind k = jsonKind(p);
    return start == '{' && (k == JsonKind::Chrome || k == JsonKind::Undecided);
}

// In a folder, a JSON file must look like a trace: an object with "traceEvents", or an array of events.
bool isChromeJsonInFolder(const FormatProbe &p)
{
    const char start = jsonStart(p.head);
    if (start == '[')
        return contains(p.head, "\"ph\"") || (contains(p.head, "\"ts\"") && contains(p.head, "\"name\""));
    return start == '{' && jsonKind(p) == JsonKind::Chrome;
}

// NTFF: version byte 1..16, u32 metadata length that fits in the file, the metadata message (field 1,
// length-delimited) at 0x80.
bool isNtff(const FormatProbe &p)
{
    const std::string_view head = p.head;
    if (head.size() <= kNtffMetadataOffset || p.size < kNtffMetadataOffset || uint8_t(head[0]) < 1 || uint8_t(head[0]) > 16)
        return false;
    const uint32_t n = uint32_t(uint8_t(head[1])) | uint32_t(uint8_t(head[2])) << 8 | uint32_t(uint8_t(head[3])) << 16 |
                       uint32_t(uint8_t(head[4])) << 24;
    return n > 0 && uint64_t(kNtffMetadataOffset) + n <= p.size && uint8_t(head[kNtffMetadataOffset]) == 0x0a;
}

// NEFF: 1024-byte header, pkg_version 1 or 2, header_size 1024.
bool isNeff(const FormatProbe &p)
{
    const std::string_view head = p.head;
    if (head.size() < 24)
        return false;
    auto u64 = [&](size_t o) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; --b)
            v = (v << 8) | uint8_t(head[o + size_t(b)]);
        return v;
    };
    return (u64(0) == 1 || u64(0) == 2) && u64(8) == 1024 && u64(16) <= p.size - std::min<uint64_t>(p.size, 1024);
}

// In a folder a NEFF is read from disk as it is (a compressed one is listed as such).
bool isNeffInFolder(const FormatProbe &p) { return !p.compressed && NeffReader::looksLikeNeff(p.head, p.size); }

// Protobuf has no magic number: the Neuron system trace files are recognised by name.
bool isNtraceName(std::string_view base) { return base == NtraceImporter::kTraceFile; }
bool isNeuronSessionPartName(std::string_view base) { return NtraceImporter::isSessionFile(base); }

Trace importNtff(InputBuffer &in, const std::string &path, const LoadOptions &o) { return NtffImporter::import(in, path, o); }
Trace importExplorerDevice(const std::string &dir, const LoadOptions &o) { return ExplorerDeviceImporter::import(dir, o); }
Trace importExplorerSystem(const std::string &dir, const LoadOptions &o) { return explorer::SystemDirectoryImporter::import(dir, o); }
NtffProfile readNtffRows(InputBuffer &in, const std::string &path, const LoadOptions &o)
{
    NtffProfile profile = NtffReader::read(in.view(), path, o);
    NtffOpcodeNaming::nameFromNeighbour(profile, path, o);
    return profile;
}
NtffProfile readNeuronProfileRows(InputBuffer &in, const std::string &path, const LoadOptions &o)
{
    return NeuronProfileJsonReader::read(in, path, o);
}
NtffProfile readNeuronProfileRowsStream(InputStream &in, const LoadOptions &o) { return NeuronProfileJsonReader::read(in, o); }

// Detection order: the JSON kinds by their keys (rank summary, system trace, neuron-profile export, then
// any JSON as a Chrome trace), then the binary headers. Unknown and Folder are last and never detected.
constexpr FormatInfo kFormats[] = {
    {FileFormat::RankSummary, "rank-summary", "rank-summary", "Lanescope rank summary (lanescope-cli summarize)", isRankSummary,
     nullptr, nullptr, nullptr, nullptr, FolderRole::RankSummary, "*.summary.json", "application/json",
     "a rank summary is one rank of a distributed job, not a timeline: open its folder (or the file) as the job overview "
     "(lanescope-cli info DIR, or Open Folder in the viewer); a rank's trace opens from there"},
    {FileFormat::SystemProfileJson, "system-profile-json", "system-profile-json", "Neuron system trace JSON (system_profile.json)",
     isSystemProfileJson, nullptr, nullptr, SystemProfileImporter::import, nullptr, FolderRole::SystemTrace, "*.json",
     "application/json", nullptr, SystemProfileImporter::importStream},
    {FileFormat::NeuronProfileJson, "neuron-profile-json", "neuron-profile-json", "neuron-profile JSON export",
     isNeuronProfileJson, nullptr, nullptr, NeuronProfileJsonImporter::import, readNeuronProfileRows, FolderRole::DeviceTrace,
     "*.json", "application/json", nullptr, NeuronProfileJsonImporter::importStream, readNeuronProfileRowsStream,
     " (neuron-profile JSON)"},
    {FileFormat::ChromeJson, "chrome-json", "chrome-trace", "Kineto / Chrome trace JSON", isChromeJson, isChromeJsonInFolder,
     nullptr, ChromeJsonImporter::import, nullptr, FolderRole::FrameworkTrace,
     "*.json *.json.gz *.gz *.zst *.zip *.pt.trace.json", "application/x-kineto-trace+json", nullptr,
     ChromeJsonImporter::importStream},
    {FileFormat::Ntff, "ntff", "ntff", "Neuron device trace (NTFF)", isNtff, nullptr, nullptr, importNtff, readNtffRows,
     FolderRole::DeviceTrace, "*.ntff", "application/x-neuron-ntff", nullptr},
    {FileFormat::Neff, "neff", "neff", "Neuron compiled program (NEFF)", isNeff, isNeffInFolder, nullptr, nullptr, nullptr,
     FolderRole::CompiledProgram, "*.neff", "application/x-neuron-neff",
     "a NEFF is a compiled program, not a trace: open it in the NEFF panel or with `lanescope-cli neff`, or open its "
     "profile folder to see it paired with its NTFF"},
    {FileFormat::NeuronTrace, "neuron-ntrace", "neuron-ntrace", "Neuron system trace (ntrace.pb)", nullptr, nullptr, isNtraceName,
     NtraceImporter::import, nullptr, FolderRole::SystemTrace, "ntrace.pb", "", nullptr},
    {FileFormat::NeuronProtobuf, "neuron-protobuf", "neuron-protobuf", "Neuron capture session file (protobuf)", nullptr, nullptr,
     isNeuronSessionPartName, nullptr, nullptr, FolderRole::SessionPart, "", "",
     "trace_info.pb, cpu_util.pb and host_mem.pb are read with the ntrace.pb of their capture session: open that ntrace.pb "
     "or the session's folder"},
    {FileFormat::ExplorerDevice, "neuron-explorer-parquet", "explorer-device-profile",
     "Neuron Explorer device profile (Parquet tables)", nullptr, nullptr, nullptr, nullptr, nullptr, FolderRole::DeviceTrace, "",
     "inode/directory", nullptr, nullptr, nullptr, " (Neuron Explorer Parquet)", importExplorerDevice, ExplorerDeviceImporter::readRows},
    {FileFormat::ExplorerSystem, "explorer-system-parquet", "explorer-system-profile",
     "Neuron Explorer system profile (Parquet tables)", nullptr, nullptr, nullptr, nullptr, nullptr, FolderRole::SystemTrace, "",
     "inode/directory", nullptr, nullptr, nullptr, nullptr, importExplorerSystem},
    {FileFormat::Folder, "folder", "folder", "Profile folder", nullptr, nullptr, nullptr, nullptr, nullptr, FolderRole::None, "",
     "inode/directory", nullptr},
    {FileFormat::Unknown, "unknown", "other", "Unknown", nullptr, nullptr, nullptr, nullptr, nullptr, FolderRole::None, "", "",
     nullptr},
};

static_assert(std::size(kFormats) == size_t(kFileFormatCount), "one table entry per FileFormat");

} // namespace

std::span<const FormatInfo> Formats::all() { return kFormats; }

const FormatInfo &Formats::info(FileFormat f)
{
    for (const FormatInfo &e : kFormats)
        if (e.id == f)
            return e;
    return kFormats[std::size(kFormats) - 1];
}

FileFormat Formats::sniff(std::string_view head, uint64_t fileSize)
{
    const FormatProbe probe{head, fileSize, false, -1};
    for (const FormatInfo &e : kFormats)
        if (e.detect && e.detect(probe))
            return e.id;
    return FileFormat::Unknown;
}

FileFormat Formats::sniffInFolder(const FormatProbe &given)
{
    const FormatProbe probe{given.head, given.size, given.compressed, -1};
    for (const FormatInfo &e : kFormats) {
        const auto rule = e.detectInFolder ? e.detectInFolder : e.detect;
        if (rule && rule(probe))
            return e.id;
    }
    return FileFormat::Unknown;
}

FileFormat Formats::sniffName(std::string_view baseName)
{
    for (const FormatInfo &e : kFormats)
        if (e.detectByName && e.detectByName(baseName))
            return e.id;
    return FileFormat::Unknown;
}

bool Formats::isNeuronProfileExportName(std::string_view base)
{
    static constexpr std::string_view prefix = "device_profile_model_", suffix = ".json";
    return base.size() > prefix.size() + suffix.size() && base.starts_with(prefix) && base.ends_with(suffix);
}

FileFormat Formats::sniffPath(const std::string &path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return FileFormat::Folder;
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return FileFormat::Unknown;
    std::string head(4096, '\0');
    head.resize(std::fread(head.data(), 1, head.size(), f));
    const uint64_t size = std::filesystem::file_size(path, ec);
    FormatProbe probe{head, ec ? head.size() : size, false, -1};
    if (head.size() == 4096 && jsonStart(head) == '{' && jsonKind(probe) == JsonKind::Undecided) {
        // the top level goes on past the first bytes: read up to the probe's limit
        head.resize(kJsonProbeBytes);
        head.resize(4096 + std::fread(head.data() + 4096, 1, head.size() - 4096, f));
    }
    std::fclose(f);
    return sniff(head, ec ? head.size() : size);
}

std::string Formats::unrecognised(std::string_view head, uint64_t fileSize)
{
    if (fileSize == 0 || firstNonSpace(head) >= head.size())
        return "file is empty; expected a trace (JSON, NTFF or NEFF)";
    std::string kinds;
    for (const FormatInfo &e : kFormats)
        if (e.detect && e.id != FileFormat::Unknown)
            kinds += std::string(kinds.empty() ? "" : ", ") + e.displayName;
    if (jsonStart(head) != '{')
        return "unrecognised file format; expected one of: " + kinds + " (JSON optionally gzip/zstd/zip compressed)";
    JsonTopLevelScan scan;
    scanJson(head, scan);
    std::string found;
    for (size_t i = 0; i < scan.keys().size() && i < 20; ++i)
        found += (i ? ", " : "") + scan.keys()[i].name;
    if (scan.keys().size() > 20)
        found += ", ... (" + std::to_string(scan.keys().size()) + " keys)";
    std::string neuron;
    for (std::string_view k : kNeuronProfileKeys)
        neuron += std::string(neuron.empty() ? "\"" : ", \"") + std::string(k) + "\"";
    return "a JSON object with the top-level keys " + (found.empty() ? std::string("(none)") : found) +
           " is none of the JSON files read here: not a Chrome/Kineto trace (looked for \"traceEvents\"), not a "
           "neuron-profile JSON export (looked for any of " + neuron +
           "), not a Neuron system trace (looked for \"trace_events\"), not a Lanescope rank summary (looked for "
           "\"format\": \"lanescope-rank-summary\")";
}

bool Formats::isCompiledProgram(const std::string &path)
{
    return info(sniffPath(path)).role == FolderRole::CompiledProgram;
}

std::string Formats::dialogFilter(bool withPrograms)
{
    std::vector<std::string> patterns;
    for (const FormatInfo &e : kFormats) {
        if (!e.import && !(withPrograms && e.role == FolderRole::CompiledProgram))
            continue;
        std::string_view rest = e.dialogPatterns;
        while (!rest.empty()) {
            const size_t space = rest.find(' ');
            const std::string_view p = rest.substr(0, space);
            if (!p.empty() && std::find(patterns.begin(), patterns.end(), p) == patterns.end())
                patterns.emplace_back(p);
            rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
        }
    }
    std::string filter = "Traces (";
    for (size_t i = 0; i < patterns.size(); ++i)
        filter += (i ? " " : "") + patterns[i];
    return filter + ");;All files (*)";
}

} // namespace lanescope
