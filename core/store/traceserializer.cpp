#include "traceserializer.h"

#include "byteshuffle.h"
#include "util/contentfingerprint.h"
#include "util/runoncores.h"

#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>

namespace lanescope {

namespace {

// Little binary writer / reader for the header column.
class HeaderWriter
{
public:
    void u64(uint64_t v) { m_out.append(reinterpret_cast<const char *>(&v), 8); }
    void str(std::string_view s)
    {
        u64(s.size());
        m_out.append(s);
    }
    std::string take() { return std::move(m_out); }

private:
    std::string m_out;
};

class HeaderReader
{
public:
    explicit HeaderReader(std::string_view in) : m_in(in) {}
    uint64_t u64()
    {
        need(8);
        uint64_t v;
        std::memcpy(&v, m_in.data() + m_pos, 8);
        m_pos += 8;
        return v;
    }
    std::string str()
    {
        const uint64_t n = u64();
        need(n);
        std::string s(m_in.substr(m_pos, n));
        m_pos += n;
        return s;
    }

private:
    void need(uint64_t n) const
    {
        if (n > m_in.size() - m_pos)
            throw CorruptCacheEntry("header block is truncated");
    }
    std::string_view m_in;
    size_t m_pos = 0;
};

template <class C> // a std::vector or a Column
std::string_view bytesOf(const C &v)
{
    return {reinterpret_cast<const char *>(v.data()), v.size() * sizeof(typename C::value_type)};
}

// Every column in the order serialize() writes them, with the size of its records (1: bytes, stored as
// they are; wider records are stored byte-shuffled in blocks of kShuffleBytes, ByteShuffle).
struct ColumnSpec
{
    const char *name;
    size_t width;
};
constexpr ColumnSpec kColumns[] = {
    {"header", 1},
    {"strings.bytes", 1},
    {"strings.lengths", sizeof(uint32_t)},
    {"groups", sizeof(TrackGroup)},
    {"tracks", sizeof(Track)},
    {"slices", sizeof(Slice)},
    {"slices.trackIndex", sizeof(uint32_t)},
    {"instants", sizeof(Instant)},
    {"counters", sizeof(CounterSample)},
    {"flows", sizeof(Flow)},
    {"flows.bySource", sizeof(std::pair<uint32_t, uint32_t>)},
    {"flows.byTarget", sizeof(std::pair<uint32_t, uint32_t>)},
    {"args", sizeof(Arg)},
    {"args.offsets", sizeof(uint32_t)},
};

// Shuffle blocks: small enough that a block decoded into a scratch buffer is still in the core's cache
// when it is unshuffled into the model.
constexpr size_t kShuffleBytes = size_t(128) << 10;
size_t blockRecords(size_t width) { return std::max<size_t>(1, kShuffleBytes / width); }
// A part holds whole records.
size_t partBytes(size_t width) { return std::max<size_t>(1, TraceSerializer::kPartBytes / width) * width; }

} // namespace

std::string TraceSerializer::layoutTag()
{
    return "v" + std::to_string(kFormatVersion) + "-s" + std::to_string(sizeof(Slice)) + "-i"
        + std::to_string(sizeof(Instant)) + "-t" + std::to_string(sizeof(Track)) + "-g"
        + std::to_string(sizeof(TrackGroup)) + "-f" + std::to_string(sizeof(Flow)) + "-a"
        + std::to_string(sizeof(Arg));
}

std::string TraceSerializer::encodeHeader(const Trace &t)
{
    HeaderWriter h;
    h.u64(kFormatVersion);
    h.u64(uint64_t(t.m_start));
    h.u64(uint64_t(t.m_end));
    const TraceMetadata &md = t.m_metadata;
    h.str(md.format);
    h.str(md.sourcePath);
    h.u64(md.synthetic ? 1 : 0);
    h.u64(md.entries.size());
    for (const auto &[k, v] : md.entries) {
        h.str(k);
        h.str(v);
    }
    h.u64(md.files.size());
    for (const FileReport &f : md.files) {
        h.str(f.path);
        h.u64(uint64_t(f.kind));
        h.u64(uint64_t(f.outcome));
        h.str(f.detail);
    }
    h.u64(t.m_stats.eventsRead);
    h.u64(t.m_stats.bytesRead);
    for (const auto *m : {&t.m_stats.phases, &t.m_stats.categories}) {
        h.u64(m->size());
        for (const auto &[k, n] : *m) {
            h.str(k);
            h.u64(n);
        }
    }
    h.u64(t.m_diagnostics.warnings().size());
    for (const Warning &w : t.m_diagnostics.warnings()) {
        h.str(w.message);
        h.u64(w.count);
        h.str(w.firstSeen);
        h.u64(uint64_t(w.severity));
    }
    return h.take();
}

void TraceSerializer::stringColumns(const Trace &t, std::string &bytes, std::vector<uint32_t> &lengths)
{
    const StringPool &pool = t.m_strings;
    lengths.reserve(pool.size());
    for (uint32_t i = 1; i < pool.size(); ++i) {
        const std::string_view s = pool.view(StringId(i));
        lengths.push_back(uint32_t(s.size()));
        bytes.append(s);
    }
}

std::vector<CacheBlock> TraceSerializer::serialize(const Trace &t, int zstdLevel)
{
    const std::string header = encodeHeader(t);

    std::string stringBytes;
    std::vector<uint32_t> stringLengths;
    stringColumns(t, stringBytes, stringLengths);

    const std::string_view bytes[] = {
        header,
        stringBytes,
        bytesOf(stringLengths),
        bytesOf(t.m_groups),
        bytesOf(t.m_tracks),
        bytesOf(t.m_slices),
        bytesOf(t.m_trackBySliceBegin),
        bytesOf(t.m_instants),
        bytesOf(t.m_counters),
        bytesOf(t.m_flows),
        bytesOf(t.m_flowsBySource),
        bytesOf(t.m_flowsByTarget),
        bytesOf(t.m_args.m_args),
        bytesOf(t.m_args.m_offsets),
    };
    static_assert(std::size(bytes) == std::size(kColumns));
    std::vector<CacheBlock> blocks;
    std::vector<std::string_view> raw;
    std::vector<size_t> widths;
    for (size_t c = 0; c < std::size(kColumns); ++c) {
        const size_t width = kColumns[c].width, most = partBytes(width);
        uint32_t part = 0;
        size_t off = 0;
        do { // an empty column still gets its part 0: "present and empty" differs from "missing"
            const size_t n = std::min(most, bytes[c].size() - off);
            CacheBlock b;
            b.column = kColumns[c].name;
            b.part = part++;
            b.rawSize = n;
            blocks.push_back(std::move(b));
            raw.push_back(bytes[c].substr(off, n));
            widths.push_back(width);
            off += n;
        } while (off < bytes[c].size());
    }
    std::atomic<const char *> error{nullptr}; // no exceptions out of the worker threads
    parallelFor(blocks.size(), blocks.size(), [&](size_t i) {
        CacheBlock &b = blocks[i];
        std::string_view in = raw[i];
        std::unique_ptr<char[]> shuffled;
        if (widths[i] > 1) {
            shuffled.reset(new char[in.size()]);
            const size_t w = widths[i], per = blockRecords(w), records = in.size() / w;
            for (size_t r = 0; r < records; r += per)
                ByteShuffle::shuffle(in.data() + r * w, shuffled.get() + r * w, std::min(per, records - r), w);
            in = {shuffled.get(), in.size()};
        }
        b.data.resize(ZSTD_compressBound(in.size()));
        // No zstd content checksum: our checksum of the compressed bytes finds damage before
        // decompressing, at a sixth of the bytes zstd's would hash again.
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, zstdLevel);
        const size_t n = ZSTD_compress2(cctx, b.data.data(), b.data.size(), in.data(), in.size());
        ZSTD_freeCCtx(cctx);
        if (ZSTD_isError(n)) {
            error = ZSTD_getErrorName(n);
            return;
        }
        b.data.resize(n);
        b.data.shrink_to_fit();
        b.checksum = ContentFingerprint::hashBytes(b.data);
    });
    if (error.load())
        throw std::runtime_error(std::string("zstd compression failed: ") + error.load());
    return blocks;
}

namespace {

// Where a column's bytes go while restoring.
struct Destination
{
    std::vector<CacheBlock *> parts;
    size_t width = 1;
    uint64_t total = 0;
    char *data = nullptr;
};

// Decompresses one part into `dest` (rawSize bytes), unshuffling records of `width` bytes a block at a
// time out of a scratch buffer the core's cache holds. Returns why it failed, or empty.
std::string restorePart(const CacheBlock &b, size_t width, char *dest)
{
    if (width == 1 || b.rawSize == 0) {
        const size_t n = ZSTD_decompress(dest, b.rawSize, b.data.data(), b.data.size());
        if (ZSTD_isError(n))
            return std::string("zstd: ") + ZSTD_getErrorName(n);
        return n == b.rawSize ? std::string() : "truncated";
    }
    std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx *)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
    const size_t per = blockRecords(width), records = b.rawSize / width;
    std::unique_ptr<char[]> scratch(new char[std::min(per, records) * width]);
    ZSTD_inBuffer in{b.data.data(), b.data.size(), 0};
    size_t left = 1; // what zstd still expects of the frame (0: the frame ended)
    for (size_t r = 0; r < records; r += per) {
        const size_t n = std::min(per, records - r);
        ZSTD_outBuffer out{scratch.get(), n * width, 0};
        while (out.pos < out.size) {
            const size_t inBefore = in.pos, outBefore = out.pos;
            left = ZSTD_decompressStream(dctx.get(), &out, &in);
            if (ZSTD_isError(left))
                return std::string("zstd: ") + ZSTD_getErrorName(left);
            if ((left == 0 && out.pos < out.size) || (in.pos == inBefore && out.pos == outBefore))
                return "truncated";
        }
        ByteShuffle::unshuffle(scratch.get(), dest + r * width, n, width);
    }
    while (left != 0) { // every byte is out: only the end of the frame may be left to read
        ZSTD_outBuffer none{scratch.get(), 0, 0};
        const size_t inBefore = in.pos;
        left = ZSTD_decompressStream(dctx.get(), &none, &in);
        if (ZSTD_isError(left) || in.pos == inBefore)
            break;
    }
    if (left != 0 || in.pos != in.size)
        return "the frame holds more than the recorded size";
    return {};
}

template <class C> // a std::vector or a Column
void sizeVector(C &v, Destination &d, const char *name)
{
    using T = typename C::value_type;
    if (d.total % sizeof(T) != 0)
        throw CorruptCacheEntry(std::string("column ") + name + " has a size that is not a whole number of records");
    v.resize(d.total / sizeof(T));
    d.data = reinterpret_cast<char *>(v.data());
}

} // namespace

Trace TraceSerializer::deserialize(std::vector<CacheBlock> blocks, const std::string &sourcePath)
{
    std::map<std::string, Destination, std::less<>> cols;
    for (CacheBlock &b : blocks)
        cols[b.column].parts.push_back(&b);
    for (const auto &[name, width] : kColumns) {
        auto it = cols.find(std::string_view(name));
        if (it == cols.end())
            throw CorruptCacheEntry(std::string("column ") + name + " is missing");
        it->second.width = width;
        auto &parts = it->second.parts;
        std::sort(parts.begin(), parts.end(), [](auto *a, auto *b) { return a->part < b->part; });
        for (size_t i = 0; i < parts.size(); ++i) {
            if (parts[i]->part != i)
                throw CorruptCacheEntry(std::string("column ") + name + " has a missing part " + std::to_string(i));
            if (parts[i]->rawSize > kPartBytes || parts[i]->rawSize % width != 0)
                throw CorruptCacheEntry(std::string("column ") + name + " has an oversized part or one of partial records");
            it->second.total += parts[i]->rawSize;
        }
    }
    if (cols.size() != std::size(kColumns))
        throw CorruptCacheEntry("entry has unknown columns");

    Trace t;
    std::string header, stringBytes;
    std::vector<uint32_t> stringLengths;
    auto col = [&](const char *n) -> Destination & { return cols.find(std::string_view(n))->second; };
    header.resize(col("header").total);
    col("header").data = header.data();
    stringBytes.resize(col("strings.bytes").total);
    col("strings.bytes").data = stringBytes.data();
    sizeVector(stringLengths, col("strings.lengths"), "strings.lengths");
    sizeVector(t.m_groups, col("groups"), "groups");
    sizeVector(t.m_tracks, col("tracks"), "tracks");
    sizeVector(t.m_slices, col("slices"), "slices");
    sizeVector(t.m_trackBySliceBegin, col("slices.trackIndex"), "slices.trackIndex");
    sizeVector(t.m_instants, col("instants"), "instants");
    sizeVector(t.m_counters, col("counters"), "counters");
    sizeVector(t.m_flows, col("flows"), "flows");
    sizeVector(t.m_flowsBySource, col("flows.bySource"), "flows.bySource");
    sizeVector(t.m_flowsByTarget, col("flows.byTarget"), "flows.byTarget");
    sizeVector(t.m_args.m_args, col("args"), "args");
    sizeVector(t.m_args.m_offsets, col("args.offsets"), "args.offsets");

    struct Job
    {
        CacheBlock *block;
        size_t width;
        char *dest;
    };
    std::vector<Job> jobs;
    for (auto &[name, d] : cols) {
        uint64_t off = 0;
        for (CacheBlock *b : d.parts) {
            jobs.push_back({b, d.width, d.data + off});
            off += b->rawSize;
        }
    }
    // The largest parts first, so that the cores finish together.
    std::stable_sort(jobs.begin(), jobs.end(), [](const Job &a, const Job &b) { return a.block->rawSize > b.block->rawSize; });
    std::atomic<bool> bad{false};
    std::string badWhy; // written by the first failing job only
    std::atomic_flag claimed = ATOMIC_FLAG_INIT;
    parallelFor(jobs.size(), jobs.size(), [&](size_t i) {
        const CacheBlock &b = *jobs[i].block;
        auto fail = [&](std::string why) {
            bad = true;
            if (!claimed.test_and_set())
                badWhy = "column " + b.column + " part " + std::to_string(b.part) + ": " + why;
        };
        if (ContentFingerprint::hashBytes(b.data) != b.checksum)
            return fail("checksum mismatch");
        const unsigned long long frame = ZSTD_getFrameContentSize(b.data.data(), b.data.size());
        if (frame == ZSTD_CONTENTSIZE_ERROR || frame == ZSTD_CONTENTSIZE_UNKNOWN || frame != b.rawSize)
            return fail("not a zstd frame of the recorded size");
        if (std::string why = restorePart(b, jobs[i].width, jobs[i].dest); !why.empty())
            return fail(std::move(why));
    });
    if (bad)
        throw CorruptCacheEntry(badWhy);
    blocks.clear();

    decodeHeader(header, t, sourcePath);
    restoreStrings(t, stringBytes, stringLengths);
    checkReferences(t);
    return t;
}

void TraceSerializer::decodeHeader(std::string_view header, Trace &t, const std::string &sourcePath)
{
    HeaderReader h(header);
    if (h.u64() != kFormatVersion)
        throw CorruptCacheEntry("written by another cache format version");
    t.m_start = int64_t(h.u64());
    t.m_end = int64_t(h.u64());
    TraceMetadata &md = t.m_metadata;
    md.format = h.str();
    md.sourcePath = h.str();
    md.synthetic = h.u64() != 0;
    for (uint64_t n = h.u64(); n > 0; --n) {
        std::string k = h.str();
        md.entries.emplace_back(std::move(k), h.str());
    }
    for (uint64_t n = h.u64(); n > 0; --n) {
        FileReport f;
        f.path = h.str();
        const uint64_t kind = h.u64(), outcome = h.u64();
        if (kind >= uint64_t(kFileFormatCount) || outcome >= uint64_t(kFileOutcomeCount))
            throw CorruptCacheEntry("file report with an unknown kind or outcome");
        f.kind = FileFormat(kind);
        f.outcome = FileOutcome(outcome);
        f.detail = h.str();
        md.files.push_back(std::move(f));
    }
    if (!sourcePath.empty() && sourcePath != md.sourcePath) {
        // The same content opened from another place: say where it was opened from, as the importer would.
        for (auto &[k, v] : md.entries)
            if (k == "folder" && v == md.sourcePath)
                v = sourcePath;
        md.sourcePath = sourcePath;
    }
    t.m_stats.eventsRead = h.u64();
    t.m_stats.bytesRead = h.u64();
    for (auto *m : {&t.m_stats.phases, &t.m_stats.categories})
        for (uint64_t n = h.u64(); n > 0; --n) {
            std::string k = h.str();
            (*m)[std::move(k)] = h.u64();
        }
    for (uint64_t n = h.u64(); n > 0; --n) {
        std::string message = h.str();
        const uint64_t count = h.u64();
        std::string firstSeen = h.str();
        const uint64_t severity = h.u64();
        if (severity > uint64_t(DiagnosticSeverity::Note))
            throw CorruptCacheEntry("a warning of an unknown severity");
        t.m_diagnostics.report(DiagnosticSeverity(severity), message, firstSeen, count);
    }
}

void TraceSerializer::restoreStrings(Trace &t, std::string_view stringBytes, std::span<const uint32_t> stringLengths)
{
    // Strings are interned in their original order, so every StringId keeps its value.
    uint64_t off = 0;
    for (uint32_t len : stringLengths) {
        if (len > stringBytes.size() - off)
            throw CorruptCacheEntry("string pool is truncated");
        const StringId id = t.m_strings.intern(std::string_view(stringBytes.data() + off, len));
        off += len;
        if (id.value != t.m_strings.size() - 1)
            throw CorruptCacheEntry("string pool holds a duplicate");
    }
    if (off != stringBytes.size())
        throw CorruptCacheEntry("string pool has trailing bytes");
}

void TraceSerializer::checkReferences(const Trace &t)
{
    // References that would read out of bounds if a checksum-valid entry were still wrong.
    const auto &offsets = t.m_args.m_offsets;
    if (offsets.empty() || offsets.front() != 0 || offsets.back() != t.m_args.m_args.size()
        || !std::is_sorted(offsets.begin(), offsets.end()))
        throw CorruptCacheEntry("argument offsets are inconsistent");
    for (const Track &tr : t.m_tracks)
        if (uint64_t(tr.sliceBegin) + tr.sliceCount > t.m_slices.size()
            || uint64_t(tr.instantBegin) + tr.instantCount > t.m_instants.size()
            || uint64_t(tr.counterBegin) + tr.counterCount > t.m_counters.size()
            || (tr.group.isValid() && tr.group.value >= t.m_groups.size()))
            throw CorruptCacheEntry("a track points past the stored records");
    for (uint32_t i : t.m_trackBySliceBegin)
        if (i >= t.m_tracks.size())
            throw CorruptCacheEntry("slice track index points past the tracks");
    for (const Flow &f : t.m_flows)
        if ((f.from.isValid() && f.from.value >= t.m_slices.size()) || (f.to.isValid() && f.to.value >= t.m_slices.size()))
            throw CorruptCacheEntry("a flow points past the slices");
    for (const auto *index : {&t.m_flowsBySource, &t.m_flowsByTarget})
        for (const auto &[s, f] : *index)
            if (s >= t.m_slices.size() || f >= t.m_flows.size())
                throw CorruptCacheEntry("flow index points past the records");
}

} // namespace lanescope
