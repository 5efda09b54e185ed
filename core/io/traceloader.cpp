#include "traceloader.h"

#include "chromejsonimporter.h"
#include "inputbuffer.h"
#include "inputstream.h"
#include "multirankloader.h"
#include "profilefolder.h"
#include "profilefolderloader.h"
#include "util/textutil.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include <sys/stat.h>

namespace lanescope {

namespace {

// Kineto / Chrome JSON in a regular file (plain, gzip, zstd, zip) is read as a stream: its event
// array is parsed in windows on the cores while the rest is still read and decompressed, in bounded
// memory (chromejsonimporter.h). Pipes and other formats are read whole.
std::optional<Trace> importStreamed(const std::string &path, const LoadOptions &options)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return std::nullopt;
    std::string head(4096, '\0');
    {
        uint64_t size = 0;
        std::unique_ptr<std::FILE, int (*)(std::FILE *)> f(InputBuffer::openForReading(path, size), std::fclose);
        head.resize(std::fread(head.data(), 1, head.size(), f.get()));
    }
    if (InputBuffer::detect(head) == Compression::None && Formats::sniff(head, uint64_t(st.st_size)) != FileFormat::ChromeJson)
        return std::nullopt;
    InputStream stream(path, options);
    if (Formats::sniff(stream.peek(4096), stream.compressedSize()) != FileFormat::ChromeJson)
        return std::nullopt;
    return ChromeJsonImporter::importStream(stream, options);
}

Trace importFile(const std::string &path, const LoadOptions &options)
{
    if (std::optional<Trace> streamed = importStreamed(path, options))
        return std::move(*streamed);
    InputBuffer input = InputBuffer::read(path, options);
    const FileFormat format = Formats::sniff(input.view().substr(0, 4096), input.size());
    const FormatInfo &info = Formats::info(format);
    if (info.import)
        return info.import(input, path, options);
    if (format == FileFormat::Unknown) {
        if (input.size() == 0)
            throw ImportError(path, 0, "file is empty; expected a trace (JSON, NTFF or NEFF)");
        // Named .ntff but its header does not hold up (a corrupt metadata length, a cut file): the
        // NTFF reader says what is wrong, which helps more than "unrecognised".
        if (text::endsWithNoCase(path, ".ntff"))
            return Formats::info(FileFormat::Ntff).import(input, path, options);
        throw ImportError(path, 0, "unrecognised file format; expected Chrome/Kineto trace JSON (object or array, optionally gzip/zstd compressed), an NTFF or a NEFF");
    }
    if (info.notATrace)
        throw ImportError(path, info.notATrace);
    throw ImportError(path, 0, std::string("reading ") + info.name + " files is not supported yet");
}

} // namespace

LoadResult TraceLoader::load(const std::string &path, const LoadOptions &options)
{
    LoadResult result;
    try {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) {
            const ProfileFolder folder = ProfileFolder::scan(path, options);
            // A folder of Kineto traces of distinct ranks is one multi-rank timeline (multirankloader.h).
            std::optional<Trace> ranks = MultiRankLoader::isCandidate(folder) ? MultiRankLoader::loadFolder(folder, options) : std::nullopt;
            result.trace = std::make_shared<const Trace>(ranks ? std::move(*ranks) : ProfileFolderLoader::load(folder, options));
        } else {
            result.trace = std::make_shared<const Trace>(importFile(path, options));
        }
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
