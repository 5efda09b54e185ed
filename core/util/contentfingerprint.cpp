#include "contentfingerprint.h"

#include "runoncores.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lanescope {

namespace {

constexpr uint64_t kP1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kP2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kP3 = 0x165667B19E3779F9ull;
constexpr uint64_t kP4 = 0x85EBCA77C2B2AE63ull;

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
inline uint64_t round(uint64_t acc, uint64_t w) { return rotl(acc + w * kP2, 31) * kP1; }
inline uint64_t load64(const char *p)
{
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

} // namespace

// Streaming hash with the structure of XXH64 (four lanes of 8 bytes, so the multiplies overlap).
class ContentFingerprint::Hasher
{
public:
    explicit Hasher(uint64_t seed) : m_v{seed + kP1 + kP2, seed + kP2, seed, seed - kP1} {}

    void update(const char *p, size_t n)
    {
        if (n == 0) // p may be null for an empty input (memcpy's arguments must not be)
            return;
        m_total += n;
        if (m_pending) {
            const size_t take = std::min(n, 32 - m_pending);
            std::memcpy(m_buf + m_pending, p, take);
            m_pending += take;
            p += take;
            n -= take;
            if (m_pending < 32)
                return;
            stripe(m_buf);
            m_pending = 0;
        }
        while (n >= 32) {
            stripe(p);
            p += 32;
            n -= 32;
        }
        std::memcpy(m_buf, p, n);
        m_pending = n;
    }

    uint64_t finish() const
    {
        uint64_t h = rotl(m_v[0], 1) + rotl(m_v[1], 7) + rotl(m_v[2], 12) + rotl(m_v[3], 18);
        for (uint64_t v : m_v)
            h = (h ^ round(0, v)) * kP1 + kP4;
        h += m_total;
        size_t i = 0;
        for (; i + 8 <= m_pending; i += 8)
            h = rotl(h ^ round(0, load64(m_buf + i)), 27) * kP1 + kP4;
        for (; i < m_pending; ++i)
            h = rotl(h ^ (uint8_t(m_buf[i]) * kP3), 11) * kP1;
        h ^= h >> 33;
        h *= kP2;
        h ^= h >> 29;
        h *= kP3;
        return h ^ (h >> 32);
    }

private:
    void stripe(const char *p)
    {
        m_v[0] = round(m_v[0], load64(p));
        m_v[1] = round(m_v[1], load64(p + 8));
        m_v[2] = round(m_v[2], load64(p + 16));
        m_v[3] = round(m_v[3], load64(p + 24));
    }

    uint64_t m_v[4];
    uint64_t m_total = 0;
    char m_buf[32];
    size_t m_pending = 0;
};

uint64_t ContentFingerprint::hashBytes(std::string_view bytes, uint64_t seed)
{
    Hasher h(seed);
    h.update(bytes.data(), bytes.size());
    return h.finish();
}

namespace {

constexpr size_t kChunkBytes = size_t(8) << 20;

// A file is hashed in 8 MB chunks on all cores (pread, no shared offset), and the chunk hashes in
// order are hashed into the file's: a file read at page-cache speed is not held up by one core.
uint64_t hashFile(const std::string &path, uint64_t &bytes)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw std::runtime_error(path + ": cannot open for fingerprinting: " + std::strerror(errno));
    struct stat st{};
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        throw std::runtime_error(path + ": cannot stat for fingerprinting: " + std::strerror(errno));
    }
    const auto size = uint64_t(st.st_size);
    const size_t chunks = size_t((size + kChunkBytes - 1) / kChunkBytes);
    std::vector<uint64_t> hashes(chunks + 1, 0);
    hashes[chunks] = size;
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    auto worker = [&] {
        std::vector<char> buffer(kChunkBytes);
        for (size_t i; !failed && (i = next.fetch_add(1)) < chunks;) {
            const uint64_t offset = uint64_t(i) * kChunkBytes;
            const size_t want = size_t(std::min<uint64_t>(kChunkBytes, size - offset));
            size_t got = 0;
            while (got < want) {
                const ssize_t n = ::pread(fd, buffer.data() + got, want - got, off_t(offset + got));
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0) {
                    failed = true;
                    break;
                }
                got += size_t(n);
            }
            hashes[i] = ContentFingerprint::hashBytes(std::string_view(buffer.data(), got), i);
        }
    };
    runOnCores(chunks, worker);
    ::close(fd);
    if (failed)
        throw std::runtime_error(path + ": read error while fingerprinting (file shrank or is unreadable)");
    bytes += size;
    return ContentFingerprint::hashBytes(
        std::string_view(reinterpret_cast<const char *>(hashes.data()), hashes.size() * sizeof(uint64_t)));
}

} // namespace

namespace {

// Regular files below a folder (sorted by relative path), or the path itself.
std::vector<std::pair<std::string, std::string>> inputFiles(const std::string &path)
{
    namespace fs = std::filesystem;
    std::vector<std::pair<std::string, std::string>> files; // relative, full
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
        files.emplace_back(std::string(), path);
        return files;
    }
    // A superset of what ProfileFolder reads, so a change, a rename, an added or a removed file
    // changes the key.
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
    if (ec)
        throw std::runtime_error(path + ": cannot list folder for fingerprinting: " + ec.message());
    for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
        if (ec)
            throw std::runtime_error(path + ": cannot list folder for fingerprinting: " + ec.message());
        std::error_code fe;
        if (it->is_regular_file(fe))
            files.emplace_back(fs::relative(it->path(), path, fe).generic_string(), it->path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Files given together (a rank set): each by its absolute path, in the order given (the order names
// the trace), so the same files from another folder, or another order, are another input.
std::vector<std::pair<std::string, std::string>> inputFiles(const std::vector<std::string> &paths)
{
    if (paths.size() == 1)
        return inputFiles(paths.front());
    std::vector<std::pair<std::string, std::string>> files;
    for (const std::string &p : paths) {
        std::error_code ec;
        const std::filesystem::path abs = std::filesystem::absolute(p, ec);
        files.emplace_back("set:" + (ec ? p : abs.lexically_normal().string()), p);
    }
    return files;
}

} // namespace

ContentFingerprint::StatSignature ContentFingerprint::statSignature(const std::string &path)
{
    return statSignature(std::vector<std::string>{path});
}

ContentFingerprint ContentFingerprint::ofPath(const std::string &path)
{
    return ofPaths(std::vector<std::string>{path});
}

ContentFingerprint::StatSignature ContentFingerprint::statSignature(const std::vector<std::string> &paths)
{
    StatSignature sig;
    std::string manifest;
    try {
        for (const auto &[rel, full] : inputFiles(paths)) {
            struct stat st{};
            if (::stat(full.c_str(), &st) != 0)
                return {};
            const int64_t mtime = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
            const int64_t ctime = int64_t(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
            const uint64_t fields[] = {uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_size), uint64_t(mtime),
                                       uint64_t(ctime)};
            manifest += rel;
            manifest.push_back('\0');
            manifest.append(reinterpret_cast<const char *>(fields), sizeof fields);
            sig.newestNs = std::max({sig.newestNs, mtime, ctime});
        }
    } catch (const std::exception &) {
        return {};
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hashBytes(manifest, 0x5354415453ull)));
    sig.hex = hex;
    return sig;
}

ContentFingerprint ContentFingerprint::ofPaths(const std::vector<std::string> &paths)
{
    ContentFingerprint fp;
    // The input's hash: per file its relative path, size and content hash, in a fixed order.
    std::string manifest;
    auto add = [&](const std::string &rel, const std::string &full) {
        const uint64_t h = hashFile(full, fp.size);
        manifest += rel;
        manifest.push_back('\0');
        manifest.append(reinterpret_cast<const char *>(&h), sizeof h);
        ++fp.files;
    };
    std::error_code ec;
    const bool folder = paths.size() == 1 && std::filesystem::is_directory(paths.front(), ec);
    for (const auto &[rel, full] : inputFiles(paths))
        add(rel, full);
    if (folder)
        manifest += "folder";
    else if (paths.size() > 1)
        manifest += "rank set";
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(hashBytes(manifest, 0x4c616e6573636f70ull))); // "Lanescop"
    fp.hex = hex;
    return fp;
}

} // namespace lanescope
