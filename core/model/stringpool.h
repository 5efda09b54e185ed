#pragma once
// One string pool per trace (Perfetto's StringPool): strings are interned during import and
// read-only afterwards. StringId 0 is always the empty string. Open addressing with stored hashes:
// interning is on the import hot path (every event name, category and arg key).
#include "ids.h"

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace lanescope {

class StringPool
{
public:
    StringPool();
    StringPool(const StringPool &) = delete;
    StringPool &operator=(const StringPool &) = delete;
    StringPool(StringPool &&) noexcept = default;
    StringPool &operator=(StringPool &&) noexcept = default;

    // Empty again (only the empty string), keeping the table, the cache and the first text block:
    // a pool per JSON window is reused for the next window instead of allocated anew.
    void clear();

    StringId intern(std::string_view s);
    // Returns an invalid id when the string was never interned.
    StringId find(std::string_view s) const;
    std::string_view view(StringId id) const { return id.isValid() && id.value < m_views.size() ? m_views[id.value] : std::string_view(); }
    size_t size() const { return m_views.size(); }
    size_t memoryUsage() const;

    static uint64_t hash(std::string_view s);

private:
    std::string_view store(std::string_view s);
    void grow();
    size_t slotFor(std::string_view s, uint32_t h) const; // slot holding s, or the empty slot where it goes

    // Blocks start small and double up to kBlockSize, so a small trace (or a fuzz input) does not pay
    // for a megabyte; they are not zero-filled (every byte handed out is written first).
    static constexpr size_t kFirstBlockSize = 4096;
    static constexpr size_t kBlockSize = 1 << 20;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    size_t m_blockSize = 0; // size of the open block (the last one)
    size_t m_blockUsed = 0;
    size_t m_bytes = 0;
    std::vector<std::string_view> m_views;
    std::vector<uint32_t> m_hashes; // per id
    std::vector<uint32_t> m_slots;  // id + 1, 0 = empty; size is a power of two
    // Direct-mapped cache in front of the table, indexed by length and the first and last 8 bytes:
    // repeated names (the common case in traces) skip hashing the whole string.
    static constexpr size_t kCacheSize = 4096;
    std::unique_ptr<uint32_t[]> m_cache; // id + 1, 0 = empty
};

} // namespace lanescope
