#include "querycursor.h"

#include "queryengine.h"
#include "queryrow.h"

#include <sqlite3.h>

namespace lanescope {

QueryCursor::QueryCursor(QueryEngine &engine, sqlite3_stmt *stmt) : m_engine(engine), m_stmt(stmt)
{
    for (int i = 0, n = sqlite3_column_count(stmt); i < n; ++i)
        m_columns.emplace_back(sqlite3_column_name(stmt, i));
}

QueryCursor::~QueryCursor() { sqlite3_finalize(m_stmt); }

size_t QueryCursor::fetch(size_t max, std::vector<std::vector<Cell>> &out, double timeoutSeconds)
{
    size_t got = 0;
    if (m_done)
        return 0;
    m_engine.startClock(timeoutSeconds);
    const QueryRow row(m_stmt);
    while (got < max) {
        const int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_DONE) {
            m_done = true;
            break;
        }
        if (rc != SQLITE_ROW) {
            m_error = m_engine.stepError();
            m_done = true;
            break;
        }
        std::vector<Cell> cells;
        cells.reserve(m_columns.size());
        for (int i = 0; i < int(m_columns.size()); ++i)
            cells.push_back(row.cell(i));
        out.push_back(std::move(cells));
        ++got;
        ++m_rows;
    }
    return got;
}

} // namespace lanescope
