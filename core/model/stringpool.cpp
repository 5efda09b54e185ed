#include "stringpool.h"

#include <algorithm>
#include <cstring>

namespace lanescope {

namespace {

inline size_t cacheIndex(std::string_view s)
{
    uint64_t a = 0, b = 0;
    if (s.size() >= 8) {
        std::memcpy(&a, s.data(), 8);
        std::memcpy(&b, s.data() + s.size() - 8, 8);
    } else if (!s.empty()) {
        std::memcpy(&a, s.data(), s.size());
    }
    uint64_t h = (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full) ^ (s.size() * 0x165667b19e3779f9ull);
    return size_t(h >> 52); // 12 bits
}

} // namespace

StringPool::StringPool() : m_cache(new uint32_t[kCacheSize]())
{
    m_slots.assign(1024, 0);
    m_views.emplace_back();
    m_hashes.push_back(uint32_t(hash({})));
    m_slots[slotFor({}, m_hashes[0])] = 1;
}

uint64_t StringPool::hash(std::string_view s)
{
    // 8 bytes at a time with a multiply-xorshift mix; fine for interning (not for adversaries:
    // a collision only costs a comparison).
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (s.size() * 0xff51afd7ed558ccdull);
    const char *p = s.data();
    size_t n = s.size();
    while (n >= 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
        p += 8;
        n -= 8;
    }
    if (n) {
        uint64_t w = 0;
        std::memcpy(&w, p, n);
        h = (h ^ w) * 0x94d049bb133111ebull;
        h ^= h >> 29;
    }
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 32);
}

size_t StringPool::slotFor(std::string_view s, uint32_t h) const
{
    const size_t mask = m_slots.size() - 1;
    size_t i = h & mask;
    for (;;) {
        const uint32_t v = m_slots[i];
        if (v == 0)
            return i;
        const uint32_t id = v - 1;
        if (m_hashes[id] == h && m_views[id] == s)
            return i;
        i = (i + 1) & mask;
    }
}

void StringPool::grow()
{
    std::vector<uint32_t> fresh(m_slots.size() * 2, 0);
    const size_t mask = fresh.size() - 1;
    for (uint32_t id = 0; id < m_views.size(); ++id) {
        size_t i = m_hashes[id] & mask;
        while (fresh[i])
            i = (i + 1) & mask;
        fresh[i] = id + 1;
    }
    m_slots = std::move(fresh);
}

std::string_view StringPool::store(std::string_view s)
{
    if (s.size() > kBlockSize / 4) {
        auto block = std::make_unique_for_overwrite<char[]>(s.size());
        std::memcpy(block.get(), s.data(), s.size());
        std::string_view v(block.get(), s.size());
        // Keep the current block as the open one: insert the big block before it.
        m_blocks.insert(m_blocks.empty() ? m_blocks.end() : m_blocks.end() - 1, std::move(block));
        m_bytes += s.size();
        return v;
    }
    if (m_blockSize == 0 || m_blockUsed + s.size() > m_blockSize) {
        size_t size = std::clamp<size_t>(m_blockSize * 2, kFirstBlockSize, kBlockSize);
        while (size < s.size())
            size *= 2; // s is at most kBlockSize / 4 here
        m_blocks.push_back(std::make_unique_for_overwrite<char[]>(size));
        m_blockSize = size;
        m_blockUsed = 0;
        m_bytes += size;
    }
    char *dst = m_blocks.back().get() + m_blockUsed;
    if (!s.empty())
        std::memcpy(dst, s.data(), s.size());
    m_blockUsed += s.size();
    return {dst, s.size()};
}

void StringPool::clear()
{
    // Keeps the open block (the last and largest); the others go, and so does a lone block of one
    // large string (m_blockSize 0: no block is open).
    if (m_blockSize == 0) {
        m_blocks.clear();
    } else if (m_blocks.size() > 1) {
        std::unique_ptr<char[]> last = std::move(m_blocks.back());
        m_blocks.clear();
        m_blocks.push_back(std::move(last));
    }
    m_bytes = m_blocks.empty() ? 0 : m_blockSize;
    m_blockUsed = 0;
    m_views.resize(1);
    m_hashes.resize(1);
    std::fill(m_slots.begin(), m_slots.end(), 0);
    m_slots[slotFor({}, m_hashes[0])] = 1;
    std::fill(m_cache.get(), m_cache.get() + kCacheSize, 0);
}

StringId StringPool::intern(std::string_view s)
{
    static_assert(kCacheSize == 4096, "cacheIndex yields 12 bits");
    uint32_t &cached = m_cache[cacheIndex(s)];
    if (cached) {
        const std::string_view c = m_views[cached - 1];
        if (c.size() == s.size() && (s.empty() || std::memcmp(c.data(), s.data(), s.size()) == 0))
            return StringId(cached - 1);
    }
    const auto h = uint32_t(hash(s));
    size_t slot = slotFor(s, h);
    if (m_slots[slot]) {
        cached = m_slots[slot];
        return StringId(m_slots[slot] - 1);
    }
    const auto id = static_cast<uint32_t>(m_views.size());
    m_views.push_back(store(s));
    m_hashes.push_back(h);
    m_slots[slot] = id + 1;
    cached = id + 1;
    if (m_views.size() * 2 > m_slots.size())
        grow();
    return StringId(id);
}

StringId StringPool::find(std::string_view s) const
{
    const size_t slot = slotFor(s, uint32_t(hash(s)));
    return m_slots[slot] ? StringId(m_slots[slot] - 1) : StringId();
}

size_t StringPool::memoryUsage() const
{
    return m_bytes + m_views.capacity() * sizeof(std::string_view) + m_hashes.capacity() * 4 + m_slots.capacity() * 4;
}

} // namespace lanescope
