#include "queryrow.h"

#include <sqlite3.h>

#include <string>

namespace lanescope {

int QueryRow::size() const { return sqlite3_data_count(m_stmt); }

QueryRow::Type QueryRow::type(int column) const
{
    switch (sqlite3_column_type(m_stmt, column)) {
    case SQLITE_INTEGER: return Type::Integer;
    case SQLITE_FLOAT: return Type::Real;
    case SQLITE_TEXT: return Type::Text;
    case SQLITE_BLOB: return Type::Blob;
    default: break;
    }
    return Type::Null;
}

int64_t QueryRow::integer(int column) const { return sqlite3_column_int64(m_stmt, column); }
double QueryRow::real(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string_view QueryRow::text(int column) const
{
    const void *p = sqlite3_column_type(m_stmt, column) == SQLITE_BLOB ? sqlite3_column_blob(m_stmt, column)
                                                                       : static_cast<const void *>(sqlite3_column_text(m_stmt, column));
    const int n = sqlite3_column_bytes(m_stmt, column);
    return p ? std::string_view(static_cast<const char *>(p), size_t(n)) : std::string_view();
}

Cell QueryRow::cell(int column) const
{
    switch (type(column)) {
    case Type::Integer: return integer(column);
    case Type::Real: return real(column);
    case Type::Text:
    case Type::Blob: return std::string(text(column));
    case Type::Null: break;
    }
    return nullptr;
}

} // namespace lanescope
