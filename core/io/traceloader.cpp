#include "traceloader.h"

#include "chromejsonimporter.h"
#include "inputbuffer.h"
#include "neuronprofilejsonimporter.h"
#include "ntffimporter.h"
#include "profilefolderloader.h"
#include "systemprofileimporter.h"

#include <cctype>
#include <cstdio>
#include <filesystem>

namespace lanescope {

namespace {

// neuron-profile's export is one object of arrays whose keys come in any order, so its "metadata" may
// sit megabytes in: recognise it by its first key, or by a key only it writes anywhere in the head.
bool looksLikeNeuronProfileJson(std::string_view head, size_t brace)
{
    if (head.find("\"traceEvents\"") != std::string_view::npos)
        return false;
    size_t i = brace + 1;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
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
        if (head.find(m) != std::string_view::npos)
            return true;
    return false;
}

// system_profile.json: an object with "trace_events" (snake case) and no "traceEvents".
bool looksLikeSystemProfileJson(std::string_view head)
{
    return head.find("\"trace_events\"") != std::string_view::npos && head.find("\"traceEvents\"") == std::string_view::npos;
}

} // namespace

const char *TraceLoader::formatName(FileFormat f)
{
    switch (f) {
    case FileFormat::Unknown: return "unknown";
    case FileFormat::ChromeJson: return "chrome-json";
    case FileFormat::NeuronProfileJson: return "neuron-profile-json";
    case FileFormat::Ntff: return "ntff";
    case FileFormat::Neff: return "neff";
    case FileFormat::SystemProfileJson: return "system-profile-json";
    case FileFormat::Folder: return "folder";
    }
    return "unknown";
}

FileFormat TraceLoader::sniff(std::string_view head, uint64_t fileSize)
{
    size_t i = 0;
    if (head.size() >= 3 && head.substr(0, 3) == "\xEF\xBB\xBF")
        i = 3;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        ++i;
    if (i < head.size() && (head[i] == '{' || head[i] == '[')) {
        // Chrome traces have traceEvents or are arrays; the system profile has trace_events.
        if (head[i] == '{' && looksLikeSystemProfileJson(head))
            return FileFormat::SystemProfileJson;
        if (head[i] == '{' && looksLikeNeuronProfileJson(head, i))
            return FileFormat::NeuronProfileJson;
        return FileFormat::ChromeJson;
    }
    // NTFF: version byte 4/5/6.., u32 metadata length that fits in the file.
    if (head.size() >= 5 && uint8_t(head[0]) >= 1 && uint8_t(head[0]) <= 16) {
        const uint32_t n = uint32_t(uint8_t(head[1])) | uint32_t(uint8_t(head[2])) << 8
            | uint32_t(uint8_t(head[3])) << 16 | uint32_t(uint8_t(head[4])) << 24;
        if (fileSize >= 0x80 && n > 0 && 0x80ull + n <= fileSize && head.size() > 0x80 && uint8_t(head[0x80]) == 0x0a)
            return FileFormat::Ntff;
    }
    // NEFF: 1024-byte header, pkg_version 1 or 2, header_size 1024.
    if (head.size() >= 24) {
        auto u64 = [&](size_t o) {
            uint64_t v = 0;
            for (int b = 7; b >= 0; --b)
                v = (v << 8) | uint8_t(head[o + size_t(b)]);
            return v;
        };
        if ((u64(0) == 1 || u64(0) == 2) && u64(8) == 1024 && u64(16) <= fileSize - std::min<uint64_t>(fileSize, 1024))
            return FileFormat::Neff;
    }
    return FileFormat::Unknown;
}

ProfileFolder TraceLoader::scanFolder(const std::string &dir, const LoadOptions &options)
{
    return ProfileFolder::scan(dir, options);
}

namespace {

bool endsWithNoCase(const std::string &s, std::string_view suffix)
{
    if (s.size() < suffix.size())
        return false;
    for (size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i])
            return false;
    return true;
}

} // namespace

FileFormat TraceLoader::sniffPath(const std::string &path)
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

LoadResult TraceLoader::load(const std::string &path, const LoadOptions &options)
{
    LoadResult result;
    try {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) {
            result.trace = std::make_shared<const Trace>(ProfileFolderLoader::load(ProfileFolder::scan(path, options), options));
            return result;
        }
        InputBuffer input = InputBuffer::read(path, options);
        const FileFormat format = sniff(input.view().substr(0, 4096), input.size());
        Trace trace;
        switch (format) {
        case FileFormat::ChromeJson:
            trace = ChromeJsonImporter::import(input, path, options);
            break;
        case FileFormat::Ntff:
            trace = NtffImporter::import(input, path, options);
            break;
        case FileFormat::NeuronProfileJson:
            trace = NeuronProfileJsonImporter::import(input, path, options);
            break;
        case FileFormat::SystemProfileJson:
            trace = SystemProfileImporter::import(input, path, options);
            break;
        case FileFormat::Unknown:
            if (input.size() == 0)
                throw ImportError(path, 0, "file is empty; expected a trace (JSON, NTFF or NEFF)");
            // Named .ntff but its header does not hold up (a corrupt metadata length, a cut file): the
            // NTFF reader says what is wrong, which helps more than "unrecognised".
            if (endsWithNoCase(path, ".ntff")) {
                trace = NtffImporter::import(input, path, options);
                break;
            }
            throw ImportError(path, 0, "unrecognised file format; expected Chrome/Kineto trace JSON (object or array, optionally gzip/zstd compressed), an NTFF or a NEFF");
        case FileFormat::Neff:
            throw ImportError(path, "a NEFF is a compiled program, not a trace: open it in the NEFF panel or with "
                                    "`lanescope-cli neff`, or open its profile folder to see it paired with its NTFF");
        default:
            throw ImportError(path, 0, std::string("reading ") + formatName(format) + " files is not supported yet");
        }
        result.trace = std::make_shared<const Trace>(std::move(trace));
    } catch (const LoadCancelled &) {
        result.cancelled = true;
        result.error = path + ": load cancelled";
    } catch (const ImportError &e) {
        result.error = e.what();
    } catch (const std::bad_alloc &) {
        result.error = path + ": out of memory while loading";
    } catch (const std::exception &e) {
        result.error = path + ": " + e.what();
    }
    return result;
}

} // namespace lanescope
