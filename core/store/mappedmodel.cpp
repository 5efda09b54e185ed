#include "mappedmodel.h"

#include "model/depthindex.h"
#include "util/contentfingerprint.h"

#include <QSaveFile>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <future>
#include <memory>

namespace lanescope {

namespace {

constexpr char kMagic[8] = {'L', 'S', 'M', 'O', 'D', 'E', 'L', '\0'};

// The columns in file order; `hashed`: small, read whole at open anyway, so their checksum is checked.
struct ColumnSpec
{
    const char *name;
    size_t width;
    bool hashed;
};
constexpr ColumnSpec kColumns[] = {
    {"strings.bytes", 1, true},
    {"strings.lengths", sizeof(uint32_t), true},
    {"groups", sizeof(TrackGroup), true},
    {"tracks", sizeof(Track), true},
    {"slices", sizeof(Slice), false},
    {"slices.trackIndex", sizeof(uint32_t), true},
    {"instants", sizeof(Instant), false},
    {"counters", sizeof(CounterSample), false},
    {"flows", sizeof(Flow), false},
    {"flows.bySource", sizeof(std::pair<uint32_t, uint32_t>), false},
    {"flows.byTarget", sizeof(std::pair<uint32_t, uint32_t>), false},
    {"args", sizeof(Arg), false},
    {"args.offsets", sizeof(uint32_t), false},
    {"depth.entries", sizeof(uint32_t), false}, // DepthTables::check reads them whole anyway
    {"depth.offsets", sizeof(uint32_t), true},
    {"depth.trackFirst", sizeof(uint32_t), true},
    {"depth.nodes", sizeof(DepthNode), false},
};
constexpr size_t kColumnCount = std::size(kColumns);

struct ColumnEntry
{
    uint64_t offset = 0, bytes = 0, width = 0, checksum = 0;
};

// The file's first bytes, as they are in memory (host byte order; no padding: every field is aligned).
struct Header
{
    char magic[8];
    uint32_t version;
    uint32_t columnCount;
    uint64_t fileSize;
    uint64_t metaOffset;
    uint64_t metaBytes;
    ColumnEntry columns[kColumnCount];
    uint64_t checksum; // of every byte above and the meta bytes
};
static_assert(sizeof(Header) == 40 + kColumnCount * sizeof(ColumnEntry) + 8, "Header must have no padding");

uint64_t alignUp(uint64_t v) { return (v + MappedModel::kAlign - 1) / MappedModel::kAlign * MappedModel::kAlign; }

uint64_t headerChecksum(const Header &h, std::string_view meta)
{
    const std::string_view head(reinterpret_cast<const char *>(&h), offsetof(Header, checksum));
    return ContentFingerprint::hashBytes(meta, ContentFingerprint::hashBytes(head));
}

template <class C> // a std::vector or a Column
std::string_view bytesOf(const C &v)
{
    return {reinterpret_cast<const char *>(v.data()), v.size() * sizeof(typename C::value_type)};
}

// What the trace's columns hold, in kColumns order (the strings as TraceSerializer::stringColumns).
struct Contents
{
    std::string meta, stringBytes;
    std::vector<uint32_t> stringLengths;
    std::vector<std::string_view> columns;

    Contents(const Trace &t, std::vector<std::string_view> records)
        : meta(TraceSerializer::encodeHeader(t)), columns(std::move(records))
    {
        TraceSerializer::stringColumns(t, stringBytes, stringLengths);
        columns.insert(columns.begin(), {std::string_view(stringBytes), bytesOf(stringLengths)});
    }
};

// A read-only private mapping of a whole file, unmapped with its last owner.
class Mapping
{
public:
    Mapping(void *base, size_t size) : m_base(base), m_size(size) {}
    ~Mapping() { ::munmap(m_base, m_size); }
    Mapping(const Mapping &) = delete;
    Mapping &operator=(const Mapping &) = delete;
    const char *bytes() const { return static_cast<const char *>(m_base); }

private:
    void *m_base;
    size_t m_size;
};

} // namespace

std::string MappedModel::layoutTag() { return "m" + std::to_string(kVersion) + "-" + TraceSerializer::layoutTag(); }

uint64_t MappedModel::fileSize(const Trace &trace)
{
    const auto depth = trace.depthTables();
    const Contents c(trace, recordColumns(trace, *depth));
    uint64_t off = alignUp(sizeof(Header) + c.meta.size());
    for (size_t i = 0; i < kColumnCount; ++i)
        off = (i + 1 < kColumnCount ? alignUp(off + c.columns[i].size()) : off + c.columns[i].size());
    return off;
}

bool MappedModel::write(const Trace &trace, const std::string &path, std::string *error)
{
    // The depth tables go with the model, so a reopened trace draws without building them.
    const auto depth = trace.depthTables();
    const Contents c(trace, recordColumns(trace, *depth));
    Header h{};
    std::memcpy(h.magic, kMagic, sizeof kMagic);
    h.version = kVersion;
    h.columnCount = uint32_t(kColumnCount);
    h.metaOffset = sizeof(Header);
    h.metaBytes = c.meta.size();
    uint64_t off = alignUp(h.metaOffset + h.metaBytes);
    for (size_t i = 0; i < kColumnCount; ++i) {
        ColumnEntry &e = h.columns[i];
        e.offset = off;
        e.bytes = c.columns[i].size();
        e.width = kColumns[i].width;
        e.checksum = kColumns[i].hashed ? ContentFingerprint::hashBytes(c.columns[i]) : 0;
        off = i + 1 < kColumnCount ? alignUp(off + e.bytes) : off + e.bytes;
    }
    h.fileSize = off;
    h.checksum = headerChecksum(h, c.meta);

    // QSaveFile: a temporary file beside `path`, renamed over it on commit().
    QSaveFile f(QString::fromStdString(path));
    auto fail = [&](const QString &why) {
        if (error)
            *error = path + ": " + why.toStdString();
        f.cancelWriting();
        return false;
    };
    if (!f.open(QIODevice::WriteOnly))
        return fail(f.errorString());
    uint64_t at = 0;
    const std::string zeros(kAlign, '\0');
    auto put = [&](const char *p, uint64_t n) {
        while (n > 0) {
            const qint64 w = f.write(p, qint64(std::min<uint64_t>(n, uint64_t(1) << 30)));
            if (w <= 0)
                return false;
            p += w;
            n -= uint64_t(w);
            at += uint64_t(w);
        }
        return true;
    };
    auto padTo = [&](uint64_t target) { return target <= at || put(zeros.data(), target - at); };
    if (!put(reinterpret_cast<const char *>(&h), sizeof h) || !put(c.meta.data(), c.meta.size()))
        return fail(f.errorString());
    for (size_t i = 0; i < kColumnCount; ++i)
        if (!padTo(h.columns[i].offset) || !put(c.columns[i].data(), c.columns[i].size()))
            return fail(f.errorString());
    if (at != h.fileSize)
        return fail(QStringLiteral("wrote %1 bytes, expected %2").arg(at).arg(h.fileSize));
    if (!f.commit())
        return fail(f.errorString());
    return true;
}

Trace MappedModel::open(const std::string &path, const std::string &sourcePath, unsigned threads)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw CorruptCacheEntry(path + ": cannot open the cache file: " + std::strerror(errno));
    struct stat st{};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        throw CorruptCacheEntry(path + ": " + std::strerror(e));
    }
    const auto size = uint64_t(st.st_size);
    if (size < sizeof(Header)) {
        ::close(fd);
        throw CorruptCacheEntry(path + ": cut short: " + std::to_string(size) + " bytes, less than its "
                                + std::to_string(sizeof(Header)) + "-byte header");
    }
    void *base = ::mmap(nullptr, size_t(size), PROT_READ, MAP_PRIVATE, fd, 0);
    const int mapErrno = errno;
    ::close(fd); // the mapping keeps the file
    if (base == MAP_FAILED)
        throw CorruptCacheEntry(path + ": cannot map the cache file: " + std::strerror(mapErrno));
    const auto mapping = std::make_shared<const Mapping>(base, size_t(size));
    const char *bytes = mapping->bytes();

    Header h;
    std::memcpy(&h, bytes, sizeof h);
    if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
        throw CorruptCacheEntry(path + ": byte 0: not a Lanescope model file (no LSMODEL magic)");
    if (h.version != kVersion)
        throw StaleModelFile(path + ": written by model file version " + std::to_string(h.version) + ", this is version "
                             + std::to_string(kVersion));
    if (h.columnCount != kColumnCount)
        throw CorruptCacheEntry(path + ": byte 12: " + std::to_string(h.columnCount) + " columns, expected "
                                + std::to_string(kColumnCount));
    if (h.fileSize != size)
        throw CorruptCacheEntry(path + ": " + (size < h.fileSize ? "cut short" : "longer than written") + ": "
                                + std::to_string(size) + " bytes, the header says " + std::to_string(h.fileSize));
    if (h.metaOffset != sizeof(Header) || h.metaBytes > size - h.metaOffset)
        throw CorruptCacheEntry(path + ": byte 24: the metadata block does not fit the file");
    if (headerChecksum(h, std::string_view(bytes + h.metaOffset, h.metaBytes)) != h.checksum)
        throw CorruptCacheEntry(path + ": header checksum mismatch (bytes 0-" + std::to_string(offsetof(Header, checksum) - 1)
                                + " and the metadata block)");
    for (size_t i = 0; i < kColumnCount; ++i) {
        const ColumnEntry &e = h.columns[i];
        const std::string where = path + ": column " + kColumns[i].name + " (at byte " + std::to_string(e.offset) + ")";
        if (e.width != kColumns[i].width)
            throw CorruptCacheEntry(where + ": records of " + std::to_string(e.width) + " bytes, this build's are "
                                    + std::to_string(kColumns[i].width));
        if (e.offset % alignof(std::max_align_t) != 0 || e.offset > size || e.bytes > size - e.offset
            || e.bytes % e.width != 0)
            throw CorruptCacheEntry(where + ": " + std::to_string(e.bytes)
                                    + " bytes that do not fit the file or are not whole aligned records");
        if (kColumns[i].hashed && ContentFingerprint::hashBytes(std::string_view(bytes + e.offset, e.bytes)) != e.checksum)
            throw CorruptCacheEntry(where + ": checksum mismatch");
    }
    std::vector<std::string_view> columns;
    for (const ColumnEntry &e : h.columns)
        columns.emplace_back(bytes + e.offset, e.bytes);
    try {
        return viewColumns(mapping, columns, std::string_view(bytes + h.metaOffset, h.metaBytes), sourcePath, threads);
    } catch (const CorruptCacheEntry &e) { // an index that points outside the records: name the file
        throw CorruptCacheEntry(path + ": " + e.what());
    }
}

std::vector<std::string_view> MappedModel::recordColumns(const Trace &t, const DepthTables &d)
{
    return {bytesOf(t.m_groups),        bytesOf(t.m_tracks),        bytesOf(t.m_slices),
            bytesOf(t.m_trackBySliceBegin), bytesOf(t.m_instants),  bytesOf(t.m_counters),
            bytesOf(t.m_flows),         bytesOf(t.m_flowsBySource), bytesOf(t.m_flowsByTarget),
            bytesOf(t.m_args.m_args),   bytesOf(t.m_args.m_offsets), bytesOf(d.entries),
            bytesOf(d.depthOffsets),    bytesOf(d.trackFirstDepth), bytesOf(d.nodes)};
}

namespace {

template <class C>
void viewColumn(C &column, std::string_view bytes, const std::shared_ptr<const void> &keeper)
{
    using T = typename C::value_type;
    column.view(reinterpret_cast<const T *>(bytes.data()), bytes.size() / sizeof(T), keeper);
}

} // namespace

Trace MappedModel::viewColumns(const std::shared_ptr<const void> &keeper, const std::vector<std::string_view> &c,
                               std::string_view meta, const std::string &sourcePath, unsigned threads)
{
    Trace t;
    TraceSerializer::decodeHeader(meta, t, sourcePath);
    const std::string_view lengths = c[1];
    TraceSerializer::restoreStrings(
        t, c[0], std::span<const uint32_t>(reinterpret_cast<const uint32_t *>(lengths.data()), lengths.size() / 4));
    viewColumn(t.m_groups, c[2], keeper);
    viewColumn(t.m_tracks, c[3], keeper);
    viewColumn(t.m_slices, c[4], keeper);
    viewColumn(t.m_trackBySliceBegin, c[5], keeper);
    viewColumn(t.m_instants, c[6], keeper);
    viewColumn(t.m_counters, c[7], keeper);
    viewColumn(t.m_flows, c[8], keeper);
    viewColumn(t.m_flowsBySource, c[9], keeper);
    viewColumn(t.m_flowsByTarget, c[10], keeper);
    viewColumn(t.m_args.m_args, c[11], keeper);
    viewColumn(t.m_args.m_offsets, c[12], keeper);
    auto depth = std::make_shared<DepthTables>();
    viewColumn(depth->entries, c[13], keeper);
    viewColumn(depth->depthOffsets, c[14], keeper);
    viewColumn(depth->trackFirstDepth, c[15], keeper);
    viewColumn(depth->nodes, c[16], keeper);
    // The two checks read different pages (the depth tables' entries; the args' offsets and the flows):
    // side by side on two cores, where the caller has two to spare. The future joins before anything
    // leaves this scope, a throw included.
    std::future<std::string> depthProblem;
    if (threads >= 2)
        depthProblem = std::async(std::launch::async, [&depth, &t] { return depth->check(t); });
    TraceSerializer::checkReferences(t);
    if (const std::string problem = depthProblem.valid() ? depthProblem.get() : depth->check(t); !problem.empty())
        throw CorruptCacheEntry(problem);
    t.setDepthTables(std::move(depth));
    return t;
}

} // namespace lanescope
