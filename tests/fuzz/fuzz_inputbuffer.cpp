// libFuzzer harness: the decompression layer (core/io/input/inputbuffer.h): gzip (also concatenated
// members), zstd and single-member zip, detected by magic bytes, always under the memory budget.
//
// Every input is fed as is (mostly corrupt streams). One input in four is also compressed here with
// zlib and zstd and fed again: the output must equal the input byte for byte (a round trip through the
// valid paths, which mutation alone rarely reaches for zstd).
#include "fuzz_common.h"
#include "fuzz_compress.h"

#include "io/input/inputbuffer.h"

#include <cstring>
#include <string>

using namespace lanescope;

namespace {

void checkPadding(const InputBuffer &b)
{
    LANESCOPE_FUZZ_CHECK(b.capacity() >= b.size() + InputBuffer::kPadding);
    for (size_t i = 0; i < InputBuffer::kPadding; ++i)
        LANESCOPE_FUZZ_CHECK(b.data()[b.size() + i] == 0);
}

void roundTrip(std::string_view raw, const std::string &packed, Compression expected)
{
    const LoadOptions options = fuzz::fuzzOptions();
    const InputBuffer b = InputBuffer::fromBytes(packed, "fuzz.bin", options); // must not throw
    LANESCOPE_FUZZ_CHECK(b.compression() == expected);
    LANESCOPE_FUZZ_CHECK(b.size() == raw.size());
    LANESCOPE_FUZZ_CHECK(raw.empty() || std::memcmp(b.data(), raw.data(), raw.size()) == 0);
    checkPadding(b);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view bytes = fuzz::asView(data, size);
    LoadOptions options = fuzz::fuzzOptions();
    // A 1 MiB budget: with the 64 MiB of the other harnesses, a 64 KB zstd input expanded to tens of
    // MiB and each run allocated a multi-MiB decoding window; faulting in those pages took 77 % of the
    // time (1,374 exec/s). Past 1 MiB the code is the same growth loop, and a frame whose window exceeds
    // the budget takes the budget error path. A tiny budget on some inputs, so that check runs often.
    options.memoryBudget = uint64_t(1) << 20;
    if (size && (data[size - 1] & 7) == 1)
        options.memoryBudget = 4096;
    try {
        InputBuffer b = InputBuffer::fromBytes(bytes, "fuzz.bin", options);
        // The buffer grows by half its size and is checked against the budget when it grows, so the
        // decompressed size stays below 1.5 x budget plus one chunk (the bound asserted here).
        LANESCOPE_FUZZ_CHECK(b.size() <= options.memoryBudget / 2 * 3 + (uint64_t(2) << 20));
        LANESCOPE_FUZZ_CHECK(b.compression() == InputBuffer::detect(bytes));
        if (b.compression() == Compression::None)
            LANESCOPE_FUZZ_CHECK(b.view() == bytes);
        checkPadding(b);
        // What the Chrome importer does with an unterminated array.
        b.replaceTail(b.size() / 2, "]");
        checkPadding(b);
    } catch (const ImportError &e) {
        LANESCOPE_FUZZ_CHECK(e.file() == "fuzz.bin");
    }
    if (size && (data[0] & 3) == 0 && size <= (1 << 16) && InputBuffer::detect(bytes) == Compression::None) {
        roundTrip(bytes, fuzz::gzip(bytes), Compression::Gzip);
        const std::string_view a = bytes.substr(0, size / 2), b = bytes.substr(size / 2);
        roundTrip(bytes, fuzz::gzip(a) + fuzz::gzip(b), Compression::Gzip); // two concatenated members
        roundTrip(bytes, fuzz::zstd(bytes), Compression::Zstd);
    }
    return 0;
}
