#include "inputstream.h"

#include "inputdecoder.h"

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace lanescope {

using decoder::FilePtr;

namespace {

// Compressed bytes read per step: small enough that a block does not overshoot kBlockBytes by much
// (JSON inflates 10-20x), large enough for few system calls; plain text is read in larger steps.
constexpr size_t kCompressedStep = size_t(256) << 10;
constexpr size_t kPlainStep = size_t(4) << 20;
constexpr size_t kCompressedSlice = size_t(4) << 10;

// A windowed load allocates and frees buffers of megabytes many times (blocks, windows, each window's
// parsed events). glibc raises its mmap threshold to the size of every mapped block freed, after which
// such buffers come from the heap, where their freed pages sit between the model's and stay resident
// (measured: 60 instead of 25 MB after loading the 62 MB xdit trace, 680 instead of 570 MB peak on the
// 1 GB one). A fixed threshold keeps them mapped and handed back to the system when freed.
void keepLargeBuffersMapped()
{
#if defined(__GLIBC__)
    static std::once_flag once;
    std::call_once(once, [] { ::mallopt(M_MMAP_THRESHOLD, int(InputStream::kBlockBytes)); });
#endif
}

} // namespace

InputStream::InputStream(const std::string &path, const LoadOptions &options)
    : m_name(path), m_options(options)
{
    keepLargeBuffersMapped();
    FilePtr f(InputBuffer::openForReading(path, m_compressedSize));
    // The head is zero-filled before the read: no more of it than the file holds (at least 64 KiB, so
    // a FIFO, which has no size, is still sniffed), not 1 MiB for every small file.
    std::string head(size_t(std::clamp<uint64_t>(m_compressedSize, decoder::kMinChunk, decoder::kChunk)), '\0');
    head.resize(std::fread(head.data(), 1, head.size(), f.get()));
    m_compression = InputBuffer::detect(head);
    if (m_compression == Compression::Zip) {
        f.reset();
        m_queue.push_back(InputBuffer::read(path, options));
        m_compressedPosition = m_compressedSize;
        m_producerDone = true;
        return;
    }
    m_producer = std::thread([this, file = f.release(), head = std::move(head)]() mutable { produce(file, std::move(head)); });
}

InputStream::InputStream(std::string_view text, const std::string &name, const LoadOptions &options, size_t blockBytes,
                         uint64_t startOffset)
    : m_name(name), m_options(options), m_compressedSize(text.size()), m_position(startOffset), m_text(text), m_memory(true),
      m_memoryBlock(blockBytes ? blockBytes : kBlockBytes)
{
    m_compressedPosition = text.size();
    keepLargeBuffersMapped();
}

InputStream::~InputStream()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    if (m_producer.joinable())
        m_producer.join();
}

void InputStream::produce(std::FILE *file, std::string head)
{
    FilePtr f(file);
    try {
        // A small plain file gets a first block of its size, not a full one (5 MiB: under ASan an mmap
        // with its shadow poisoned twice, per file); ensure() grows it should the file have grown.
        // Compressed input keeps full blocks: growing one would check the budget against the block
        // (ensure() does), which a decoded stream's blocks never were.
        InputBuffer block;
        const bool small = m_compression == Compression::None && m_compressedSize + 2 * decoder::kMinChunk < kBlockBytes;
        block.clearFor(small ? size_t(m_compressedSize) + decoder::kMinChunk : kBlockBytes + decoder::kChunk);
        InputDecoder dec(block, m_name, m_options);
        const size_t step = m_compression == Compression::None ? kPlainStep : kCompressedStep;
        // Plain text is read straight into the blocks: the chunk is for compressed input only.
        std::unique_ptr<char[]> chunk(m_compression == Compression::None ? nullptr : new char[step]);
        uint64_t consumed = 0;
        std::string_view in = head;
        if (m_compression == Compression::None) {
            // Plain text goes straight from the file into the blocks.
            dec.feedNone(in.data(), in.size());
            consumed = in.size();
            for (;;) {
                {
                    std::lock_guard lock(m_mutex);
                    if (m_stop)
                        return;
                }
                if (m_options.cancelled())
                    throw LoadCancelled();
                // Up to the end of the block, and no more than the file has left (at least 64 KiB: it
                // may have grown), so a small first block is not grown for a read that finds nothing.
                const uint64_t left = m_compressedSize > consumed ? m_compressedSize - consumed : 0;
                const size_t got = dec.readNone(f.get(), std::min<uint64_t>(kBlockBytes - std::min(block.size(), kBlockBytes - 1),
                                                                            std::max<uint64_t>(left + 1, decoder::kMinChunk)));
                consumed += got;
                m_compressedPosition.store(consumed, std::memory_order_relaxed);
                if (block.size() >= kBlockBytes || (got == 0 && block.size())) {
                    InputBuffer full;
                    std::swap(full, block);
                    push(std::move(full));
                    if (got == 0)
                        break; // the last block: no fresh one (5 MiB) for nothing
                    takeSpare(block);
                }
                if (got == 0)
                    break;
            }
            in = {};
        }
        for (; m_compression != Compression::None;) {
            if (in.empty()) {
                in = std::string_view(chunk.get(), std::fread(chunk.get(), 1, step, f.get()));
                if (in.empty())
                    break;
            }
            {
                std::lock_guard lock(m_mutex);
                if (m_stop)
                    return;
            }
            if (m_options.cancelled())
                throw LoadCancelled();
            // Fed in slices, so one block never holds much more than kBlockBytes (JSON inflates 10-20x,
            // a run of one byte up to 1000x).
            const size_t slice = m_compression == Compression::None ? in.size() : kCompressedSlice;
            for (size_t done = 0; done < in.size();) {
                const size_t n = std::min(slice, in.size() - done);
                switch (m_compression) {
                case Compression::None: dec.feedNone(in.data() + done, n); break;
                case Compression::Gzip: dec.feedGzip(in.data() + done, n, consumed); break;
                case Compression::Zstd: dec.feedZstd(in.data() + done, n, consumed); break;
                case Compression::Zip: break;
                }
                done += n;
                consumed += n;
                m_compressedPosition.store(consumed, std::memory_order_relaxed);
                if (block.size() >= kBlockBytes) {
                    InputBuffer full;
                    std::swap(full, block);
                    push(std::move(full));
                    takeSpare(block);
                    std::lock_guard lock(m_mutex);
                    if (m_stop)
                        return;
                }
            }
            in = {};
        }
        if (std::ferror(f.get()))
            throw ImportError(m_name, consumed, std::string("read error: ") + std::strerror(errno));
        // Whatever was decoded before a truncation is handed out first; the error follows it.
        try {
            if (m_compression == Compression::Gzip)
                dec.finishGzip(consumed);
            else if (m_compression == Compression::Zstd)
                dec.finishZstd(consumed);
        } catch (const ImportError &e) {
            // The stream ends early: a cut file. The reader decides whether that ends its text (pop()).
            if (block.size())
                push(std::move(block));
            std::lock_guard lock(m_mutex);
            m_endsEarly = std::current_exception();
            m_endsEarlyText = e.problem() + (e.hasOffset() ? " at compressed byte " + std::to_string(e.offset()) : std::string());
            block = InputBuffer();
        }
        if (block.size())
            push(std::move(block));
    } catch (...) {
        std::lock_guard lock(m_mutex);
        m_error = std::current_exception();
    }
    {
        std::lock_guard lock(m_mutex);
        m_producerDone = true;
    }
    m_changed.notify_all();
}

void InputStream::push(InputBuffer &&block)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_stop || m_queue.size() < kQueuedBlocks; });
    if (m_stop)
        return;
    m_queue.push_back(std::move(block));
    lock.unlock();
    m_changed.notify_all();
}

void InputStream::takeSpare(InputBuffer &block)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_spare.empty()) {
            block = std::move(m_spare.back());
            m_spare.pop_back();
        }
    }
    // A block ends at the first feed past kBlockBytes: a decoder step (kChunk) more, so it never grows.
    block.clearFor(kBlockBytes + decoder::kChunk);
}

bool InputStream::pop(InputBuffer &block)
{
    std::unique_lock lock(m_mutex);
    // The block read before goes back to the producer: its pages are written again, not faulted in anew.
    if (block.capacity() && m_spare.size() < 2)
        m_spare.push_back(std::move(block));
    m_changed.wait(lock, [&] { return !m_queue.empty() || m_producerDone; });
    if (m_queue.empty()) {
        if (m_error)
            std::rethrow_exception(m_error);
        if (m_endsEarly && !m_acceptEndsEarly)
            std::rethrow_exception(m_endsEarly);
        return false;
    }
    block = std::move(m_queue.front());
    m_queue.pop_front();
    lock.unlock();
    m_changed.notify_all();
    return true;
}

bool InputStream::next(std::string_view &bytes)
{
    if (m_memory) {
        if (m_currentUsed >= m_text.size())
            return false;
        bytes = m_text.substr(m_currentUsed, m_memoryBlock);
        m_currentUsed += bytes.size();
        m_position += bytes.size();
        return true;
    }
    if (!m_currentValid || m_currentUsed >= m_current.size()) {
        m_currentValid = pop(m_current);
        m_currentUsed = 0;
        if (!m_currentValid)
            return false;
    }
    bytes = m_current.view().substr(m_currentUsed);
    m_currentUsed = m_current.size();
    m_position += bytes.size();
    return true;
}

InputBuffer InputStream::readAll()
{
    InputBuffer all;
    // A zip member is one block read whole: handed over as it is.
    if (!m_memory && m_compression == Compression::Zip && m_currentUsed == 0 && (m_currentValid || pop(m_current))) {
        m_currentValid = false;
        m_position += m_current.size();
        all = std::move(m_current);
        m_current = InputBuffer();
        return all;
    }
    if (m_compression == Compression::None && m_compressedSize > m_position)
        all.ensure(size_t(m_compressedSize - m_position), m_name, m_options.memoryBudget);
    InputDecoder dec(all, m_name, m_options);
    std::string_view bytes;
    int lastPermille = -1;
    while (next(bytes)) {
        if (m_options.cancelled())
            throw LoadCancelled();
        dec.feedNone(bytes.data(), bytes.size());
        const int permille = m_compressedSize ? int(200 * std::min(compressedPosition(), m_compressedSize) / m_compressedSize) : 200;
        if (permille != lastPermille) {
            m_options.report(permille);
            lastPermille = permille;
        }
    }
    all.m_compression = m_compression;
    all.m_compressedSize = m_compressedSize;
    all.finishPadding();
    return all;
}

std::string_view InputStream::peek(size_t n)
{
    if (m_memory)
        return m_text.substr(m_currentUsed, std::min(n, m_memoryBlock));
    if (!m_currentValid) {
        m_currentValid = pop(m_current);
        m_currentUsed = 0;
        if (!m_currentValid)
            return {};
    }
    return m_current.view().substr(m_currentUsed, n);
}

} // namespace lanescope
