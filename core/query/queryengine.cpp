#include "queryengine.h"

#include "querycursor.h"
#include "querytables.h"
#include "tablemodule.h"

#include "model/trace.h"

#include <sqlite3.h>

#include <cstdio>
#include <cstring>

namespace lanescope {

namespace {

// Pragmas that only read (the schema, what SQLite offers); every other pragma is refused.
const char *const kReadOnlyPragmas[] = {"table_info",     "table_xinfo",     "table_list",   "index_list",
                                        "index_info",     "index_xinfo",     "function_list", "module_list",
                                        "pragma_list",    "collation_list",  "compile_options", "database_list"};

bool readOnlyPragma(const char *name)
{
    for (const char *a : kReadOnlyPragmas)
        if (name && sqlite3_stricmp(name, a) == 0)
            return true;
    return false;
}

constexpr const char *kReadOnlyWhy = " (the tables are the loaded trace; queries read it and cannot change it)";

std::string named(const char *what, const char *name) { return name ? std::string(what) + " " + name : std::string(what); }

} // namespace

QueryEngine::QueryEngine(std::shared_ptr<const Trace> trace, std::vector<Annotation> notes)
    : m_tables(std::make_unique<QueryTables>(std::move(trace), std::move(notes)))
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        m_setupError = std::string("cannot open an SQLite connection: ") + (db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close_v2(db);
        return;
    }
    if (!tablemodule::registerAll(db, *m_tables, &m_declaring, &m_setupError)) {
        sqlite3_close_v2(db);
        return;
    }
    // Nothing may change, attach a file or load code: the authorizer refuses it with a clear message;
    // defensive mode and no ATTACH are a second line.
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    // The table-valued pragmas (pragma_table_info('slices')) declare their columns with a CREATE TABLE
    // when first named, which the authorizer would refuse: they are connected now, before it is set.
    for (const char *p : kReadOnlyPragmas) {
        sqlite3_stmt *stmt = nullptr;
        sqlite3_prepare_v2(db, (std::string("SELECT * FROM pragma_") + p).c_str(), -1, &stmt, nullptr);
        sqlite3_finalize(stmt);
    }
    sqlite3_set_authorizer(db, &QueryEngine::onAuthorize, this);
    sqlite3_progress_handler(db, 1000, &QueryEngine::onProgress, this);
    m_db = db;
}

QueryEngine::~QueryEngine()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

const std::vector<std::string> &QueryEngine::tables() { return ExportRows::tableNames(); }

size_t QueryEngine::memoryUsage() const { return m_tables->memoryUsage(); }

void QueryEngine::position(std::string_view sql, int offset, int &line, int &column)
{
    line = 1;
    column = 1;
    for (int i = 0; i < offset && size_t(i) < sql.size(); ++i) {
        if (sql[size_t(i)] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
}

void QueryEngine::startClock(double timeoutSeconds)
{
    m_timedOut = false;
    m_timeoutSeconds = timeoutSeconds;
    if (timeoutSeconds > 0)
        m_deadline = std::chrono::steady_clock::now()
            + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(timeoutSeconds));
}

int QueryEngine::onProgress(void *self)
{
    auto *e = static_cast<QueryEngine *>(self);
    if (e->m_cancel.load(std::memory_order_relaxed))
        return 1;
    if (e->m_timeoutSeconds > 0 && std::chrono::steady_clock::now() >= e->m_deadline) {
        e->m_timedOut = true;
        return 1;
    }
    return 0;
}

int QueryEngine::onAuthorize(void *self, int action, const char *a, const char *b, const char *, const char *)
{
    auto *e = static_cast<QueryEngine *>(self);
    if (e->m_declaring) // a virtual table declaring its columns (tablemodule.cpp), not the user's SQL
        return SQLITE_OK;
    auto deny = [e](std::string what) {
        e->m_denied = std::move(what);
        return SQLITE_DENY;
    };
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
        return SQLITE_OK;
    case SQLITE_PRAGMA:
        return readOnlyPragma(a) ? SQLITE_OK : deny(named("PRAGMA", a));
    case SQLITE_INSERT:
        // CREATE ... first asks to insert into the schema table
        if (a && (sqlite3_strnicmp(a, "sqlite_", 7) == 0))
            return deny("creating tables, views, indexes or triggers");
        return deny(named("INSERT into", a));
    case SQLITE_UPDATE: return deny(named("UPDATE of", a));
    case SQLITE_DELETE: return deny(named("DELETE from", a));
    case SQLITE_ATTACH: return deny("ATTACH");
    case SQLITE_DETACH: return deny("DETACH");
    case SQLITE_ALTER_TABLE: return deny(named("ALTER TABLE", b));
    case SQLITE_CREATE_INDEX:
    case SQLITE_CREATE_TEMP_INDEX: return deny(named("CREATE INDEX", a));
    case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_TEMP_TABLE: return deny(named("CREATE TABLE", a));
    case SQLITE_CREATE_VIEW:
    case SQLITE_CREATE_TEMP_VIEW: return deny(named("CREATE VIEW", a));
    case SQLITE_CREATE_TRIGGER:
    case SQLITE_CREATE_TEMP_TRIGGER: return deny(named("CREATE TRIGGER", a));
    case SQLITE_CREATE_VTABLE: return deny(named("CREATE VIRTUAL TABLE", a));
    case SQLITE_DROP_INDEX:
    case SQLITE_DROP_TEMP_INDEX:
    case SQLITE_DROP_TABLE:
    case SQLITE_DROP_TEMP_TABLE:
    case SQLITE_DROP_VIEW:
    case SQLITE_DROP_TEMP_VIEW:
    case SQLITE_DROP_TRIGGER:
    case SQLITE_DROP_TEMP_TRIGGER:
    case SQLITE_DROP_VTABLE: return deny(named("DROP", a));
    case SQLITE_REINDEX: return deny("REINDEX");
    case SQLITE_ANALYZE: return deny("ANALYZE");
    default: break;
    }
    return deny("this statement");
}

bool QueryEngine::prepare(std::string_view sql, size_t &at, sqlite3_stmt **stmt, QueryError *error)
{
    *stmt = nullptr;
    while (at < sql.size()) {
        const char *base = sql.data() + at;
        const char *tail = nullptr;
        m_denied.clear();
        const int rc = sqlite3_prepare_v3(m_db, base, int(sql.size() - at), 0, stmt, &tail);
        if (rc != SQLITE_OK) {
            QueryError e;
            const int offset = sqlite3_error_offset(m_db);
            const std::string why = sqlite3_errmsg(m_db);
            if (rc == SQLITE_AUTH && !m_denied.empty()) {
                e.kind = QueryError::Kind::ReadOnly;
                e.message = "read-only: " + m_denied + " is not allowed" + kReadOnlyWhy;
            } else if (why.find("may not be modified") != std::string::npos || why.find("may not be indexed") != std::string::npos) {
                // UPDATE, DELETE or CREATE INDEX on a virtual table: SQLite refuses before asking
                e.kind = QueryError::Kind::ReadOnly;
                e.message = "read-only: " + why + kReadOnlyWhy;
            } else {
                e.kind = QueryError::Kind::Sql;
                e.message = why;
            }
            if (offset >= 0) {
                e.offset = int(at) + offset;
                position(sql, e.offset, e.line, e.column);
                e.message += " at line " + std::to_string(e.line) + ", column " + std::to_string(e.column);
            }
            sqlite3_finalize(*stmt);
            *stmt = nullptr;
            if (error)
                *error = e;
            return false;
        }
        const size_t next = tail ? size_t(tail - sql.data()) : sql.size();
        if (*stmt && !sqlite3_stmt_readonly(*stmt)) { // a last line of defence: nothing that writes runs
            sqlite3_finalize(*stmt);
            *stmt = nullptr;
            if (error) {
                *error = QueryError{QueryError::Kind::ReadOnly, std::string("read-only: a statement that writes is not allowed") + kReadOnlyWhy,
                                    int(at), 0, 0};
                position(sql, int(at), error->line, error->column);
            }
            return false;
        }
        // Preparing connects the tables a statement names, and a derived table is computed whole then
        // (the analyses take no cancel): a cancel or time limit that came meanwhile stops it here.
        if (*stmt && onProgress(this)) {
            sqlite3_finalize(*stmt);
            *stmt = nullptr;
            if (error)
                *error = interruptedError();
            return false;
        }
        if (*stmt) {
            at = next;
            return true;
        }
        if (next <= at) // only whitespace or comments were left
            break;
        at = next;
    }
    at = sql.size();
    return true;
}

QueryError QueryEngine::interruptedError() const
{
    QueryError e;
    if (m_timedOut) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", m_timeoutSeconds);
        e.kind = QueryError::Kind::TimedOut;
        e.message = std::string("query cancelled after ") + seconds + " s";
    } else {
        e.kind = QueryError::Kind::Cancelled;
        e.message = "query cancelled";
    }
    return e;
}

QueryError QueryEngine::stepError() const
{
    if (sqlite3_errcode(m_db) == SQLITE_INTERRUPT)
        return interruptedError();
    QueryError e;
    e.kind = QueryError::Kind::Runtime;
    e.message = sqlite3_errmsg(m_db);
    return e;
}

bool QueryEngine::run(std::string_view sql, QueryResultSink &sink, const QueryOptions &options, QueryError *error,
                      QueryStats *stats)
{
    const auto t0 = std::chrono::steady_clock::now();
    QueryStats st;
    QueryError err;
    if (!m_db) {
        err.kind = QueryError::Kind::Runtime;
        err.message = m_setupError;
    }
    m_cancel.store(false, std::memory_order_relaxed);
    startClock(options.timeoutSeconds);
    size_t at = 0;
    bool stop = !m_db;
    while (!stop) {
        sqlite3_stmt *stmt = nullptr;
        if (!prepare(sql, at, &stmt, &err) || !stmt)
            break;
        ++st.statements;
        std::vector<std::string> columns;
        for (int i = 0, n = sqlite3_column_count(stmt); i < n; ++i)
            columns.emplace_back(sqlite3_column_name(stmt, i));
        stop = !sink.begin(columns);
        const QueryRow row(stmt);
        while (!stop) {
            const int rc = sqlite3_step(stmt);
            if (rc == SQLITE_DONE)
                break;
            if (rc != SQLITE_ROW) {
                err = stepError();
                stop = true;
                break;
            }
            if (options.maxRows && st.rows >= options.maxRows) {
                st.truncated = true;
                stop = true;
                break;
            }
            ++st.rows;
            if (!sink.row(row)) {
                st.truncated = true;
                stop = true;
            }
        }
        sink.end();
        sqlite3_finalize(stmt);
    }
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (stats)
        *stats = st;
    if (error)
        *error = err;
    return !err;
}

std::unique_ptr<QueryCursor> QueryEngine::open(std::string_view sql, QueryError *error)
{
    if (!m_db) {
        if (error)
            *error = QueryError{QueryError::Kind::Runtime, m_setupError, -1, 0, 0};
        return nullptr;
    }
    m_cancel.store(false, std::memory_order_relaxed);
    startClock(0); // no time limit while preparing (each fetch sets its own); an earlier run's is over
    size_t at = 0;
    sqlite3_stmt *stmt = nullptr;
    if (!prepare(sql, at, &stmt, error))
        return nullptr;
    if (!stmt) {
        if (error)
            *error = QueryError{QueryError::Kind::Sql, "no statement to run", -1, 0, 0};
        return nullptr;
    }
    const size_t first = at;
    sqlite3_stmt *more = nullptr;
    QueryError second;
    const bool secondPrepared = prepare(sql, at, &more, &second);
    if (!secondPrepared || more) {
        sqlite3_finalize(more);
        sqlite3_finalize(stmt);
        if (error && !secondPrepared) {
            *error = second;
        } else if (error) {
            *error = QueryError{QueryError::Kind::Sql, "more than one statement: a cursor runs one at a time", int(first), 0, 0};
            position(sql, int(first), error->line, error->column);
        }
        return nullptr;
    }
    return std::unique_ptr<QueryCursor>(new QueryCursor(*this, stmt));
}

} // namespace lanescope
