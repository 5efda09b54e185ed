#pragma once
// One row of a query's result as SQLite holds it, read in place (no copy): typed access per column,
// or a Cell (util/tablecolumn.h: NULL is nullptr) to keep. Valid only during the call that hands it out.
#include "util/tablecolumn.h"

#include <cstdint>
#include <string_view>

struct sqlite3_stmt;

namespace lanescope {

class QueryRow
{
public:
    enum class Type { Null, Integer, Real, Text, Blob };

    explicit QueryRow(sqlite3_stmt *stmt) : m_stmt(stmt) {}

    int size() const;
    Type type(int column) const;
    int64_t integer(int column) const;
    double real(int column) const;
    // Text, or a blob's bytes.
    std::string_view text(int column) const;
    // A copy: nullptr for NULL, int64_t, double, std::string (text and blobs).
    Cell cell(int column) const;

private:
    sqlite3_stmt *m_stmt;
};

} // namespace lanescope
