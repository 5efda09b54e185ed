#pragma once
// A file read from disk in blocks, decompressed (gzip with any number of members, zstd) on a thread of
// its own so decompression overlaps parsing; at most kQueuedBlocks decompressed blocks wait in a
// bounded queue, so memory stays bounded whatever the file size. A zip member is read whole
// (InputBuffer::read) and handed out as one block: zip needs random access to its central directory.
// Bytes already in memory are served as they are (in blocks, no thread, no copy).
//
// Errors of the decoder (corrupt or truncated gzip / zstd, a read error) are thrown by next() after
// every byte decoded before them was handed out, naming the compressed offset, as InputBuffer::read
// names it. A reader that loads what a cut file holds (the windowed JSON readers) may take a
// compressed stream that ends early as the end of its text instead (acceptEndsEarly()).
#include "inputbuffer.h"
#include "loadoptions.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace lanescope {

class InputStream
{
public:
    static constexpr size_t kBlockBytes = size_t(4) << 20; // decompressed bytes per block (at least)
    static constexpr size_t kQueuedBlocks = 4;

    // Opens `path` and starts decompressing. Throws ImportError when it cannot be opened.
    InputStream(const std::string &path, const LoadOptions &options);
    // Serves `text` (already decompressed, kept alive by the caller) in blocks of `blockBytes` (0:
    // kBlockBytes), as if it started at file offset `startOffset` (tests place block boundaries anywhere
    // and windows past 4 GiB).
    InputStream(std::string_view text, const std::string &name, const LoadOptions &options, size_t blockBytes = 0,
                uint64_t startOffset = 0);
    ~InputStream();
    InputStream(const InputStream &) = delete;
    InputStream &operator=(const InputStream &) = delete;

    // The next decompressed bytes, valid until the next call; false at the end of the input.
    // Throws the decoder's ImportError (or LoadCancelled) in its place in the byte sequence.
    bool next(std::string_view &bytes);
    // Up to `n` first decompressed bytes without consuming them (sniffing the format).
    std::string_view peek(size_t n);
    // Every byte not handed out yet (peeked ones included) as one padded buffer, for a reader that needs
    // the whole input after the stream was opened to sniff it: the decompression already begun goes
    // on, nothing is read twice. Within the memory budget; progress 0..200 as InputBuffer::read.
    // Throws the decoder's ImportError or LoadCancelled.
    InputBuffer readAll();

    const std::string &name() const { return m_name; }
    Compression compression() const { return m_compression; }
    uint64_t compressedSize() const { return m_compressedSize; }
    // Compressed bytes the decoder has consumed so far (progress).
    uint64_t compressedPosition() const { return m_compressedPosition.load(std::memory_order_relaxed); }
    // Decompressed bytes handed out by next() so far (plus the start offset of a text in memory).
    uint64_t position() const { return m_position; }
    // From now on a gzip / zstd stream that ends early (a cut file) ends the text like the end of the
    // file: next() returns false after its last decoded byte, and endsEarly() says what was cut.
    void acceptEndsEarly() { m_acceptEndsEarly = true; }
    // After next() returned false (the producer wrote it before it finished): the decoder's "stream
    // ends early ..." with the compressed offset, empty when the stream was complete.
    const std::string &endsEarly() const { return m_endsEarlyText; }

private:
    void produce(std::FILE *file, std::string head);
    void push(InputBuffer &&block);
    // The producer's next empty block: one the reader is done with, else a new one of full size.
    void takeSpare(InputBuffer &block);
    bool pop(InputBuffer &block);

    std::string m_name;
    const LoadOptions &m_options;
    Compression m_compression = Compression::None;
    uint64_t m_compressedSize = 0;
    std::atomic<uint64_t> m_compressedPosition{0};
    uint64_t m_position = 0;

    // memory mode
    std::string_view m_text;
    bool m_memory = false;
    size_t m_memoryBlock = 0;

    // file mode: the producer thread, the queue and the block being read
    std::thread m_producer;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<InputBuffer> m_queue;
    std::vector<InputBuffer> m_spare; // blocks the reader is done with, for the producer to refill
    bool m_producerDone = false;
    bool m_stop = false;
    std::exception_ptr m_error;
    std::exception_ptr m_endsEarly; // the decoder's truncation error (after every decoded byte)
    bool m_acceptEndsEarly = false;  // reader side
    std::string m_endsEarlyText;     // written with m_endsEarly, read after the end was seen
    InputBuffer m_current;
    size_t m_currentUsed = 0; // bytes of m_current already handed out (peek keeps them)
    bool m_currentValid = false;
};

} // namespace lanescope
