#include "profilefolder.h"

#include "inputbuffer.h"
#include "neffreader.h"
#include "ntffprofile.h"
#include "protobufreader.h"
#include "traceloader.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <memory>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace lanescope {

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

std::string hex(std::string_view bytes)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string s;
    for (unsigned char c : bytes) {
        s += digits[c >> 4];
        s += digits[c & 15];
    }
    return s;
}

bool uuidKnown(const std::string &uuid)
{
    return uuid.size() == 32 && uuid.find_first_not_of('0') != std::string::npos;
}

std::string_view baseName(std::string_view path) { return path.substr(path.rfind('/') + 1); }
std::string_view dirName(std::string_view path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

size_t firstNonSpace(std::string_view s)
{
    size_t i = s.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
        ++i;
    return i;
}

bool contains(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

bool looksLikeNtff(std::string_view head, uint64_t size)
{
    if (head.size() <= kNtffMetadataOffset || size < kNtffMetadataOffset)
        return false;
    const uint8_t v = uint8_t(head[0]);
    uint32_t n = 0;
    std::memcpy(&n, head.data() + 1, 4); // little-endian hosts only (as everything here)
    return v >= 1 && v <= 16 && n > 0 && uint64_t(kNtffMetadataOffset) + n <= size &&
           uint8_t(head[kNtffMetadataOffset]) == 0x0a;
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

struct ProfileFolder::Walker
{
    Walker(ProfileFolder &folder, const LoadOptions &o) : pf(folder), options(o) {}

    ProfileFolder &pf;
    const LoadOptions &options;
    size_t entries = 0;
    bool truncated = false;
    std::map<std::pair<dev_t, ino_t>, std::string> dirs;  // folder identity -> relative path ("" = root)
    std::map<std::pair<dev_t, ino_t>, std::string> files; // file identity -> relative path
    std::vector<std::pair<dev_t, ino_t>> stack;           // folders on the current path

    void note(const std::string &rel, const std::string &abs, FolderFileStatus status, std::string why)
    {
        FolderFile f;
        f.path = abs;
        f.relativePath = rel;
        f.status = status;
        f.detail = std::move(why);
        pf.m_files.push_back(std::move(f));
    }

    void walk(const std::string &abs, const std::string &rel, int depth)
    {
        DIR *d = ::opendir(abs.c_str());
        if (!d) {
            const std::string why = std::string("cannot read folder: ") + std::strerror(errno);
            pf.m_diagnostics.warn("folders that cannot be read (skipped)", (rel.empty() ? std::string(".") : rel) + ": " + why);
            if (!rel.empty())
                note(rel + "/", abs, FolderFileStatus::NotReadable, why);
            return;
        }
        std::vector<std::string> names;
        while (const dirent *e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name != "." && name != "..")
                names.push_back(name);
        }
        ::closedir(d);
        std::sort(names.begin(), names.end());
        for (const std::string &name : names) {
            if (truncated)
                return;
            if (options.cancelled())
                throw LoadCancelled();
            if (++entries > kMaxEntries) {
                truncated = true;
                pf.m_diagnostics.warn("the folder holds more entries than are scanned; the rest were not looked at",
                                      "limit " + std::to_string(kMaxEntries) + " entries, stopped at " + (rel.empty() ? name : rel + "/" + name));
                return;
            }
            entry(abs + "/" + name, rel.empty() ? name : rel + "/" + name, name, depth);
        }
    }

    void entry(const std::string &abs, const std::string &rel, const std::string &name, int depth)
    {
        struct stat ls{}, st{};
        if (::lstat(abs.c_str(), &ls) != 0) {
            note(rel, abs, FolderFileStatus::NotReadable, std::string("cannot stat: ") + std::strerror(errno));
            return;
        }
        const bool link = S_ISLNK(ls.st_mode);
        if (::stat(abs.c_str(), &st) != 0) {
            if (link)
                note(rel, abs, FolderFileStatus::NotReadable,
                     errno == ELOOP ? "symbolic link loop (the link resolves to itself)"
                                    : std::string("broken symbolic link: ") + std::strerror(errno));
            else
                note(rel, abs, FolderFileStatus::NotReadable, std::string("cannot stat: ") + std::strerror(errno));
            return;
        }
        const auto id = std::make_pair(st.st_dev, st.st_ino);
        if (S_ISDIR(st.st_mode)) {
            if (std::find(stack.begin(), stack.end(), id) != stack.end()) {
                const std::string target = dirs.count(id) && !dirs[id].empty() ? dirs[id] : std::string("the scanned folder");
                pf.m_diagnostics.warn("symbolic link loops (not followed)", rel + " -> " + target);
                note(rel + "/", abs, FolderFileStatus::Ignored, "symbolic link loop back to " + target + " (not followed)");
                return;
            }
            if (auto it = dirs.find(id); it != dirs.end()) {
                note(rel + "/", abs, FolderFileStatus::Ignored,
                     "same folder as " + (it->second.empty() ? std::string("the scanned folder") : it->second) + " (scanned once)");
                return;
            }
            if (name.starts_with(".")) {
                note(rel + "/", abs, FolderFileStatus::Ignored, "hidden folder (not scanned)");
                return;
            }
            if (depth + 1 > kMaxDepth) {
                pf.m_diagnostics.warn("folders deeper than the scan depth (not scanned)",
                                      rel + " (limit " + std::to_string(kMaxDepth) + " levels)");
                note(rel + "/", abs, FolderFileStatus::Ignored,
                     "deeper than " + std::to_string(kMaxDepth) + " folder levels (not scanned)");
                return;
            }
            dirs.emplace(id, rel);
            stack.push_back(id);
            walk(abs, rel, depth + 1);
            stack.pop_back();
            return;
        }
        if (!S_ISREG(st.st_mode)) {
            note(rel, abs, FolderFileStatus::Ignored, std::string(fileTypeName(st.st_mode)) + " (never opened)");
            return;
        }
        if (auto it = files.find(id); it != files.end()) {
            note(rel, abs, FolderFileStatus::Ignored, "same file as " + it->second + " (listed once)");
            return;
        }
        files.emplace(id, rel);
        FolderFile f;
        f.path = abs;
        f.relativePath = rel;
        f.size = uint64_t(st.st_size);
        f.name = parseName(rel);
        pf.classify(f, options);
        pf.m_files.push_back(std::move(f));
    }
};

ProfileFolder ProfileFolder::scan(const std::string &dir, const LoadOptions &options)
{
    ProfileFolder pf;
    std::string root = dir;
    while (root.size() > 1 && root.back() == '/')
        root.pop_back();
    pf.m_root = root;
    struct stat st{};
    if (::stat(root.c_str(), &st) != 0)
        throw ImportError(root, std::string("cannot open: ") + std::strerror(errno));
    if (!S_ISDIR(st.st_mode))
        throw ImportError(root, "is not a folder");
    DIR *probe = ::opendir(root.c_str());
    if (!probe)
        throw ImportError(root, std::string("cannot read the folder: ") + std::strerror(errno));
    ::closedir(probe);
    Walker w(pf, options);
    const auto id = std::make_pair(st.st_dev, st.st_ino);
    w.dirs.emplace(id, std::string());
    w.stack.push_back(id);
    w.walk(root, std::string(), 0);
    pf.pair();
    pf.groupFiles();
    return pf;
}

// ---- recognition by content ----

void ProfileFolder::classify(FolderFile &f, const LoadOptions &options)
{
    f.kind = FolderFileKind::Other;
    const std::string_view base = baseName(f.relativePath);
    auto set = [&f](FolderFileKind k, FolderFileStatus s, std::string why) {
        f.kind = k;
        f.status = s;
        f.detail = std::move(why);
    };
    static const std::set<std::string, std::less<>> kNeuronPb = {"ntrace.pb", "trace_info.pb", "cpu_util.pb", "host_mem.pb"};
    if (kNeuronPb.count(base)) {
        // Protobuf has no magic number: recognised by name; its schema is not public.
        set(FolderFileKind::NeuronProtobuf, FolderFileStatus::NotReadable,
            std::string(base == "cpu_util.pb" || base == "host_mem.pb" ? "Neuron host samples" : "Neuron system trace") +
                " (protobuf, schema not public); export it with AWS's tools (neuron-profile view "
                "--output-format json writes system_profile.json) and open the export");
        return;
    }
    if (f.size == 0) {
        set(FolderFileKind::Other, FolderFileStatus::Ignored, "empty file");
        return;
    }
    Fd fd;
    fd.fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd.fd < 0) {
        set(FolderFileKind::Other, FolderFileStatus::NotReadable, std::string("cannot open: ") + std::strerror(errno));
        return;
    }
    std::string raw;
    if (!readAt(fd.fd, 0, 8, raw)) {
        set(FolderFileKind::Other, FolderFileStatus::NotReadable, std::string("cannot read: ") + std::strerror(errno));
        return;
    }
    const Compression c = InputBuffer::detect(raw);
    if (c != Compression::None)
        f.compression = InputBuffer::compressionName(c);
    std::string head;
    if (std::string err = readContentHead(f.path, fd.fd, c, kHeadBytes, options, head); !err.empty()) {
        set(FolderFileKind::Other, FolderFileStatus::NotReadable, "cannot read: " + err);
        return;
    }
    const uint64_t contentSize = c == Compression::None ? f.size : UINT64_MAX; // inflated size unknown

    if (c == Compression::None && NeffReader::looksLikeNeff(head, f.size)) {
        f.kind = FolderFileKind::Neff;
        f.uuid = hex(std::string_view(head).substr(204, 16));
        const std::string_view net = std::string_view(head).substr(220, 256);
        f.neffName = std::string(net.substr(0, std::min(net.size(), net.find('\0'))));
        f.status = FolderFileStatus::Unpaired; // pair() decides
        return;
    }
    if (looksLikeNtff(head, contentSize)) {
        f.kind = FolderFileKind::Ntff;
        f.ntffVersion = uint8_t(head[0]);
        if (f.ntffVersion != 4 && f.ntffVersion != 5) {
            f.status = FolderFileStatus::NotReadable;
            f.detail = "NTFF version " + std::to_string(f.ntffVersion) + " is not supported (this reader understands 4 and 5)";
            return;
        }
        uint32_t n = 0;
        std::memcpy(&n, head.data() + 1, 4);
        std::string meta = head.substr(kNtffMetadataOffset, std::min<size_t>(n, head.size() - kNtffMetadataOffset));
        bool haveName = false, haveUuid = false;
        for (int attempt = 0; attempt < 2 && !(haveName && haveUuid); ++attempt) {
            try {
                ProtobufReader pb(meta, f.relativePath, kNtffMetadataOffset);
                ProtobufReader::Field field;
                while (!(haveName && haveUuid) && pb.next(field)) {
                    if (field.type != ProtobufReader::WireType::LengthDelimited)
                        continue;
                    if (field.number == 1 && !haveName) {
                        f.neffName = std::string(field.bytes);
                        haveName = true;
                    } else if (field.number == 2 && !haveUuid) {
                        std::string u(field.bytes.substr(0, 16));
                        u.resize(16, '\0');
                        f.uuid = hex(u);
                        haveUuid = true;
                    }
                }
            } catch (const ImportError &) {
                // the probe ended inside a field: read the whole message once
            }
            if ((haveName && haveUuid) || meta.size() >= n || c != Compression::None || n > kMaxNtffMetadataProbe)
                break;
            if (!readAt(fd.fd, kNtffMetadataOffset, n, meta))
                break;
        }
        f.status = FolderFileStatus::Unpaired;
        if (!haveUuid)
            f.uuid = std::string(32, '0');
        return;
    }
    const size_t j = firstNonSpace(head);
    if (j < head.size() && (head[j] == '{' || head[j] == '[')) {
        auto classifyJson = [&](std::string_view h) -> bool {
            if (h[j] == '[') {
                if (contains(h, "\"ph\"") || (contains(h, "\"ts\"") && contains(h, "\"name\""))) {
                    set(FolderFileKind::ChromeTrace, FolderFileStatus::Loaded, {});
                    return true;
                }
                return false;
            }
            if (contains(h, "\"traceEvents\"")) {
                set(FolderFileKind::ChromeTrace, FolderFileStatus::Loaded, {});
                return true;
            }
            if (contains(h, "\"trace_events\"")) {
                set(FolderFileKind::SystemProfileJson, FolderFileStatus::Loaded, {});
                return true;
            }
            if (TraceLoader::sniff(h, contentSize) == FileFormat::NeuronProfileJson) {
                set(FolderFileKind::NeuronProfileJson, FolderFileStatus::Loaded, {});
                f.uuid = jsonUuid(h);
                return true;
            }
            return false;
        };
        if (classifyJson(head)) {
            // The export's keys come in any order: its neff_header (uuid) may sit further in.
            std::string more;
            if (f.kind == FolderFileKind::NeuronProfileJson && f.uuid.empty() && head.size() >= kHeadBytes &&
                readContentHead(f.path, fd.fd, c, kJsonProbeBytes, options, more).empty())
                f.uuid = jsonUuid(more);
            return;
        }
        if (head[j] == '{' && head.size() >= kHeadBytes) {
            std::string more;
            if (readContentHead(f.path, fd.fd, c, kJsonProbeBytes, options, more).empty() && classifyJson(more))
                return;
        }
        set(FolderFileKind::Other, FolderFileStatus::Ignored,
            head[j] == '[' ? "JSON array without trace events (not a trace)"
                           : "JSON without traceEvents, instruction rows or trace_events (not a trace)");
        return;
    }
    const bool text = head.find('\0') == std::string::npos &&
                      std::all_of(head.begin(), head.end(), [](char ch) {
                          const unsigned char u = static_cast<unsigned char>(ch);
                          return u >= 0x20 || ch == '\n' || ch == '\r' || ch == '\t';
                      });
    std::string why = text ? "text file (not a trace JSON, NTFF or NEFF)" : "unrecognised content (not a trace JSON, NTFF or NEFF)";
    if (base.ends_with(".neff"))
        why = c != Compression::None ? "compressed NEFF: decompress it first" : "named .neff but its header is not a NEFF header";
    else if (base.ends_with(".ntff"))
        why = "named .ntff but it does not start with an NTFF header";
    else if (base.ends_with(".pb"))
        why = "protobuf or binary file of an unknown kind";
    set(FolderFileKind::Other, FolderFileStatus::Ignored, why);
}

// ---- pairing ----

void ProfileFolder::pair()
{
    std::map<std::string, std::vector<int>> neffByUuid, neffByHash;
    std::vector<int> ntffs;
    for (int i = 0; i < int(m_files.size()); ++i) {
        const FolderFile &f = m_files[size_t(i)];
        if (f.status == FolderFileStatus::NotReadable)
            continue;
        if (f.kind == FolderFileKind::Neff) {
            if (uuidKnown(f.uuid))
                neffByUuid[f.uuid].push_back(i);
            if (!f.name.hash.empty())
                neffByHash[f.name.hash].push_back(i);
        } else if (f.kind == FolderFileKind::Ntff) {
            ntffs.push_back(i);
        }
    }
    // Among several candidates: the same folder, then the same process folder, then the first by path.
    auto best = [this](const FolderFile &ntff, const std::vector<int> &cands) {
        int pick = cands.front();
        int score = -1;
        for (int c : cands) {
            const FolderFile &n = m_files[size_t(c)];
            const int s = dirName(n.relativePath) == dirName(ntff.relativePath) ? 2
                        : n.name.processFolder == ntff.name.processFolder ? 1 : 0;
            if (s > score) {
                score = s;
                pick = c;
            }
        }
        return pick;
    };
    auto link = [this](int ntff, int neff, PairedBy by) {
        FolderFile &t = m_files[size_t(ntff)];
        FolderFile &n = m_files[size_t(neff)];
        t.pairedWith = {neff};
        t.pairedBy = by;
        t.status = FolderFileStatus::Paired;
        n.pairedWith.push_back(ntff);
        n.pairedBy = n.pairedBy == PairedBy::None ? by : n.pairedBy;
        n.status = FolderFileStatus::Paired;
    };
    for (int t : ntffs) {
        const FolderFile &f = m_files[size_t(t)];
        if (auto it = neffByUuid.find(f.uuid); uuidKnown(f.uuid) && it != neffByUuid.end())
            link(t, best(f, it->second), PairedBy::Uuid);
    }
    // Second: the hash in the names, only where a uuid cannot decide (unknown on one side).
    for (int t : ntffs) {
        FolderFile &f = m_files[size_t(t)];
        if (f.status == FolderFileStatus::Paired || f.name.hash.empty())
            continue;
        auto it = neffByHash.find(f.name.hash);
        std::vector<int> ok;
        std::string conflict;
        if (it != neffByHash.end())
            for (int c : it->second) {
                const FolderFile &n = m_files[size_t(c)];
                if (uuidKnown(f.uuid) && uuidKnown(n.uuid) && n.uuid != f.uuid)
                    conflict = n.relativePath + " has the hash " + f.name.hash + " in its name but uuid " + n.uuid;
                else
                    ok.push_back(c);
            }
        if (!ok.empty()) {
            link(t, best(f, ok), PairedBy::NameHash);
            continue;
        }
        f.detail = conflict; // completed below
    }
    for (int t : ntffs) {
        FolderFile &f = m_files[size_t(t)];
        if (f.status != FolderFileStatus::Unpaired)
            continue;
        std::string why = uuidKnown(f.uuid) ? "no NEFF in the folder has its uuid " + f.uuid : std::string("its uuid is not recorded");
        if (!f.name.hash.empty())
            why += f.detail.empty() ? ", nor the hash " + f.name.hash + " in its name" : "; " + f.detail + " (not paired)";
        if (!f.neffName.empty())
            why += "; it was recorded for '" + f.neffName + "'";
        f.detail = why;
    }
    // A neuron-profile JSON exported from an NTFF that is here too: the NTFF is loaded instead.
    for (FolderFile &j : m_files) {
        if (j.kind != FolderFileKind::NeuronProfileJson || !uuidKnown(j.uuid))
            continue;
        for (int t : ntffs)
            if (m_files[size_t(t)].uuid == j.uuid) {
                j.status = FolderFileStatus::Ignored;
                j.detail = "export of an NTFF with the same uuid " + j.uuid + " (" + m_files[size_t(t)].relativePath +
                           "), which is loaded instead";
                break;
            }
    }
    for (FolderFile &n : m_files) {
        if (n.kind != FolderFileKind::Neff || n.status != FolderFileStatus::Unpaired)
            continue;
        if (auto it = neffByUuid.find(n.uuid); uuidKnown(n.uuid) && it != neffByUuid.end()) {
            for (int other : it->second)
                if (!m_files[size_t(other)].pairedWith.empty()) {
                    n.detail = "same uuid as " + m_files[size_t(other)].relativePath +
                               ", which its NTFFs were paired with (a copy of the same program)";
                    break;
                }
            if (!n.detail.empty())
                continue;
        }
        std::string why = uuidKnown(n.uuid) ? "no NTFF in the folder has its uuid " + n.uuid : std::string("its uuid is empty");
        if (!n.name.hash.empty()) {
            std::string conflict;
            for (int t : ntffs)
                if (m_files[size_t(t)].name.hash == n.name.hash)
                    conflict = m_files[size_t(t)].relativePath + " has the hash in its name but uuid " + m_files[size_t(t)].uuid;
            why += conflict.empty() ? " or the hash " + n.name.hash + " in its name" : "; " + conflict + " (not paired)";
        }
        n.detail = why + "; a NEFF alone has no timeline";
    }
}

// ---- grouping ----

void ProfileFolder::groupFiles()
{
    std::map<std::string, int> byKey;
    for (int i = 0; i < int(m_files.size()); ++i) {
        FolderFile &f = m_files[size_t(i)];
        std::string key, label;
        FolderGroup g;
        if (!f.name.processFolder.empty()) {
            key = f.name.processFolder;
            label = f.name.instanceId + " (pid " + std::to_string(f.name.pid) + ")";
            g.instanceId = f.name.instanceId;
            g.pid = f.name.pid;
        } else if (f.name.rank >= 0) {
            key = label = "rank " + std::to_string(f.name.rank);
            g.rank = f.name.rank;
        }
        auto it = byKey.find(key);
        if (it == byKey.end()) {
            g.key = key;
            g.label = label;
            m_groups.push_back(std::move(g));
            it = byKey.emplace(key, int(m_groups.size()) - 1).first;
        }
        f.group = it->second;
        m_groups[size_t(it->second)].files.push_back(i);
    }
}

// ---- text ----

int ProfileFolder::find(std::string_view relativePath) const
{
    for (size_t i = 0; i < m_files.size(); ++i)
        if (m_files[i].relativePath == relativePath)
            return int(i);
    return -1;
}

void ProfileFolder::setOutcome(size_t index, FolderFileStatus status, std::string detail)
{
    if (index >= m_files.size())
        return;
    m_files[index].status = status;
    m_files[index].detail = std::move(detail);
}

std::string ProfileFolder::statusText(const FolderFile &f) const
{
    switch (f.status) {
    case FolderFileStatus::Loaded:
        return f.detail.empty() ? std::string("loaded") : "loaded: " + f.detail;
    case FolderFileStatus::Paired: {
        std::string s = "paired with ";
        for (size_t i = 0; i < f.pairedWith.size(); ++i) {
            const std::string &other = m_files[size_t(f.pairedWith[i])].relativePath;
            s += (i ? ", " : "") + (dirName(other) == dirName(f.relativePath) ? std::string(baseName(other)) : other);
        }
        s += f.pairedBy == PairedBy::Uuid ? " by uuid" : " by the hash in the names (uuid not recorded)";
        return f.detail.empty() ? s : s + "; " + f.detail;
    }
    case FolderFileStatus::Unpaired: return "unpaired: " + f.detail;
    case FolderFileStatus::NotReadable: return "not readable: " + f.detail;
    case FolderFileStatus::Ignored: return "ignored: " + f.detail;
    }
    return f.detail;
}

FolderFileStatus ProfileFolder::statusFromText(std::string_view text)
{
    if (text.starts_with("loaded"))
        return FolderFileStatus::Loaded;
    if (text.starts_with("paired"))
        return FolderFileStatus::Paired;
    if (text.starts_with("unpaired"))
        return FolderFileStatus::Unpaired;
    if (text.starts_with("not readable"))
        return FolderFileStatus::NotReadable;
    return FolderFileStatus::Ignored;
}

const char *ProfileFolder::kindName(FolderFileKind k)
{
    switch (k) {
    case FolderFileKind::ChromeTrace: return "chrome-trace";
    case FolderFileKind::Ntff: return "ntff";
    case FolderFileKind::Neff: return "neff";
    case FolderFileKind::NeuronProfileJson: return "neuron-profile-json";
    case FolderFileKind::SystemProfileJson: return "system-profile-json";
    case FolderFileKind::NeuronProtobuf: return "neuron-protobuf";
    case FolderFileKind::Other: break;
    }
    return "other";
}

const char *ProfileFolder::statusName(FolderFileStatus s)
{
    switch (s) {
    case FolderFileStatus::Loaded: return "loaded";
    case FolderFileStatus::Paired: return "paired";
    case FolderFileStatus::Unpaired: return "unpaired";
    case FolderFileStatus::NotReadable: return "not_readable";
    case FolderFileStatus::Ignored: break;
    }
    return "ignored";
}

} // namespace lanescope
