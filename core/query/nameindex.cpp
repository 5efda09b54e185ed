#include "nameindex.h"

#include "model/stringpool.h"
#include "store/exportrows.h"

#include <algorithm>

namespace lanescope {

NameIndex::NameIndex(const ExportRows &rows, const StringPool &pool)
{
    const uint64_t n = rows.size();
    m_count.assign(pool.size(), 0);
    m_start.assign(pool.size(), 0);
    for (uint64_t r = 0; r < n; ++r) {
        const StringId id = rows.nameOf(r);
        if (id.isValid() && id.value < m_count.size())
            ++m_count[id.value];
    }
    std::vector<uint32_t> used;
    for (uint32_t id = 0; id < m_count.size(); ++id)
        if (m_count[id])
            used.push_back(id);
    std::sort(used.begin(), used.end(),
              [&pool](uint32_t a, uint32_t b) { return pool.view(StringId(a)) < pool.view(StringId(b)); });
    uint32_t at = 0;
    for (uint32_t id : used) {
        m_start[id] = at;
        at += m_count[id];
    }
    m_rows.resize(at);
    std::vector<uint32_t> fill = m_start;
    for (uint64_t r = 0; r < n; ++r) {
        const StringId id = rows.nameOf(r);
        if (id.isValid() && id.value < m_count.size())
            m_rows[fill[id.value]++] = uint32_t(r);
    }
}

std::span<const uint32_t> NameIndex::rowsNamed(StringId name) const
{
    if (!name.isValid() || name.value >= m_count.size())
        return {};
    return std::span<const uint32_t>(m_rows.data() + m_start[name.value], m_count[name.value]);
}

size_t NameIndex::memoryUsage() const
{
    return (m_rows.capacity() + m_start.capacity() + m_count.capacity()) * sizeof(uint32_t);
}

} // namespace lanescope
