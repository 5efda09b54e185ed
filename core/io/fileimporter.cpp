#include "fileimporter.h"

#include "formats.h"
#include "inputbuffer.h"
#include "util/textutil.h"

namespace lanescope {

Trace FileImporter::import(const std::string &path, const LoadOptions &options)
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

LoadResult FileImporter::load(const std::string &path, const LoadOptions &options)
{
    return run(path, [&] { return import(path, options); });
}

LoadResult FileImporter::run(const std::string &path, const std::function<Trace()> &load)
{
    LoadResult result;
    try {
        result.trace = std::make_shared<const Trace>(load());
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
