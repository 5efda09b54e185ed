#include "fileimporter.h"

#include "formats.h"
#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"
#include "util/textutil.h"

#include <cstdio>
#include <memory>
#include <optional>

#include <sys/stat.h>

namespace lanescope {

namespace {

// A regular file of a format with a stream importer (Kineto / Chrome JSON, neuron-profile JSON,
// system_profile.json; plain, gzip, zstd, zip) is read as a stream: its event arrays are parsed in
// windows on the cores while the rest is still read and decompressed, in bounded memory. A compressed
// file of another format is read whole from the stream that sniffed it (decompressed once); plain files
// of other formats, pipes and devices are read whole by InputBuffer::read (a plain file's first 4 KiB
// say what it is without a stream).
struct Opened
{
    std::optional<Trace> trace;       // loaded from the stream
    std::optional<InputBuffer> input; // else the whole input when the stream already began on it
};

Opened importStreamed(const std::string &path, const LoadOptions &options)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return {};
    std::string head(4096, '\0');
    {
        uint64_t size = 0;
        std::unique_ptr<std::FILE, int (*)(std::FILE *)> f(InputBuffer::openForReading(path, size), std::fclose);
        head.resize(std::fread(head.data(), 1, head.size(), f.get()));
    }
    if (InputBuffer::detect(head) == Compression::None && !Formats::info(Formats::sniff(head, uint64_t(st.st_size))).importStream)
        return {};
    InputStream stream(path, options);
    const FormatInfo &info = Formats::info(Formats::sniff(stream.peek(Formats::kJsonProbeBytes), stream.compressedSize()));
    if (!info.importStream)
        return Opened{std::nullopt, stream.readAll()};
    return Opened{info.importStream(stream, options), std::nullopt};
}

} // namespace

Trace FileImporter::import(const std::string &path, const LoadOptions &options)
{
    // Formats without a magic number (ntrace.pb and its session files) by their name first: a protobuf
    // record of 123 bytes starts with '{'.
    if (const FormatInfo &byName = Formats::info(Formats::sniffName(path.substr(path.rfind('/') + 1))); byName.id != FileFormat::Unknown) {
        if (byName.import)
            return importAs(path, byName.id, options);
        if (byName.notATrace)
            throw ImportError(path, byName.notATrace);
    }
    Opened opened = importStreamed(path, options);
    if (opened.trace)
        return std::move(*opened.trace);
    InputBuffer input = opened.input ? std::move(*opened.input) : InputBuffer::read(path, options);
    const FileFormat format = Formats::sniff(input.view().substr(0, Formats::kJsonProbeBytes), input.size());
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
        throw ImportError(path, 0, Formats::unrecognised(input.view().substr(0, Formats::kJsonProbeBytes), input.size()));
    }
    if (info.notATrace)
        throw ImportError(path, info.notATrace);
    throw ImportError(path, 0, std::string("reading ") + info.name + " files is not supported yet");
}

Trace FileImporter::importAs(const std::string &path, FileFormat format, const LoadOptions &options)
{
    const FormatInfo &info = Formats::info(format);
    if (info.importDirectory)
        return info.importDirectory(path, options);
    if (info.importStream) {
        InputStream stream(path, options);
        return info.importStream(stream, options);
    }
    if (!info.import)
        throw ImportError(path, info.notATrace ? info.notATrace : std::string("a ") + info.displayName + " has no timeline");
    InputBuffer input = InputBuffer::read(path, options);
    return info.import(input, path, options);
}

bool FileImporter::hasRows(FileFormat format)
{
    const FormatInfo &info = Formats::info(format);
    return info.readRowsStream || info.readRows || info.readRowsDirectory;
}

NtffProfile FileImporter::readRowsAs(const std::string &path, FileFormat format, const LoadOptions &options)
{
    const FormatInfo &info = Formats::info(format);
    if (info.readRowsDirectory)
        return info.readRowsDirectory(path, options);
    if (info.readRowsStream) {
        InputStream stream(path, options);
        return info.readRowsStream(stream, options);
    }
    if (!info.readRows)
        throw ImportError(path, std::string("a ") + info.displayName + " has no device rows");
    InputBuffer input = InputBuffer::read(path, options);
    return info.readRows(input, path, options);
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
