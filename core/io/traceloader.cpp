#include "traceloader.h"

#include "chromejsonimporter.h"
#include "inputbuffer.h"
#include "ntffimporter.h"

#include <filesystem>

namespace lanescope {

const char *TraceLoader::formatName(FileFormat f)
{
    switch (f) {
    case FileFormat::Unknown: return "unknown";
    case FileFormat::ChromeJson: return "chrome-json";
    case FileFormat::NeuronProfileJson: return "neuron-profile-json";
    case FileFormat::Ntff: return "ntff";
    case FileFormat::Neff: return "neff";
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
        // neuron-profile's export is one object whose arrays include "instruction" and "dma" and
        // whose metadata carries ntff_version; Chrome traces have traceEvents or are arrays.
        if (head[i] == '{' && head.find("\"traceEvents\"") == std::string_view::npos
            && (head.find("\"ntff_version\"") != std::string_view::npos
                || head.find("\"first_hw_timestamp\"") != std::string_view::npos))
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

LoadResult TraceLoader::load(const std::string &path, const LoadOptions &options)
{
    LoadResult result;
    try {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec))
            throw ImportError(path, "opening folders is not supported yet; open a trace file inside it");
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
        case FileFormat::Unknown:
            if (input.size() == 0)
                throw ImportError(path, 0, "file is empty; expected a trace (JSON, NTFF or NEFF)");
            throw ImportError(path, 0, "unrecognised file format; expected Chrome/Kineto trace JSON (object or array, optionally gzip/zstd compressed), an NTFF or a NEFF");
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
