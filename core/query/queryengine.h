#pragma once
// SQL over a loaded trace without copying it: an in-memory SQLite connection whose tables are the
// SQLite export's (docs/sqlite-schema.md: same names, columns, units and values, from the same row
// sources, store/exportrows.h) as read-only virtual tables over the model (tablemodule.h says which
// constraints find rows without a scan). A query written against an exported file runs unchanged.
//
// Results are delivered row by row (run() with a QueryResultSink, or a QueryCursor fetched a page at a
// time), so a result of millions of rows is never held whole. A query stops when cancel() is called
// (from any thread) or its time limit passes. The exception: a derived table (ops, kernels, ...) is
// computed whole when a statement first names it (the analyses take no cancel), which can take seconds
// on a large trace; a cancel or time limit that comes meanwhile stops the statement right after it
// (the table is kept for the next query). Writes of any kind are refused before they run
// ("read-only: ..."). One engine runs one query at a time; use it from one thread at a time (cancel()
// excepted). The CLI's `query` command and the GUI's Query dock both run queries through this class.
#include "queryerror.h"
#include "queryrow.h"

#include "annotations/annotation.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace lanescope {

class Trace;
class QueryTables;
class QueryCursor;

struct QueryOptions
{
    double timeoutSeconds = 0; // 0: no limit; past it the query stops with "query cancelled after N s"
    uint64_t maxRows = 0;      // 0: every row; else run() stops after this many rows (QueryStats::truncated)
};

struct QueryStats
{
    uint64_t rows = 0;       // rows delivered, all statements together
    int statements = 0;      // statements run
    double seconds = 0;      // wall time of run()
    bool truncated = false;  // stopped at QueryOptions::maxRows, or by the sink
};

// Receives a run()'s results: for every statement its column names, then its rows one at a time.
class QueryResultSink
{
public:
    virtual ~QueryResultSink() = default;
    // A statement's result begins (also for one that returns no rows). False stops the run.
    virtual bool begin(const std::vector<std::string> &columns) = 0;
    // One row, valid during the call. False stops the run (not an error).
    virtual bool row(const QueryRow &row) = 0;
    // The statement's result is complete (or was stopped).
    virtual void end() {}
};

class QueryEngine
{
public:
    // `notes` are the trace's notes, resolved against it (the `notes` table), as the exporters take them.
    explicit QueryEngine(std::shared_ptr<const Trace> trace, std::vector<Annotation> notes = {});
    ~QueryEngine();
    QueryEngine(const QueryEngine &) = delete;
    QueryEngine &operator=(const QueryEngine &) = delete;

    // False when the connection could not be set up (error() says why); nothing else works then.
    bool ok() const { return m_db != nullptr; }
    const std::string &error() const { return m_setupError; }

    // The queryable tables: the export's, in its order (ExportRows::tableNames()).
    static const std::vector<std::string> &tables();

    // Runs every statement of `sql` in order, each result to `sink`. False with `error` set on an SQL
    // error (with its position), a refused write, cancel() or the time limit; rows delivered before
    // stay delivered.
    bool run(std::string_view sql, QueryResultSink &sink, const QueryOptions &options = {}, QueryError *error = nullptr,
             QueryStats *stats = nullptr);

    // One statement, to be fetched a page at a time (QueryCursor::fetch). Null with `error` set when it
    // does not prepare (or `sql` holds more than one statement). The cursor must not outlive the engine;
    // the engine runs nothing else while it is open.
    std::unique_ptr<QueryCursor> open(std::string_view sql, QueryError *error = nullptr);

    // From any thread: the running query (or the next fetch) stops with "query cancelled".
    void cancel() { m_cancel.store(true, std::memory_order_relaxed); }

    // Bytes the engine holds beyond the trace (name indexes, derived tables' cells are not counted).
    size_t memoryUsage() const;

    // Line and column (1-based) of byte `offset` of `sql`, for an error's position.
    static void position(std::string_view sql, int offset, int &line, int &column);

private:
    friend class QueryCursor;

    // Prepares the next statement of `sql` from `at`; false with `error` set.
    bool prepare(std::string_view sql, size_t &at, sqlite3_stmt **stmt, QueryError *error);
    // The error of a failed step (cancel, time limit, runtime error).
    QueryError stepError() const;
    // "query cancelled" or, past the time limit, "query cancelled after N s".
    QueryError interruptedError() const;
    void startClock(double timeoutSeconds);
    static int onProgress(void *self);
    static int onAuthorize(void *self, int action, const char *a, const char *b, const char *db, const char *trigger);

    std::unique_ptr<QueryTables> m_tables;
    sqlite3 *m_db = nullptr;
    std::string m_setupError;
    std::atomic<bool> m_cancel{false};
    bool m_timedOut = false;
    double m_timeoutSeconds = 0;
    std::chrono::steady_clock::time_point m_deadline{};
    std::string m_denied; // what the authorizer refused, for the read-only message
    bool m_declaring = false; // a virtual table is declaring its columns
};

} // namespace lanescope
