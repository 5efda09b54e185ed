#pragma once
// One string pool per trace (Perfetto's StringPool): strings are interned during import and
// read-only afterwards. StringId 0 is always the empty string.
#include "ids.h"

#include <memory>
#include <string_view>
#include <unordered_map>
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

    StringId intern(std::string_view s);
    // Returns an invalid id when the string was never interned.
    StringId find(std::string_view s) const;
    std::string_view view(StringId id) const { return id.isValid() && id.value < m_views.size() ? m_views[id.value] : std::string_view(); }
    size_t size() const { return m_views.size(); }
    size_t memoryUsage() const;

private:
    std::string_view store(std::string_view s);

    static constexpr size_t kBlockSize = 1 << 20;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    size_t m_blockUsed = kBlockSize;
    size_t m_bytes = 0;
    std::vector<std::string_view> m_views;
    std::unordered_map<std::string_view, uint32_t> m_index;
};

} // namespace lanescope
