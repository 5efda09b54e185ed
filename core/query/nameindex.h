#pragma once
// The rows of a table grouped by the string-pool id of their name, the groups ordered by the name's
// bytes (SQLite's BINARY collation): `name = 'x'` finds its rows without comparing a string per row,
// and `GROUP BY name` / `ORDER BY name` read the rows already in order, with no sorter. Built once per
// table on first use: 4 bytes per row plus 8 per pool string.
#include "model/ids.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lanescope {

class ExportRows;
class StringPool;

class NameIndex
{
public:
    NameIndex(const ExportRows &rows, const StringPool &pool);

    // Every row, by name then by row.
    std::span<const uint32_t> all() const { return m_rows; }
    // The rows named `name`, ascending; empty for a name no row has.
    std::span<const uint32_t> rowsNamed(StringId name) const;
    size_t memoryUsage() const;

private:
    std::vector<uint32_t> m_rows;
    std::vector<uint32_t> m_start; // per string id: where its rows start in m_rows
    std::vector<uint32_t> m_count; // per string id
};

} // namespace lanescope
