#pragma once
// The Query dock's SQL, run off the GUI thread (issue 48): owns one QueryEngine for the current trace,
// created by the first query on the job's worker thread (its name indexes and derived tables are built
// on first use there too), and runs one statement at a time through it. A result is paged: start()
// opens a cursor and delivers the columns and the first page; fetchMore() asks for the next page; rows
// already handed out are the receiver's, the rest stay unread in SQLite, so a result of millions of
// rows is never held whole. Streaming runs (exportCsv: the whole result to a CSV file, buildLane: a
// result as a timeline lane, core/session/querylane.h) go through QueryEngine::run() on the same thread;
// a cursor they interrupt is reopened at the row it was at by the next fetchMore().
//
// Everything is queued on one worker thread, so the engine is only ever used from one thread at a time.
// cancel() (QueryEngine::cancel) stops whatever is running and drops what was queued. Results arrive on
// the GUI thread; those of a request replaced by a newer start() or setTrace() are dropped.
#include "querylane.h"

#include "annotations/annotation.h"
#include "query/queryerror.h"
#include "util/tablecolumn.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace lanescope {

class Trace;

// One page of a result: the columns (every page carries them) and rows of cells (NULL: nullptr).
struct QueryPage
{
    std::vector<std::string> columns;
    std::vector<std::vector<Cell>> rows;
};

class QueryJob : public QObject
{
    Q_OBJECT
public:
    static constexpr size_t kPageRows = 500;

    explicit QueryJob(QObject *parent = nullptr);
    // Cancels what runs and waits for the worker to let go.
    ~QueryJob() override;

    // The trace queries run on (null: none) and its notes (the `notes` table). Drops the engine of the
    // previous trace and whatever was running on it.
    void setTrace(std::shared_ptr<const Trace> trace, std::vector<Annotation> notes = {});
    const std::shared_ptr<const Trace> &trace() const { return m_trace; }

    // Runs `sql` (one statement): started(), then page() with the first `pageRows` rows and finished().
    // Replaces the query in flight. Returns the request id (0 without a trace).
    uint64_t start(const QString &sql, size_t pageRows = kPageRows);
    // The next page of the current result: page() and finished() again. False when there is none to
    // fetch (no result, at its end, or a page already on its way).
    bool fetchMore(size_t pageRows = kPageRows);
    // Stops the running query (its finished() says "query cancelled"), drops queued requests.
    void cancel();

    bool isRunning() const { return m_pending > 0; }
    bool atEnd() const { return m_atEnd; }
    uint64_t rowsFetched() const { return m_rows; }
    const QString &sql() const { return m_sql; }

    // Writes the whole result of `sql` to `path` as CSV (the CLI's --format csv: RFC 4180, NULL empty),
    // streamed: exported() follows. Returns the request id.
    uint64_t exportCsv(const QString &sql, const QString &path);
    // Builds a lane from the whole result of `sql` (every row, up to QueryLaneBuilder::kMaxItems):
    // laneReady() follows. Returns the request id.
    uint64_t buildLane(const QString &sql, const QString &title);

signals:
    // Something is queued or running (true), or the worker went idle (false).
    void busyChanged(bool busy);
    void started(quint64 id);
    // Rows of the current result, in order; `first`: the first page (a new result: columns set).
    void page(quint64 id, std::shared_ptr<const lanescope::QueryPage> page, bool first);
    // After every page: rows fetched so far, seconds of this step, whether the result is complete, and
    // the error (kind None when fine; its line and column when SQLite gave a position).
    void finished(quint64 id, quint64 rows, double seconds, bool atEnd, const lanescope::QueryError &error);
    void exported(quint64 id, bool ok, const QString &path, quint64 rows, const QString &message);
    // ok: `lane` is set; else `message` says why (no ts column, an SQL error, cancelled).
    void laneReady(quint64 id, std::shared_ptr<const lanescope::QueryLane> lane, const QString &message);

private:
    struct Shared; // the engine and the open cursor, owned jointly with the worker's tasks

    void post(std::function<void(Shared &)> work);
    // From the worker: hands a page of query `id` to the GUI thread (page(), then finished()), unless
    // another query replaced it.
    void deliver(uint64_t id, std::shared_ptr<QueryPage> page, bool first, double seconds, bool atEnd, QueryError err);

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<Shared> m_shared;
    QThreadPool m_pool; // one thread: requests run in order, one at a time
    QString m_sql;
    uint64_t m_nextId = 0;
    uint64_t m_current = 0; // the request whose pages are shown
    int m_pending = 0;      // requests queued or running
    bool m_fetching = false;
    bool m_atEnd = true;
    uint64_t m_rows = 0;
};

} // namespace lanescope
