#pragma once
// One statement's result fetched a page at a time (the Query dock's table model asks for the rows it
// shows): only the page asked for is copied out; the rest stays unread in SQLite. Made by
// QueryEngine::open(); must not outlive the engine.
#include "queryerror.h"
#include "util/tablecolumn.h"

#include <cstdint>
#include <string>
#include <vector>

struct sqlite3_stmt;

namespace lanescope {

class QueryEngine;
struct QueryOptions;

class QueryCursor
{
public:
    ~QueryCursor();
    QueryCursor(const QueryCursor &) = delete;
    QueryCursor &operator=(const QueryCursor &) = delete;

    const std::vector<std::string> &columns() const { return m_columns; }
    // Appends up to `max` next rows to `out` (cells: nullptr for NULL); returns how many. Fewer than
    // `max` at the end of the result or on an error (error() then set). `timeoutSeconds` (0: none)
    // limits this call.
    size_t fetch(size_t max, std::vector<std::vector<Cell>> &out, double timeoutSeconds = 0);
    bool atEnd() const { return m_done; }
    const QueryError &error() const { return m_error; }
    uint64_t rowsFetched() const { return m_rows; }

private:
    friend class QueryEngine;
    QueryCursor(QueryEngine &engine, sqlite3_stmt *stmt);

    QueryEngine &m_engine;
    sqlite3_stmt *m_stmt;
    std::vector<std::string> m_columns;
    bool m_done = false;
    uint64_t m_rows = 0;
    QueryError m_error;
};

} // namespace lanescope
