#pragma once
// A whole input in memory, decompressed while reading (gzip, zstd or a single-member zip detected by
// magic bytes, never by name), followed by zeroed padding so simdjson can parse it in place.
#include "loadoptions.h"

#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace lanescope {

enum class Compression { None, Gzip, Zstd, Zip };

class InputBuffer
{
public:
    static constexpr size_t kPadding = 64; // >= simdjson::SIMDJSON_PADDING

    // Reads `path`, decompressing as detected. Throws ImportError / LoadCancelled.
    static InputBuffer read(const std::string &path, const LoadOptions &options);
    // Wraps bytes already in memory (tests, nested members); decompresses as detected.
    static InputBuffer fromBytes(std::string_view bytes, const std::string &name, const LoadOptions &options);

    // The concatenation of `parts`, as it is (no decompression), padded.
    static InputBuffer ofText(std::initializer_list<std::string_view> parts);
    // The same into this buffer, reusing its memory when it is large enough (no new pages to fault in).
    void assignText(std::initializer_list<std::string_view> parts);
    // Empties the buffer for new bytes, keeping its memory when it holds `capacity` bytes (and the
    // padding), else allocating that much once: a reused block faults no new pages in.
    void clearFor(size_t capacity);

    const char *data() const { return m_data.get(); }
    size_t size() const { return m_size; }
    size_t capacity() const { return m_capacity; } // size + padding at least
    std::string_view view() const { return {m_data.get(), m_size}; }
    Compression compression() const { return m_compression; }
    uint64_t compressedSize() const { return m_compressedSize; }

    // Keeps the first `keep` bytes and appends `tail` (used to close an unterminated event array).
    void replaceTail(size_t keep, std::string_view tail);

    // Building a text a piece at a time (the windows of JsonWindowSplitter, which become the parsers'
    // input without a copy): append() grows the buffer by half when full (room for the padding is always
    // kept), the other calls edit in place, and pad() zeroes the padding once the text is complete.
    void append(std::string_view bytes);
    char *mutableData() { return m_data.get(); }
    void truncate(size_t size) { m_size = size < m_size ? size : m_size; }
    void eraseFront(size_t n);
    void pad() { finishPadding(); }

    // Opens `path` for reading (a clear ImportError for folders, devices, sockets; a FIFO without a
    // writer does not block) and says its size on disk.
    static std::FILE *openForReading(const std::string &path, uint64_t &fileSize);

    static Compression detect(std::string_view head);
    static const char *compressionName(Compression c);

private:
    static InputBuffer readZip(std::string_view bytes, const std::string &name, const LoadOptions &options);
    void ensure(size_t extra, const std::string &name, uint64_t budget);
    void finishPadding();

    std::unique_ptr<char[]> m_data;
    size_t m_size = 0;
    size_t m_capacity = 0;
    Compression m_compression = Compression::None;
    uint64_t m_compressedSize = 0;

    template <class> friend class InputDecoder;
    friend class InputStream; // InputStream::readAll gathers its blocks into one buffer
};

} // namespace lanescope
