#include "inputbuffer.h"
#include "inputdecoder.h"
#include "memorybudget.h"

#include <archive.h>
#include <archive_entry.h>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <memory>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lanescope {

using decoder::FilePtr;

namespace {

constexpr size_t kChunk = size_t(1) << 20;

std::string budgetMessage(uint64_t budget)
{
    return "decompressed data exceeds the memory budget of " + MemoryBudget::format(budget)
        + " (a compression bomb, or a file larger than the budget: " + MemoryBudget::hint() + ")";
}

} // namespace

Compression InputBuffer::detect(std::string_view h)
{
    if (h.size() >= 2 && uint8_t(h[0]) == 0x1f && uint8_t(h[1]) == 0x8b)
        return Compression::Gzip;
    if (h.size() >= 4 && uint8_t(h[0]) == 0x28 && uint8_t(h[1]) == 0xb5 && uint8_t(h[2]) == 0x2f && uint8_t(h[3]) == 0xfd)
        return Compression::Zstd;
    if (h.size() >= 4 && h.substr(0, 4) == std::string_view("PK\x03\x04", 4))
        return Compression::Zip;
    return Compression::None;
}

const char *InputBuffer::compressionName(Compression c)
{
    switch (c) {
    case Compression::None: return "none";
    case Compression::Gzip: return "gzip";
    case Compression::Zstd: return "zstd";
    case Compression::Zip: return "zip";
    }
    return "none";
}

void InputBuffer::ensure(size_t extra, const std::string &name, uint64_t budget)
{
    const size_t need = m_size + extra + kPadding;
    if (need <= m_capacity)
        return;
    if (m_size + extra > budget)
        throw ImportError(name, m_size, budgetMessage(budget));
    size_t cap = std::max<size_t>(need, m_capacity + m_capacity / 2);
    cap = std::max<size_t>(cap, 64 * 1024);
    // Never more than the budget: growth by half would otherwise let a bomb decompress to 1.5 x budget.
    if (budget < SIZE_MAX - kPadding)
        cap = std::min<size_t>(cap, std::max<size_t>(need, size_t(budget) + kPadding));
    auto fresh = std::unique_ptr<char[]>(new char[cap]);
    if (m_size)
        std::memcpy(fresh.get(), m_data.get(), m_size);
    m_data = std::move(fresh);
    m_capacity = cap;
}

void InputBuffer::finishPadding()
{
    if (m_capacity < m_size + kPadding) {
        auto fresh = std::unique_ptr<char[]>(new char[m_size + kPadding]);
        if (m_size)
            std::memcpy(fresh.get(), m_data.get(), m_size);
        m_data = std::move(fresh);
        m_capacity = m_size + kPadding;
    }
    std::memset(m_data.get() + m_size, 0, kPadding);
}

void InputBuffer::replaceTail(size_t keep, std::string_view tail)
{
    m_size = std::min(keep, m_size);
    ensure(tail.size(), "(buffer)", UINT64_MAX);
    std::memcpy(m_data.get() + m_size, tail.data(), tail.size());
    m_size += tail.size();
    finishPadding();
}

void InputBuffer::append(std::string_view bytes)
{
    if (m_size + bytes.size() + kPadding > m_capacity) {
        const size_t cap = std::max(m_size + bytes.size() + kPadding, m_capacity + m_capacity / 2);
        auto fresh = std::unique_ptr<char[]>(new char[cap]);
        if (m_size)
            std::memcpy(fresh.get(), m_data.get(), m_size);
        m_data = std::move(fresh);
        m_capacity = cap;
    }
    if (!bytes.empty())
        std::memcpy(m_data.get() + m_size, bytes.data(), bytes.size());
    m_size += bytes.size();
}

void InputBuffer::eraseFront(size_t n)
{
    n = std::min(n, m_size);
    if (n && m_size > n)
        std::memmove(m_data.get(), m_data.get() + n, m_size - n);
    m_size -= n;
}

InputBuffer InputBuffer::readZip(std::string_view bytes, const std::string &name, const LoadOptions &options)
{
    struct ArchiveFree { void operator()(archive *a) const { archive_read_free(a); } };
    std::unique_ptr<archive, ArchiveFree> a(archive_read_new());
    archive_read_support_format_zip(a.get());
    archive_read_support_filter_all(a.get());
    if (archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK)
        throw ImportError(name, 0, std::string("cannot open zip archive: ") + archive_error_string(a.get()));
    archive_entry *entry = nullptr;
    while (archive_read_next_header(a.get(), &entry) == ARCHIVE_OK) {
        if (archive_entry_filetype(entry) != AE_IFREG)
            continue;
        InputBuffer out;
        out.m_compression = Compression::Zip;
        out.m_compressedSize = bytes.size();
        char chunk[65536];
        for (;;) {
            if (options.cancelled())
                throw LoadCancelled();
            const la_ssize_t n = archive_read_data(a.get(), chunk, sizeof chunk);
            if (n < 0)
                throw ImportError(name, 0, std::string("corrupt zip member: ") + archive_error_string(a.get()));
            if (n == 0)
                break;
            out.ensure(size_t(n), name, options.memoryBudget);
            std::memcpy(out.m_data.get() + out.m_size, chunk, size_t(n));
            out.m_size += size_t(n);
        }
        out.finishPadding();
        return out;
    }
    throw ImportError(name, 0, "zip archive holds no file");
}

InputBuffer InputBuffer::ofText(std::initializer_list<std::string_view> parts)
{
    InputBuffer out;
    out.assignText(parts);
    return out;
}

void InputBuffer::assignText(std::initializer_list<std::string_view> parts)
{
    size_t size = 0;
    for (std::string_view p : parts)
        size += p.size();
    if (!m_data || m_capacity < size + kPadding) {
        m_data.reset(new char[size + kPadding]);
        m_capacity = size + kPadding;
    }
    m_size = 0;
    for (std::string_view p : parts) {
        if (!p.empty())
            std::memcpy(m_data.get() + m_size, p.data(), p.size());
        m_size += p.size();
    }
    m_compression = Compression::None;
    m_compressedSize = size;
    finishPadding();
}

void InputBuffer::clearFor(size_t capacity)
{
    if (!m_data || m_capacity < capacity + kPadding) {
        m_data.reset(new char[capacity + kPadding]);
        m_capacity = capacity + kPadding;
    }
    m_size = 0;
    m_compression = Compression::None;
    m_compressedSize = 0;
}

InputBuffer InputBuffer::fromBytes(std::string_view bytes, const std::string &name, const LoadOptions &options)
{
    InputBuffer out;
    out.m_compression = detect(bytes);
    out.m_compressedSize = bytes.size();
    if (out.m_compression == Compression::Zip)
        return readZip(bytes, name, options);
    InputDecoder dec(out, name, options);
    switch (out.m_compression) {
    case Compression::None: dec.feedNone(bytes.data(), bytes.size()); break;
    case Compression::Gzip: dec.feedGzip(bytes.data(), bytes.size(), 0); dec.finishGzip(bytes.size()); break;
    case Compression::Zstd: dec.feedZstd(bytes.data(), bytes.size(), 0); dec.finishZstd(bytes.size()); break;
    case Compression::Zip: break;
    }
    out.finishPadding();
    return out;
}

std::FILE *InputBuffer::openForReading(const std::string &path, uint64_t &fileSize)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
        throw ImportError(path, std::string("cannot open: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        throw ImportError(path, "is a folder, not a file");
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode))
        throw ImportError(path, "is a device or socket, not a file");
    // O_NONBLOCK: opening a FIFO that has no writer would otherwise wait forever (reading it then ends
    // at once, as an empty file); a FIFO with a writer, e.g. <(zcat trace.json.gz), still reads normally.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        throw ImportError(path, std::string("cannot open: ") + std::strerror(errno));
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    std::FILE *f = ::fdopen(fd, "rb");
    if (!f) {
        ::close(fd);
        throw ImportError(path, std::string("cannot open: ") + std::strerror(errno));
    }
    fileSize = uint64_t(st.st_size);
    return f;
}

InputBuffer InputBuffer::read(const std::string &path, const LoadOptions &options)
{
    uint64_t fileSize = 0;
    FilePtr f(openForReading(path, fileSize));

    InputBuffer out;
    out.m_compressedSize = fileSize;
    std::unique_ptr<char[]> chunk(new char[kChunk]);
    size_t n = std::fread(chunk.get(), 1, kChunk, f.get());
    out.m_compression = detect(std::string_view(chunk.get(), n));
    if (out.m_compression == Compression::Zip) {
        // zip needs random access (central directory at the end): read it whole, then extract.
        std::string all(chunk.get(), n);
        while ((n = std::fread(chunk.get(), 1, kChunk, f.get())) > 0)
            all.append(chunk.get(), n);
        return readZip(all, path, options);
    }
    if (out.m_compression == Compression::None && fileSize > options.memoryBudget)
        throw ImportError(path, 0, budgetMessage(options.memoryBudget));
    if (out.m_compression == Compression::None)
        out.ensure(size_t(fileSize), path, options.memoryBudget);

    InputDecoder dec(out, path, options);
    uint64_t consumed = 0;
    int lastPermille = -1;
    while (n > 0) {
        if (options.cancelled())
            throw LoadCancelled();
        switch (out.m_compression) {
        case Compression::None: dec.feedNone(chunk.get(), n); break;
        case Compression::Gzip: dec.feedGzip(chunk.get(), n, consumed); break;
        case Compression::Zstd: dec.feedZstd(chunk.get(), n, consumed); break;
        case Compression::Zip: break;
        }
        consumed += n;
        // reading is the first 20% of a load
        const int permille = fileSize ? int(200 * consumed / fileSize) : 200;
        if (permille != lastPermille) {
            options.report(permille);
            lastPermille = permille;
        }
        n = std::fread(chunk.get(), 1, kChunk, f.get());
    }
    if (std::ferror(f.get()))
        throw ImportError(path, consumed, std::string("read error: ") + std::strerror(errno));
    if (out.m_compression == Compression::Gzip)
        dec.finishGzip(consumed);
    else if (out.m_compression == Compression::Zstd)
        dec.finishZstd(consumed);
    out.finishPadding();
    return out;
}

} // namespace lanescope
