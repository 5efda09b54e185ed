#include "contentfingerprint.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

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

void hashFile(const std::string &path, ContentFingerprint &fp, std::vector<char> &buffer, auto &hasher)
{
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f)
        throw std::runtime_error(path + ": cannot open for fingerprinting: " + std::strerror(errno));
    for (;;) {
        const size_t n = std::fread(buffer.data(), 1, buffer.size(), f.get());
        if (n > 0) {
            hasher.update(buffer.data(), n);
            fp.size += n;
        }
        if (n < buffer.size()) {
            if (std::ferror(f.get()))
                throw std::runtime_error(path + ": read error while fingerprinting");
            break;
        }
    }
    ++fp.files;
}

} // namespace

ContentFingerprint ContentFingerprint::ofPath(const std::string &path)
{
    namespace fs = std::filesystem;
    ContentFingerprint fp;
    Hasher hasher(0x4c616e6573636f70ull); // "Lanescop"
    std::vector<char> buffer(size_t(4) << 20);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        // Every regular file below the folder (what ProfileFolder may read), in a fixed order, each
        // preceded by its relative path and size so a rename or a moved byte changes the hash too.
        std::vector<std::pair<std::string, std::string>> files; // relative, full
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
        for (const auto &[rel, full] : files) {
            std::error_code se;
            const uint64_t size = fs::file_size(full, se);
            const std::string header = rel + '\0' + std::to_string(se ? 0 : size) + '\0';
            hasher.update(header.data(), header.size());
            hashFile(full, fp, buffer, hasher);
        }
    } else {
        hashFile(path, fp, buffer, hasher);
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hasher.finish()));
    fp.hex = hex;
    return fp;
}

} // namespace lanescope
