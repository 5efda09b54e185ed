#pragma once
// Decompression of gzip (multi-member) and zstd, fed compressed chunks and appending the decompressed
// bytes to an InputBuffer: InputBuffer::read uses it for a whole file, InputStream for one block at a
// time (the caller may take the bytes out of the buffer between feeds).
#include "importerror.h"
#include "loadoptions.h"
#include "memorybudget.h"

#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace lanescope {

namespace decoder {

constexpr size_t kChunk = size_t(1) << 20;
constexpr size_t kMinChunk = size_t(64) << 10;

struct FileCloser
{
    void operator()(std::FILE *f) const { if (f) std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

// log2 of the largest zstd window the budget allows, between zstd's minimum (1 KiB) and its maximum
// (2 GiB). zstd's own default limit (128 MiB) is replaced by the budget: a `zstd --long=30` file loads
// under a budget that holds its window, and the error names the budget when it does not.
inline int zstdWindowLogMax(uint64_t budget)
{
    constexpr int kMinLog = 10, kMaxLog = 31; // ZSTD_WINDOWLOG_ABSOLUTEMIN, ZSTD_WINDOWLOG_MAX_64
    int log = kMinLog;
    while (log < kMaxLog && (uint64_t(1) << (log + 1)) <= budget)
        ++log;
    return log;
}

} // namespace decoder

// Feeds compressed chunks in and appends decompressed bytes to the buffer. A template over the buffer
// (InputBuffer, whose friend it is) so this header does not include inputbuffer.h, which would make
// InputBuffer and its decoder include each other; call sites name no argument (deduced).
template <class Buffer>
class InputDecoder
{
public:
    InputDecoder(Buffer &out, const std::string &name, const LoadOptions &options)
        : m_out(out), m_name(name), m_options(options) {}

    void feedNone(const char *p, size_t n) { append(p, n); }
    // Plain input read straight into the buffer (no copy): up to `n` bytes, returns how many.
    size_t readNone(std::FILE *f, size_t n)
    {
        m_out.ensure(n, m_name, m_options.memoryBudget);
        const size_t got = std::fread(m_out.m_data.get() + m_out.m_size, 1, n, f);
        m_out.m_size += got;
        return got;
    }

    // Room asked for before each inflate step: grows with the output (64 KB up to 1 MB), so a small
    // stream does not allocate and touch a megabyte (measured: the decompression fuzz harness spent
    // most of its time faulting in pages of fresh 1 MB buffers).
    size_t outputChunk() const { return std::clamp<size_t>(m_out.m_size, decoder::kMinChunk, decoder::kChunk); }

    void feedGzip(const char *p, size_t n, uint64_t consumedBefore)
    {
        if (!m_zinit) {
            std::memset(&m_z, 0, sizeof(m_z));
            if (inflateInit2(&m_z, 15 + 32) != Z_OK)
                throw ImportError(m_name, "cannot initialise zlib");
            m_zinit = true;
        }
        m_z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(p));
        m_z.avail_in = static_cast<uInt>(n);
        while (m_z.avail_in > 0) {
            if (m_gzipDone) {
                // Another gzip member follows (concatenated streams are valid gzip).
                if (inflateReset(&m_z) != Z_OK)
                    throw ImportError(m_name, consumedBefore + (n - m_z.avail_in), "cannot restart gzip stream");
                m_gzipDone = false;
            }
            const size_t chunk = outputChunk();
            m_out.ensure(chunk, m_name, m_options.memoryBudget);
            m_z.next_out = reinterpret_cast<Bytef *>(m_out.m_data.get() + m_out.m_size);
            m_z.avail_out = static_cast<uInt>(chunk);
            const int rc = inflate(&m_z, Z_NO_FLUSH);
            m_out.m_size += chunk - m_z.avail_out;
            if (rc == Z_STREAM_END) {
                m_gzipDone = true;
                continue;
            }
            if (rc != Z_OK && rc != Z_BUF_ERROR) {
                const uint64_t at = consumedBefore + (n - m_z.avail_in);
                throw ImportError(m_name, at,
                                  std::string("corrupt gzip stream (") + (m_z.msg ? m_z.msg : "inflate error")
                                      + "); expected valid deflate data");
            }
            if (rc == Z_BUF_ERROR && m_z.avail_out != 0)
                break;
        }
    }

    void finishGzip(uint64_t total)
    {
        if (m_zinit) {
            inflateEnd(&m_z);
            m_zinit = false;
        }
        if (!m_gzipDone)
            throw ImportError(m_name, total, "gzip stream ends early (truncated file); expected more compressed data");
    }

    void feedZstd(const char *p, size_t n, uint64_t consumedBefore)
    {
        if (!m_zstd) {
            m_zstd = ZSTD_createDStream();
            ZSTD_initDStream(m_zstd);
            // The decoder allocates the window a frame asks for before it writes a byte; a frame may not
            // ask for more than the memory budget.
            ZSTD_DCtx_setParameter(m_zstd, ZSTD_d_windowLogMax, decoder::zstdWindowLogMax(m_options.memoryBudget));
        }
        // Fed in small slices: on an error zstd does not say where it stopped, so the start of the slice
        // is the position reported (at most 4 KiB after the end of the damaged block).
        constexpr size_t kSlice = size_t(4) << 10;
        for (size_t done = 0; done < n;) {
            ZSTD_inBuffer in{p + done, std::min(kSlice, n - done), 0};
            while (in.pos < in.size) {
                const size_t chunk = outputChunk();
                m_out.ensure(chunk, m_name, m_options.memoryBudget);
                ZSTD_outBuffer out{m_out.m_data.get() + m_out.m_size, chunk, 0};
                const size_t rc = ZSTD_decompressStream(m_zstd, &out, &in);
                m_out.m_size += out.pos;
                if (ZSTD_isError(rc) && ZSTD_getErrorCode(rc) == ZSTD_error_frameParameter_windowTooLarge)
                    throw ImportError(m_name, consumedBefore + done,
                                      "the zstd frame needs a decoding window larger than the memory budget of "
                                          + MemoryBudget::format(m_options.memoryBudget) + " (" + MemoryBudget::hint() + ")");
                if (ZSTD_isError(rc))
                    throw ImportError(m_name, consumedBefore + done + in.pos,
                                      std::string("corrupt zstd stream (") + ZSTD_getErrorName(rc) + ")");
                m_zstdLast = rc;
            }
            done += in.size;
        }
        // drain any output still buffered
        for (;;) {
            const size_t chunk = outputChunk();
            m_out.ensure(chunk, m_name, m_options.memoryBudget);
            ZSTD_outBuffer out{m_out.m_data.get() + m_out.m_size, chunk, 0};
            ZSTD_inBuffer none{nullptr, 0, 0};
            const size_t rc = ZSTD_decompressStream(m_zstd, &out, &none);
            m_out.m_size += out.pos;
            if (ZSTD_isError(rc) || out.pos < chunk)
                break;
        }
    }

    void finishZstd(uint64_t total)
    {
        if (m_zstd) {
            ZSTD_freeDStream(m_zstd);
            m_zstd = nullptr;
        }
        if (m_zstdLast != 0)
            throw ImportError(m_name, total, "zstd stream ends early (truncated file); expected more compressed data");
    }

    ~InputDecoder()
    {
        if (m_zinit)
            inflateEnd(&m_z);
        if (m_zstd)
            ZSTD_freeDStream(m_zstd);
    }

private:
    void append(const char *p, size_t n)
    {
        m_out.ensure(n, m_name, m_options.memoryBudget);
        std::memcpy(m_out.m_data.get() + m_out.m_size, p, n);
        m_out.m_size += n;
    }

    Buffer &m_out;
    const std::string &m_name;
    const LoadOptions &m_options;
    z_stream m_z;
    bool m_zinit = false;
    bool m_gzipDone = false;
    ZSTD_DStream *m_zstd = nullptr;
    size_t m_zstdLast = 0;
};

} // namespace lanescope
