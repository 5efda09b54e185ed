#include "stringpool.h"

#include <cstring>

namespace lanescope {

StringPool::StringPool()
{
    m_views.emplace_back();
    m_index.emplace(std::string_view(), 0);
}

std::string_view StringPool::store(std::string_view s)
{
    if (s.size() > kBlockSize / 4) {
        auto block = std::make_unique<char[]>(s.size());
        std::memcpy(block.get(), s.data(), s.size());
        std::string_view v(block.get(), s.size());
        // Keep the current block as the open one: insert the big block before it.
        m_blocks.insert(m_blocks.empty() ? m_blocks.end() : m_blocks.end() - 1, std::move(block));
        m_bytes += s.size();
        return v;
    }
    if (m_blockUsed + s.size() > kBlockSize) {
        m_blocks.push_back(std::make_unique<char[]>(kBlockSize));
        m_blockUsed = 0;
        m_bytes += kBlockSize;
    }
    char *dst = m_blocks.back().get() + m_blockUsed;
    std::memcpy(dst, s.data(), s.size());
    m_blockUsed += s.size();
    return {dst, s.size()};
}

StringId StringPool::intern(std::string_view s)
{
    auto it = m_index.find(s);
    if (it != m_index.end())
        return StringId(it->second);
    std::string_view stored = store(s);
    const auto id = static_cast<uint32_t>(m_views.size());
    m_views.push_back(stored);
    m_index.emplace(stored, id);
    return StringId(id);
}

StringId StringPool::find(std::string_view s) const
{
    auto it = m_index.find(s);
    return it == m_index.end() ? StringId() : StringId(it->second);
}

size_t StringPool::memoryUsage() const
{
    return m_bytes + m_views.capacity() * sizeof(std::string_view)
        + m_index.size() * (sizeof(std::string_view) + sizeof(uint32_t) + 2 * sizeof(void *));
}

} // namespace lanescope
