#include "formats.h"

#include "io/chrome/chromejsonimporter.h"
#include "io/input/inputbuffer.h"
#include "io/neff/neffreader.h"
#include "io/neuronprofile/neuronprofilejsonimporter.h"
#include "io/neuronprofile/neuronprofilejsonreader.h"
#include "io/ntff/ntffimporter.h"
#include "io/ntff/ntffopcodenaming.h"
#include "io/ntff/ntffreader.h"
#include "io/ntrace/ntraceimporter.h"
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

// system_profile.json: an object with "trace_events" (snake case) and no "traceEvents".
bool isSystemProfileJson(const FormatProbe &p)
{
    return jsonStart(p.head) == '{' && contains(p.head, "\"trace_events\"") && !contains(p.head, "\"traceEvents\"");
}

// neuron-profile's export is one object of arrays whose keys come in any order, so its "metadata" may
// sit megabytes in: recognise it by its first key, or by a key only it writes anywhere in the head.
bool isNeuronProfileJson(const FormatProbe &p)
{
    const std::string_view head = p.head;
    if (jsonStart(head) != '{' || isSystemProfileJson(p) || contains(head, "\"traceEvents\""))
        return false;
    size_t i = firstNonSpace(head) + 1;
    while (i < head.size() && text::isSpace(head[i]))
        ++i;
    if (i < head.size() && head[i] == '"') {
        const size_t end = head.find('"', i + 1);
        const std::string_view first =
            end == std::string_view::npos ? std::string_view() : head.substr(i + 1, end - i - 1);
        // every top-level key of the export except the generic "metadata", "summary" and "warnings"
        static constexpr std::string_view keys[] = {"instruction",         "dma",
                                                    "semaphore_update",    "pending_dma",
                                                    "dma_throughput",      "instruction_usage",
                                                    "nc_mem_usage",        "active_time",
                                                    "layer_summary",       "model_info",
                                                    "neff_header",         "profile_info",
                                                    "dma_queues_info",     "neff_node",
                                                    "terminology",         "summary_groups",
                                                    "summary_group_order", "ham"};
        for (std::string_view k : keys)
            if (first == k)
                return true;
    }
    static constexpr std::string_view markers[] = {
        "\"ntff_version\"",  "\"first_hw_timestamp\"", "\"semaphore_update\"",  "\"dma_queues_info\"",
        "\"evt_wait_time\"", "\"nc_mem_usage\"",       "\"instruction_usage\"", "\"fully_qualified_subgraph\""};
    for (std::string_view m : markers)
        if (contains(head, m))
            return true;
    return false;
}

// `lanescope-cli summarize` writes "format" first (docs/job-summary.md): {"format":"lanescope-rank-summary",
// in the first bytes, with any whitespace around the colon.
bool isRankSummary(const FormatProbe &p)
{
    const std::string_view head = p.head;
    size_t i = firstNonSpace(head);
    if (i >= head.size() || head[i] != '{')
        return false;
    for (const std::string_view token : {std::string_view("{"), std::string_view("\"format\""), std::string_view(":"),
                                         std::string_view("\"lanescope-rank-summary\"")}) {
        while (i < head.size() && text::isSpace(head[i]))
            ++i;
        if (head.substr(i, token.size()) != token)
            return false;
        i += token.size();
    }
    return true;
}

// Opened on its own, any JSON object or array is taken as Chrome trace JSON (also unterminated).
bool isChromeJson(const FormatProbe &p) { return jsonStart(p.head) != 0; }

// In a folder, a JSON file must look like a trace: an object with "traceEvents", or an array of events.
bool isChromeJsonInFolder(const FormatProbe &p)
{
    const char start = jsonStart(p.head);
    if (start == '[')
        return contains(p.head, "\"ph\"") || (contains(p.head, "\"ts\"") && contains(p.head, "\"name\""));
    return start == '{' && contains(p.head, "\"traceEvents\"");
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
    const FormatProbe probe{head, fileSize, false};
    for (const FormatInfo &e : kFormats)
        if (e.detect && e.detect(probe))
            return e.id;
    return FileFormat::Unknown;
}

FileFormat Formats::sniffInFolder(const FormatProbe &probe)
{
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
    std::fclose(f);
    const uint64_t size = std::filesystem::file_size(path, ec);
    return sniff(head, ec ? head.size() : size);
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
