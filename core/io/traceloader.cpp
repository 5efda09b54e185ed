#include "traceloader.h"

#include "inputbuffer.h"
#include "multirankloader.h"
#include "profilefolder.h"
#include "profilefolderloader.h"
#include "util/textutil.h"

#include <filesystem>

namespace lanescope {

namespace {

Trace importFile(const std::string &path, const LoadOptions &options)
{
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
