#include "folderscan.h"

#include "io/explorer/explorerdeviceimporter.h"
#include "io/explorer/explorerdirectory.h"
#include "io/explorer/explorersystemimporter.h"
#include "io/formats.h"
#include "io/input/inputbuffer.h"
#include "io/neff/neffreader.h"
#include "io/ntff/ntffprofile.h"
#include "io/ntff/ntffreader.h"
#include "io/protobuf/protobufreader.h"
#include "io/ranks/rankdetection.h"
#include "util/textutil.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace lanescope {

// A folder's JSON probe reads as far as the formats table's JSON detection does.
static_assert(FolderScan::kJsonProbeBytes == Formats::kJsonProbeBytes);

namespace {

constexpr size_t kReadChunk = 64 * 1024;
constexpr uint64_t kMaxNtffMetadataProbe = uint64_t(64) << 20;

struct Fd
{
    int fd = -1;
    ~Fd() { if (fd >= 0) ::close(fd); }
};

bool readAt(int fd, uint64_t offset, size_t n, std::string &out)
{
    out.resize(n);
    size_t got = 0;
    while (got < n) {
        const ssize_t r = ::pread(fd, out.data() + got, n - got, off_t(offset + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return false;
        if (r == 0)
            break;
        got += size_t(r);
    }
    out.resize(got);
    return true;
}

// Up to `maxOut` bytes of the file's content, inflated only as far as needed (gzip, zstd); zip goes
// through InputBuffer (the whole member). Returns an error text, empty on success.
std::string readContentHead(const std::string &path, int fd, Compression c, size_t maxOut, const LoadOptions &options,
                            std::string &out)
{
    out.clear();
    if (c == Compression::None) {
        // Never more than the file holds: a folder of small files must not zero 64 KB per file.
        struct stat st {};
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
            maxOut = size_t(std::min<uint64_t>(maxOut, uint64_t(st.st_size)));
        return readAt(fd, 0, maxOut, out) ? std::string() : std::string(std::strerror(errno));
    }
    if (c == Compression::Zip) {
        try {
            LoadOptions o;
            o.cancel = options.cancel;
            o.memoryBudget = std::min<uint64_t>(options.memoryBudget, uint64_t(1) << 30);
            InputBuffer b = InputBuffer::read(path, o);
            out.assign(b.view().substr(0, maxOut));
            return {};
        } catch (const ImportError &e) {
            return e.problem();
        }
    }
    // gzip / zstd: libarchive's raw format inflates only as far as it is read.
    std::unique_ptr<archive, int (*)(archive *)> a(archive_read_new(), archive_read_free);
    archive_read_support_filter_gzip(a.get());
    archive_read_support_filter_zstd(a.get());
    archive_read_support_format_raw(a.get());
    archive_entry *entry = nullptr;
    if (::lseek(fd, 0, SEEK_SET) != 0 || archive_read_open_fd(a.get(), fd, kReadChunk) != ARCHIVE_OK ||
        archive_read_next_header(a.get(), &entry) != ARCHIVE_OK) {
        const char *why = archive_error_string(a.get());
        return std::string("cannot inflate: ") + (why ? why : "not valid compressed data");
    }
    // The buffer grows with what inflates (a 4 MB probe of a small file stays small).
    size_t got = 0;
    while (got < maxOut) {
        if (out.size() == got)
            out.resize(std::min(maxOut, std::max<size_t>(2 * got, kReadChunk)));
        const la_ssize_t n = archive_read_data(a.get(), out.data() + got, out.size() - got);
        if (n < 0 && got == 0) {
            const char *why = archive_error_string(a.get());
            return std::string("corrupt compressed data: ") + (why ? why : "inflate error");
        }
        if (n <= 0)
            break; // the end, or damage after some data: what was read is enough to recognise the file
        got += size_t(n);
    }
    out.resize(got);
    return got ? std::string() : std::string("compressed data is empty");
}

std::string_view baseName(std::string_view path) { return path.substr(path.rfind('/') + 1); }
size_t firstNonSpace(std::string_view s)
{
    size_t i = s.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (i < s.size() && text::isSpace(s[i]))
        ++i;
    return i;
}

// The first "uuid": "<32 hex digits, dashes allowed>" of a neuron-profile JSON export (neff_header).
std::string jsonUuid(std::string_view h)
{
    for (size_t at = h.find("\"uuid\""); at != std::string_view::npos; at = h.find("\"uuid\"", at + 6)) {
        size_t i = at + 6;
        while (i < h.size() && (h[i] == ' ' || h[i] == ':'))
            ++i;
        if (i >= h.size() || h[i] != '"')
            continue;
        std::string u;
        for (++i; i < h.size() && h[i] != '"' && u.size() <= 32; ++i)
            if (h[i] != '-')
                u += char(h[i] >= 'A' && h[i] <= 'F' ? h[i] + 32 : h[i]);
        if (u.size() == 32 && u.find_first_not_of("0123456789abcdef") == std::string::npos)
            return u;
    }
    return {};
}

const char *fileTypeName(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m)  ? "a block device" : "not a regular file";
}

} // namespace

// ---- walk ----

namespace {

// ExplorerDevice / ExplorerSystem for a processed Neuron Explorer profile directory, else Unknown.
FileFormat explorerKind(const std::string &dir)
{
    if (!explorer::ProfileDirectory::looksLikeProfile(dir))
        return FileFormat::Unknown;
    if (ExplorerDeviceImporter::isDeviceProfile(dir))
        return FileFormat::ExplorerDevice;
    if (explorer::SystemDirectoryImporter::isSystemOnlyDirectory(dir))
        return FileFormat::ExplorerSystem;
    return FileFormat::Unknown;
}

// The bytes of the regular files directly in `dir`.
uint64_t directoryBytes(const std::string &dir)
{
    uint64_t n = 0;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code fec;
        if (it->is_regular_file(fec))
            n += uint64_t(it->file_size(fec));
    }
    return n;
}

} // namespace

namespace {

struct Walker
{
    Walker(std::vector<FolderFile> &f, Diagnostics &d, const LoadOptions &o) : out(f), diagnostics(d), options(o) {}

    std::vector<FolderFile> &out;
    Diagnostics &diagnostics;
    const LoadOptions &options;
    size_t entries = 0;
    bool truncated = false;
    std::map<std::pair<dev_t, ino_t>, std::string> dirs;  // folder identity -> relative path ("" = root)
    std::map<std::pair<dev_t, ino_t>, std::string> files; // file identity -> relative path
    std::vector<std::pair<dev_t, ino_t>> stack;           // folders on the current path

    void note(const std::string &rel, const std::string &abs, FileOutcome status, std::string why)
    {
        FolderFile f;
        f.path = abs;
        f.relativePath = rel;
        f.status = status;
        f.detail = std::move(why);
        out.push_back(std::move(f));
    }

    // The names in folder `abs`, sorted; false (warned, and noted for a subfolder) when it cannot be read.
    bool list(const std::string &abs, const std::string &rel, std::vector<std::string> &names)
    {
        DIR *d = ::opendir(abs.c_str());
        if (!d) {
            const std::string why = std::string("cannot read folder: ") + std::strerror(errno);
            diagnostics.warn("folders that cannot be read (skipped)", (rel.empty() ? std::string(".") : rel) + ": " + why);
            if (!rel.empty())
                note(rel + "/", abs, FileOutcome::NotReadable, why);
            return false;
        }
        while (const dirent *e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name != "." && name != "..")
                names.push_back(name);
        }
        ::closedir(d);
        std::sort(names.begin(), names.end());
        return true;
    }

    void walk(const std::string &abs, const std::string &rel, int depth)
    {
        std::vector<std::string> names;
        if (list(abs, rel, names))
            walk(abs, rel, depth, names);
    }

    // The entries `names` of folder `abs` (listed once by list()).
    void walk(const std::string &abs, const std::string &rel, int depth, const std::vector<std::string> &names)
    {
        for (const std::string &name : names) {
            if (truncated)
                return;
            if (options.cancelled())
                throw LoadCancelled();
            if (++entries > FolderScan::kMaxEntries) {
                truncated = true;
                diagnostics.warn("the folder holds more entries than are scanned; the rest were not looked at",
                                      "limit " + std::to_string(FolderScan::kMaxEntries) + " entries, stopped at " + (rel.empty() ? name : rel + "/" + name));
                return;
            }
            entry(abs + "/" + name, rel.empty() ? name : rel + "/" + name, name, depth);
        }
    }

    void entry(const std::string &abs, const std::string &rel, const std::string &name, int depth)
    {
        struct stat ls{}, st{};
        if (::lstat(abs.c_str(), &ls) != 0) {
            note(rel, abs, FileOutcome::NotReadable, std::string("cannot stat: ") + std::strerror(errno));
            return;
        }
        const bool link = S_ISLNK(ls.st_mode);
        if (::stat(abs.c_str(), &st) != 0) {
            if (link)
                note(rel, abs, FileOutcome::NotReadable,
                     errno == ELOOP ? "symbolic link loop (the link resolves to itself)"
                                    : std::string("broken symbolic link: ") + std::strerror(errno));
            else
                note(rel, abs, FileOutcome::NotReadable, std::string("cannot stat: ") + std::strerror(errno));
            return;
        }
        const auto id = std::make_pair(st.st_dev, st.st_ino);
        if (S_ISDIR(st.st_mode)) {
            if (std::find(stack.begin(), stack.end(), id) != stack.end()) {
                const std::string target = dirs.count(id) && !dirs[id].empty() ? dirs[id] : std::string("the scanned folder");
                diagnostics.warn("symbolic link loops (not followed)", rel + " -> " + target);
                note(rel + "/", abs, FileOutcome::Ignored, "symbolic link loop back to " + target + " (not followed)");
                return;
            }
            if (auto it = dirs.find(id); it != dirs.end()) {
                note(rel + "/", abs, FileOutcome::Ignored,
                     "same folder as " + (it->second.empty() ? std::string("the scanned folder") : it->second) + " (scanned once)");
                return;
            }
            if (name.starts_with(".")) {
                note(rel + "/", abs, FileOutcome::Ignored, "hidden folder (not scanned)");
                return;
            }
            if (depth + 1 > FolderScan::kMaxDepth) {
                diagnostics.warn("folders deeper than the scan depth (not scanned)",
                                      rel + " (limit " + std::to_string(FolderScan::kMaxDepth) + " levels)");
                note(rel + "/", abs, FileOutcome::Ignored,
                     "deeper than " + std::to_string(FolderScan::kMaxDepth) + " folder levels (not scanned)");
                return;
            }
            // A processed Neuron Explorer profile (a directory of Parquet tables) is one entry, not a folder
            // to walk: its tables are read together by its importer. The folder is listed once here; only
            // one that holds a .parquet file is asked whether it is a profile (which lists it again).
            std::vector<std::string> names;
            const bool listed = list(abs, rel, names);
            const auto parquetFile = [](const std::string &n) { return n.size() > 8 && n.ends_with(".parquet"); };
            const bool mayBeProfile = listed && std::any_of(names.begin(), names.end(), parquetFile);
            if (const FileFormat kind = mayBeProfile ? explorerKind(abs) : FileFormat::Unknown; kind != FileFormat::Unknown) {
                FolderFile f;
                f.path = abs;
                f.relativePath = rel;
                f.kind = kind;
                f.status = FileOutcome::Loaded;
                f.size = directoryBytes(abs);
                f.name = ProfileFileName::parse(rel);
                out.push_back(std::move(f));
                return;
            }
            dirs.emplace(id, rel);
            if (!listed)
                return;
            stack.push_back(id);
            walk(abs, rel, depth + 1, names);
            stack.pop_back();
            return;
        }
        if (!S_ISREG(st.st_mode)) {
            note(rel, abs, FileOutcome::Ignored, std::string(fileTypeName(st.st_mode)) + " (never opened)");
            return;
        }
        if (auto it = files.find(id); it != files.end()) {
            note(rel, abs, FileOutcome::Ignored, "same file as " + it->second + " (listed once)");
            return;
        }
        files.emplace(id, rel);
        FolderFile f;
        f.path = abs;
        f.relativePath = rel;
        f.size = uint64_t(st.st_size);
        f.name = ProfileFileName::parse(rel);
        FolderScan::classify(f, options);
        out.push_back(std::move(f));
    }
};

} // namespace

std::vector<FolderFile> FolderScan::walk(const std::string &root, const LoadOptions &options, Diagnostics &diagnostics)
{
    struct stat st{};
    if (::stat(root.c_str(), &st) != 0)
        throw ImportError(root, std::string("cannot open: ") + std::strerror(errno));
    if (!S_ISDIR(st.st_mode))
        throw ImportError(root, "is not a folder");
    DIR *probe = ::opendir(root.c_str());
    if (!probe)
        throw ImportError(root, std::string("cannot read the folder: ") + std::strerror(errno));
    ::closedir(probe);
    std::vector<FolderFile> files;
    Walker w(files, diagnostics, options);
    const auto id = std::make_pair(st.st_dev, st.st_ino);
    w.dirs.emplace(id, std::string());
    w.stack.push_back(id);
    w.walk(root, std::string(), 0);
    return files;
}

// ---- recognition by content ----

namespace {

// An NTFF's NEFF name and uuid from its metadata message (fields 1 and 2), reading the whole message
// once when the head ends inside a field.
void readNtffIdentity(FolderFile &f, int fd, const std::string &head, Compression c)
{
    uint32_t n = 0;
    std::memcpy(&n, head.data() + 1, 4);
    std::string meta = head.substr(kNtffMetadataOffset, std::min<size_t>(n, head.size() - kNtffMetadataOffset));
    bool haveName = false, haveUuid = false;
    using Wire = ProtobufReader::WireType;
    // Every field of the message as far as `m` holds it; true when it was read to its end.
    auto parse = [&](const std::string &m) {
        haveName = haveUuid = f.hasDeviceWindow = false;
        f.deviceCores.clear();
        try {
            ProtobufReader pb(m, f.relativePath, kNtffMetadataOffset);
            ProtobufReader::Field field;
            while (pb.next(field)) {
                if (field.type != Wire::LengthDelimited)
                    continue;
                if (field.number == 1 && !haveName) {
                    f.neffName = std::string(field.bytes);
                    haveName = true;
                } else if (field.number == 2 && !haveUuid) {
                    std::string u(field.bytes.substr(0, 16));
                    u.resize(16, '\0');
                    f.uuid = text::hex(u);
                    haveUuid = true;
                } else if (field.number == 15 || field.number == 16) {
                    try {
                        const ProtobufReader inner = pb.nested(field);
                        if (field.number == 15) { // {1 uuid, 2 start ps, 3 end ps} on the device clock (v6)
                            const auto start = inner.find(2), end = inner.find(3);
                            if (start && end && start->type == Wire::Varint && end->type == Wire::Varint && end->value >= start->value) {
                                f.deviceStartPs = start->value;
                                f.deviceEndPs = end->value;
                                f.hasDeviceWindow = true;
                            }
                        } else if (const auto core = inner.find(7); core && core->type == Wire::Varint && core->value < (1u << 20) &&
                                   std::find(f.deviceCores.begin(), f.deviceCores.end(), int64_t(core->value)) == f.deviceCores.end()) {
                            f.deviceCores.push_back(int64_t(core->value)); // a section's physical core (v6)
                        }
                    } catch (const ImportError &) {
                        // a damaged entry tells nothing
                    }
                } else if (field.number == 17) {
                    f.ntffInstanceId = std::string(field.bytes.substr(0, 64));
                }
            }
            return true;
        } catch (const ImportError &) {
            return false; // the probe ended inside a field
        }
    };
    const bool complete = parse(meta);
    // The whole message once when the head ends inside it and something is missing: the identity, or a
    // v6 execution window (its metadata holds no programs, so it is small).
    if (!complete && (!(haveName && haveUuid) || f.ntffVersion >= 6) && meta.size() < n && c == Compression::None &&
        n <= kMaxNtffMetadataProbe && readAt(fd, kNtffMetadataOffset, n, meta))
        parse(meta);
    if (!haveUuid)
        f.uuid = std::string(32, '0');
}

// Why a file of no known kind is ignored.
std::string unknownReason(std::string_view base, std::string_view head, Compression c)
{
    const size_t j = firstNonSpace(head);
    if (j < head.size() && (head[j] == '{' || head[j] == '['))
        return head[j] == '[' ? "JSON array without trace events (not a trace)"
                              : "JSON without traceEvents, instruction rows or trace_events (not a trace)";
    if (base.ends_with(".neff"))
        return c != Compression::None ? "compressed NEFF: decompress it first" : "named .neff but its header is not a NEFF header";
    if (base.ends_with(".ntff"))
        return "named .ntff but it does not start with an NTFF header";
    if (base.ends_with(".pb"))
        return "protobuf or binary file of an unknown kind";
    const bool text = head.find('\0') == std::string::npos && std::all_of(head.begin(), head.end(), [](char ch) {
                          const unsigned char u = static_cast<unsigned char>(ch);
                          return u >= 0x20 || ch == '\n' || ch == '\r' || ch == '\t';
                      });
    return text ? "text file (not a trace JSON, NTFF or NEFF)" : "unrecognised content (not a trace JSON, NTFF or NEFF)";
}

} // namespace

void FolderScan::classify(FolderFile &f, const LoadOptions &options)
{
    f.kind = FileFormat::Unknown;
    const std::string_view base = baseName(f.relativePath);
    auto set = [&f](FileFormat k, FileOutcome s, std::string why) {
        f.kind = k;
        f.status = s;
        f.detail = std::move(why);
    };
    if (const FileFormat byName = Formats::sniffName(base); byName != FileFormat::Unknown && Formats::info(byName).import) {
        set(byName, FileOutcome::Loaded, {}); // ntrace.pb: loaded with the session files beside it
        return;
    } else if (byName != FileFormat::Unknown && Formats::info(byName).role == FolderRole::SessionPart) {
        // ProfileFolderLoader says what the ntrace.pb beside it did with it
        set(byName, FileOutcome::Ignored, "not read: no ntrace.pb beside it (it is read with the ntrace.pb of its capture session)");
        // (the loader's outcome replaces this when an ntrace.pb beside it is loaded: CaptureSession)
        return;
    } else if (byName != FileFormat::Unknown) {
        const char *why = Formats::info(byName).notATrace;
        set(byName, FileOutcome::NotReadable, why ? why : "");
        return;
    }
    if (f.size == 0) {
        set(FileFormat::Unknown, FileOutcome::Ignored, "empty file");
        return;
    }
    Fd fd;
    fd.fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd.fd < 0) {
        set(FileFormat::Unknown, FileOutcome::NotReadable, std::string("cannot open: ") + std::strerror(errno));
        return;
    }
    std::string raw;
    if (!readAt(fd.fd, 0, 8, raw)) {
        set(FileFormat::Unknown, FileOutcome::NotReadable, std::string("cannot read: ") + std::strerror(errno));
        return;
    }
    const Compression c = InputBuffer::detect(raw);
    if (c != Compression::None)
        f.compression = InputBuffer::compressionName(c);
    std::string head;
    if (std::string err = readContentHead(f.path, fd.fd, c, kHeadBytes, options, head); !err.empty()) {
        set(FileFormat::Unknown, FileOutcome::NotReadable, "cannot read: " + err);
        return;
    }
    // inflated size unknown for compressed files
    FormatProbe probe{head, c == Compression::None ? f.size : UINT64_MAX, c != Compression::None};
    FileFormat kind = Formats::sniffInFolder(probe);
    // A JSON object's keys come in any order: "traceEvents" or the export's keys may sit further in.
    std::string more;
    const size_t j = firstNonSpace(head);
    const bool object = j < head.size() && head[j] == '{';
    if (kind == FileFormat::Unknown && object && head.size() >= kHeadBytes &&
        readContentHead(f.path, fd.fd, c, kJsonProbeBytes, options, more).empty()) {
        probe.head = more;
        kind = Formats::sniffInFolder(probe);
    }
    if (kind == FileFormat::Unknown && object && Formats::isNeuronProfileExportName(base))
        kind = FileFormat::NeuronProfileJson;
    const bool probedMore = !more.empty() && kind != FileFormat::Unknown;
    switch (kind) {
    case FileFormat::Neff: {
        f.kind = kind;
        f.uuid = text::hex(std::string_view(head).substr(204, 16));
        const std::string_view net = std::string_view(head).substr(220, 256);
        f.neffName = std::string(net.substr(0, std::min(net.size(), net.find('\0'))));
        f.status = FileOutcome::Unpaired; // FolderPairing decides
        return;
    }
    case FileFormat::Ntff:
        f.kind = kind;
        f.ntffVersion = uint8_t(head[0]);
        if (!NtffReader::isSupportedVersion(f.ntffVersion)) {
            f.status = FileOutcome::NotReadable;
            f.detail = "NTFF version " + std::to_string(f.ntffVersion) + " is not supported (this build reads versions "
                + NtffReader::kSupportedVersions + ")";
            return;
        }
        readNtffIdentity(f, fd.fd, head, c);
        f.status = FileOutcome::Unpaired;
        return;
    case FileFormat::NeuronProfileJson:
        set(kind, FileOutcome::Loaded, {});
        f.uuid = jsonUuid(probedMore ? more : head);
        // The export's neff_header (uuid) may sit further in.
        if (f.uuid.empty() && !probedMore && head.size() >= kHeadBytes &&
            readContentHead(f.path, fd.fd, c, kJsonProbeBytes, options, more).empty())
            f.uuid = jsonUuid(more);
        return;
    case FileFormat::Unknown:
        set(FileFormat::Unknown, FileOutcome::Ignored, unknownReason(base, head, c));
        return;
    default:
        if (!Formats::info(kind).import) { // recognised, not a timeline (a rank summary): listed with the reason
            set(kind, FileOutcome::Ignored, Formats::info(kind).notATrace);
            return;
        }
        set(kind, FileOutcome::Loaded, {});
        if (kind == FileFormat::ChromeJson) // a rank set is recognised without loading it (MultiRankLoader)
            f.distributedRank = RankDetection::fromHead(probedMore ? more : head);
        return;
    }
}

} // namespace lanescope
