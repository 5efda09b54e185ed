// libFuzzer harness: the windowed, streamed JSON path as a large file takes it: InputStream (text in
// memory served in blocks of any size, or a file on the decoder's thread: plain, gzip, two gzip
// members, zstd, a truncated gzip stream, or the input's own bytes), JsonWindowSplitter cutting the
// event array into windows of 1 byte to 64 KiB, ChromeWindowReader parsing them on one or two
// threads, ChromeWindowMerger merging them in file order, then TraceMerger appending the result
// (shifted) as a rank or folder load does.
//
// Input: byte 0 chooses the stream (bits 0-2: 0-3 memory, 4 gzip, 5 zstd, 6 plain file, 7 the bytes
// as they are; with gzip bit 5 makes two members, bit 6 cuts the stream), the parse threads (bit 3)
// and a stream start past 4 GiB for the splitter check (bit 4); byte 1 the window size (bits 0-2),
// the block size of the in-memory stream (bits 3-5) and the shift of the merged copy (bits 6-7); the
// rest is the JSON text.
//
// Oracles besides the sanitizers and checkTrace():
//   - the splitter on its own: every window is "[" + the file's bytes at offset + 1 + "]", windows
//     follow each other without a gap, the prefix is the file's first bytes, the suffix its last;
//   - the windowed import equals the one-window import of the same text (LoadOptions says "the trace
//     is the same for every setting"): the same model, warnings and metadata, or an error in both.
//     The error's text and offset may differ: a window is parsed as a document of its own, so a
//     malformed element is reported where its window's parse stops, not where the whole text's does.
#include "fuzz_common.h"
#include "fuzz_compress.h"
#include "folderspec.h"

#include "io/chrome/chromejsonimporter.h"
#include "io/input/inputstream.h"
#include "io/json/jsonwindowsplitter.h"
#include "model/tracemerger.h"

#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

using namespace lanescope;

namespace {

enum class Stream { Memory, Plain, Gzip, Gzip2, Zstd, GzipCut, Raw };

// Half the inputs stream from memory: a file costs a decoder thread and its 4 MiB blocks, six times
// as long per input under ASan.
Stream streamOf(uint8_t b)
{
    switch (b & 7) {
    case 4: return (b & 0x40) ? Stream::GzipCut : (b & 0x20) ? Stream::Gzip2 : Stream::Gzip;
    case 5: return Stream::Zstd;
    case 6: return Stream::Plain;
    case 7: return Stream::Raw;
    default: return Stream::Memory;
    }
}

constexpr size_t kWindows[8] = {1, 2, 5, 64, 100, 1000, 4096, 65536};
constexpr size_t kBlocks[8] = {1, 2, 3, 16, 64, 1000, 4096, 0};

// Everything the views read of a trace, as text: equal digests are equal models.
std::string digest(const Trace &t)
{
    std::string d;
    const auto num = [&d](int64_t v) {
        d += std::to_string(v);
        d += ',';
    };
    const auto str = [&](StringId id) {
        d += t.str(id);
        d += '|';
    };
    for (const TrackGroup &g : t.groups()) {
        str(g.name);
        num(g.parent.value);
        num(int64_t(g.kind));
        num(g.externalId);
        num(g.sortIndex);
    }
    for (uint32_t ti = 0; ti < t.tracks().size(); ++ti) {
        const TrackId id(ti);
        d += t.trackPath(id);
        d += '\n';
        num(int64_t(t.tracks()[ti].kind));
        for (const Slice &s : t.slices(id)) {
            num(s.start);
            num(s.duration);
            num(s.depth);
            num(s.flags);
            str(s.name);
            str(s.category);
            num(int64_t(t.args().args(s.args).size()));
        }
        for (const Instant &i : t.instants(id)) {
            num(i.ts);
            str(i.name);
        }
        for (const CounterSample &c : t.counterSamples(id)) {
            num(c.ts);
            uint64_t bits = 0;
            std::memcpy(&bits, &c.value, sizeof bits);
            num(int64_t(bits));
        }
    }
    for (const Flow &f : t.flows()) {
        num(f.from.value);
        num(f.to.value);
        num(int64_t(f.externalId));
    }
    for (const Warning &w : t.diagnostics().warnings())
        d += Diagnostics::format(w) + '\n';
    for (const auto &[key, value] : t.metadata().entries)
        d += key + '=' + value + '\n';
    return d;
}

// The splitter alone over `text` served from memory: windows are the file's bytes, in order, whole.
void checkSplit(const std::string &text, size_t windowBytes, size_t blockBytes, uint64_t start)
{
    const LoadOptions options = fuzz::fuzzOptions();
    InputStream in(text, "split.json", options, blockBytes, start);
    JsonWindowSplitter s(in, "traceEvents", windowBytes, options.memoryBudget / 4);
    try {
        const JsonWindowSplitter::Shape shape = s.start();
        LANESCOPE_FUZZ_CHECK(s.prefixOffset() == start);
        if (shape == JsonWindowSplitter::Shape::Other) {
            LANESCOPE_FUZZ_CHECK(s.prefix() == text);
            return;
        }
        const std::string &prefix = s.prefix();
        LANESCOPE_FUZZ_CHECK(!prefix.empty() && text.compare(0, prefix.size(), prefix) == 0 && prefix.back() == '[');
        uint64_t expected = start + prefix.size() - 1; // the first window stands at the array's '['
        JsonWindow w;
        uint64_t index = 0;
        while (s.next(w)) {
            const std::string_view v = w.text.view();
            LANESCOPE_FUZZ_CHECK(v.size() >= 2 && v.front() == '[' && v.back() == ']');
            // "[..., ]": the splitter gives the last window the ',' back ("[, ]", standing one byte
            // earlier), so the parser reports the trailing comma where a one-piece parse would.
            const bool trailingComma = v.size() >= 3 && v[1] == ',' && w.offset + 1 == expected &&
                                       v.substr(2, v.size() - 3).find_first_not_of(" \t\r\n") == std::string_view::npos;
            LANESCOPE_FUZZ_CHECK((w.offset == expected || trailingComma) && w.index == index++);
            const size_t at = size_t(w.offset - start);
            LANESCOPE_FUZZ_CHECK(trailingComma || text[at] == '[' || text[at] == ',');
            LANESCOPE_FUZZ_CHECK(text.compare(at + 1, v.size() - 2, v.substr(1, v.size() - 2)) == 0);
            expected = w.offset + v.size() - 1; // the ',' after the window's last element
            s.recycle(std::move(w.text));
        }
        if (s.terminated()) {
            const size_t end = size_t(s.arrayEnd() - start);
            LANESCOPE_FUZZ_CHECK(end < text.size() && text[end] == ']');
            LANESCOPE_FUZZ_CHECK(s.suffix() == text.substr(end + 1));
        }
    } catch (const ImportError &e) {
        LANESCOPE_FUZZ_CHECK(e.file() == "split.json");
    }
}

struct Outcome
{
    std::optional<std::string> digest; // the trace, or
    std::string error;                 // the ImportError's message
};

// Loads through `in`; a trace is checked and appended twice by a TraceMerger (as a rank load does).
Outcome load(InputStream &in, const LoadOptions &options, int64_t shift)
{
    Outcome out;
    try {
        const Trace t = ChromeJsonImporter::importStream(in, options);
        fuzz::checkTrace(t);
        out.digest = digest(t);
        TraceBuilder b;
        TraceMerger merger(b);
        MergeOptions mo;
        mo.parent = b.addGroup(GroupKind::Rank, b.intern("Rank 0"), {}, 0);
        merger.append(t, mo);
        mo.parent = b.addGroup(GroupKind::Rank, b.intern("Rank 1"), {}, 1);
        mo.timeOffsetNs = shift;
        mo.diagnosticsPrefix = "rank 1: ";
        merger.append(t, mo);
        const Trace merged = b.finish();
        fuzz::checkTrace(merged);
        LANESCOPE_FUZZ_CHECK(merged.allSlices().size() == 2 * t.allSlices().size());
    } catch (const ImportError &e) {
        LANESCOPE_FUZZ_CHECK(e.file() == in.name());
        out.error = e.what();
    }
    return out;
}

void writeFile(const std::string &path, std::string_view bytes)
{
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
        fuzz::violated("cannot write the scratch file");
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size())
        fuzz::violated("cannot write the scratch file");
    std::fclose(f);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const Stream stream = streamOf(data[0]);
    const size_t windowBytes = kWindows[data[1] & 7];
    const size_t blockBytes = kBlocks[(data[1] >> 3) & 7];
    const std::string text(fuzz::asView(data + 2, size - 2));

    checkSplit(text, windowBytes, blockBytes, (data[0] & 0x10) ? (uint64_t(5) << 30) : 0);

    LoadOptions options = fuzz::fuzzOptions();
    options.jsonWindowBytes = windowBytes;
    options.jsonThreads = (data[0] & 8) ? 2 : 1;
    // Times of the second copy: anywhere a rank clock can put it (RankClock offsets stay within the
    // builder's time range, +-2^62 ns).
    const int64_t shift = (int64_t(data[1] >> 6) - 2) << 60;

    Outcome windowed;
    std::string name = "fuzz.json";
    if (stream == Stream::Memory) {
        InputStream in(text, name, options, blockBytes);
        windowed = load(in, options, shift);
    } else {
        std::string bytes;
        switch (stream) {
        case Stream::Gzip: bytes = fuzz::gzip(text); break;
        case Stream::Gzip2: bytes = fuzz::gzip(std::string_view(text).substr(0, text.size() / 2)) + fuzz::gzip(std::string_view(text).substr(text.size() / 2)); break;
        case Stream::Zstd: bytes = fuzz::zstd(text); break;
        case Stream::GzipCut: bytes = fuzz::gzip(text); bytes.resize(bytes.size() * 3 / 4); break;
        default: bytes = text; break;
        }
        name = fuzz::scratchFolder() + ".json";
        writeFile(name, bytes);
        try {
            InputStream in(name, options);
            windowed = load(in, options, shift);
        } catch (const ImportError &e) { // the file cannot be opened, or a zip member cannot be read
            LANESCOPE_FUZZ_CHECK(e.file() == name);
            windowed.error = e.what();
        }
        std::remove(name.c_str());
        if (stream == Stream::GzipCut || stream == Stream::Raw)
            return 0; // no whole text to compare with
    }

    // The same text in one window on one thread: a window larger than the whole text can never fill.
    // Not 1 MiB: the splitter sizes each window's buffer by the window, and under ASan every buffer
    // past 128 KiB is an mmap with its shadow poisoned (a third of the time went there).
    LoadOptions one = fuzz::fuzzOptions();
    one.jsonWindowBytes = text.size() + 64;
    one.jsonThreads = 1;
    InputStream whole(text, name, one);
    const Outcome reference = load(whole, one, shift);
    if (windowed.digest != reference.digest) {
        std::fprintf(stderr, "windowed (%zu-byte windows, %u threads): %s\none window: %s\n", windowBytes, options.jsonThreads,
                     windowed.digest ? windowed.digest->c_str() : windowed.error.c_str(),
                     reference.digest ? reference.digest->c_str() : reference.error.c_str());
        fuzz::violated("the windowed import differs from the one-window import");
    }
    return 0;
}
