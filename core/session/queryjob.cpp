#include "queryjob.h"

#include "query/querycursor.h"
#include "query/queryengine.h"
#include "query/queryoutput.h"

#include "model/trace.h"

#include <QElapsedTimer>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace lanescope {

struct QueryJob::Shared
{
    std::shared_ptr<const Trace> trace;
    std::vector<Annotation> notes;
    std::atomic<uint64_t> cancelledBelow{0}; // requests with a smaller id are dropped unrun
    std::atomic<bool> pageRunning{false};    // the worker runs a start() or fetchMore() request

    // Worker thread only, except `engine` read under `mutex` by cancel().
    std::mutex mutex;
    std::unique_ptr<QueryEngine> engine;
    std::unique_ptr<QueryCursor> cursor;
    uint64_t cursorId = 0;     // the start() request the cursor (open or to reopen) belongs to
    std::string cursorSql;
    uint64_t cursorRows = 0;   // rows handed out from it
    bool cursorDone = true;    // the result is complete (or failed): nothing to reopen

    QueryEngine &theEngine()
    {
        if (!engine) {
            auto e = std::make_unique<QueryEngine>(trace, notes);
            const std::lock_guard<std::mutex> lock(mutex);
            engine = std::move(e);
        }
        return *engine;
    }
    void cancelEngine()
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (engine)
            engine->cancel();
    }
    bool dropped(uint64_t id) const { return id < cancelledBelow.load(); }
    // A streaming run needs the engine to itself: the open cursor is closed, to be reopened later.
    void closeCursor() { cursor.reset(); }
};

namespace {

QueryError setupError(const QueryEngine &e)
{
    QueryError err;
    err.kind = QueryError::Kind::Runtime;
    err.message = e.error();
    return err;
}

QueryError cancelledError()
{
    QueryError err;
    err.kind = QueryError::Kind::Cancelled;
    err.message = "query cancelled";
    return err;
}

// Builds a lane from run()'s rows, copying one row's cells at a time.
class LaneSink : public QueryResultSink
{
public:
    bool begin(const std::vector<std::string> &columns) override
    {
        if (m_begun) // a lane is one statement's result
            return false;
        m_begun = true;
        m_ok = builder.begin(columns, &error);
        return m_ok;
    }
    bool row(const QueryRow &row) override
    {
        m_cells.clear();
        for (int i = 0; i < row.size(); ++i)
            m_cells.push_back(row.cell(i));
        return builder.add(m_cells);
    }
    bool ok() const { return m_begun && m_ok; }

    QueryLaneBuilder builder;
    std::string error;

private:
    std::vector<Cell> m_cells;
    bool m_begun = false;
    bool m_ok = false;
};

} // namespace

QueryJob::QueryJob(QObject *parent) : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
}

QueryJob::~QueryJob()
{
    cancel();
    m_pool.waitForDone();
}

void QueryJob::setTrace(std::shared_ptr<const Trace> trace, std::vector<Annotation> notes)
{
    cancel();
    m_trace = trace;
    m_shared.reset();
    if (trace) {
        m_shared = std::make_shared<Shared>();
        m_shared->trace = std::move(trace);
        m_shared->notes = std::move(notes);
    }
    m_current = 0;
    m_sql.clear();
    m_atEnd = true;
    m_fetching = false;
    m_rows = 0;
}

void QueryJob::post(std::function<void(Shared &)> work)
{
    if (m_pending++ == 0)
        emit busyChanged(true);
    std::shared_ptr<Shared> shared = m_shared;
    m_pool.start([this, shared, work = std::move(work)] {
        work(*shared);
        QMetaObject::invokeMethod(this, [this] {
            if (--m_pending == 0)
                emit busyChanged(false);
        }, Qt::QueuedConnection);
    });
}

void QueryJob::cancel()
{
    if (!m_shared)
        return;
    m_shared->cancelledBelow = m_nextId + 1;
    m_shared->cancelEngine();
}

uint64_t QueryJob::start(const QString &sql, size_t pageRows)
{
    if (!m_shared)
        return 0;
    const uint64_t id = ++m_nextId;
    if (m_shared->pageRunning) // the query it replaces stops; its pages are dropped (by id)
        m_shared->cancelEngine();
    m_current = id;
    m_sql = sql;
    m_atEnd = false;
    m_fetching = true;
    m_rows = 0;
    emit started(id);
    const std::string text = sql.toStdString();
    post([this, id, text, pageRows](Shared &s) {
        QElapsedTimer timer;
        timer.start();
        auto page = std::make_shared<QueryPage>();
        QueryError err;
        s.cursor.reset();
        s.cursorId = id;
        s.cursorSql = text;
        s.cursorRows = 0;
        s.cursorDone = true;
        if (s.dropped(id)) {
            err = cancelledError();
        } else {
            s.pageRunning = true;
            QueryEngine &engine = s.theEngine();
            if (!engine.ok())
                err = setupError(engine);
            else
                s.cursor = engine.open(text, &err);
            if (s.cursor) {
                page->columns = s.cursor->columns();
                s.cursor->fetch(pageRows, page->rows);
                err = s.cursor->error();
                s.cursorRows = s.cursor->rowsFetched();
                s.cursorDone = s.cursor->atEnd();
                if (s.cursorDone)
                    s.cursor.reset();
            }
            s.pageRunning = false;
        }
        deliver(id, page, true, double(timer.nsecsElapsed()) / 1e9, s.cursorDone, err);
    });
    return id;
}

void QueryJob::deliver(uint64_t id, std::shared_ptr<QueryPage> page, bool first, double seconds, bool atEnd, QueryError err)
{
    QMetaObject::invokeMethod(this, [this, id, page = std::move(page), first, seconds, atEnd, err = std::move(err)] {
        if (id != m_current)
            return;
        m_fetching = false;
        m_atEnd = atEnd;
        m_rows += page->rows.size();
        emit this->page(id, page, first);
        emit finished(id, m_rows, seconds, atEnd, err);
    }, Qt::QueuedConnection);
}

bool QueryJob::fetchMore(size_t pageRows)
{
    if (!m_shared || !m_current || m_atEnd || m_fetching)
        return false;
    m_fetching = true;
    const uint64_t id = m_current;
    post([this, id, pageRows](Shared &s) {
        QElapsedTimer timer;
        timer.start();
        auto page = std::make_shared<QueryPage>();
        QueryError err;
        if (s.cursorId != id || s.dropped(id)) {
            err = cancelledError();
            s.cursor.reset();
            s.cursorDone = true;
        } else if (!s.cursorDone) {
            s.pageRunning = true;
            if (!s.cursor) {
                // A streaming run closed it: reopen and skip the rows already handed out.
                s.cursor = s.theEngine().open(s.cursorSql, &err);
                std::vector<std::vector<Cell>> skipped;
                uint64_t left = s.cursorRows;
                while (s.cursor && left > 0 && !s.cursor->atEnd()) {
                    skipped.clear();
                    left -= s.cursor->fetch(size_t(std::min<uint64_t>(left, 4096)), skipped);
                }
                if (s.cursor && s.cursor->error())
                    err = s.cursor->error();
            }
            if (s.cursor && !err) {
                page->columns = s.cursor->columns();
                s.cursor->fetch(pageRows, page->rows);
                err = s.cursor->error();
                s.cursorRows += page->rows.size();
            }
            s.cursorDone = !s.cursor || s.cursor->atEnd() || bool(err);
            if (s.cursorDone)
                s.cursor.reset();
            s.pageRunning = false;
        }
        deliver(id, page, false, double(timer.nsecsElapsed()) / 1e9, s.cursorDone, err);
    });
    return true;
}

uint64_t QueryJob::exportCsv(const QString &sql, const QString &path)
{
    if (!m_shared)
        return 0;
    const uint64_t id = ++m_nextId;
    const std::string text = sql.toStdString();
    const std::string file = path.toStdString();
    post([this, id, text, file, path](Shared &s) {
        QString message;
        QueryStats stats;
        bool ok = false;
        if (s.dropped(id)) {
            message = QStringLiteral("query cancelled");
        } else if (std::FILE *out = std::fopen(file.c_str(), "wb")) {
            s.closeCursor();
            QueryError err;
            {
                QueryResultWriter writer(QueryResultWriter::Format::Csv, out);
                ok = s.theEngine().run(text, writer, {}, &err, &stats);
            }
            ok = (std::fclose(out) == 0) && ok;
            if (!ok)
                message = err ? QString::fromStdString(err.message) : QStringLiteral("cannot write %1").arg(path);
        } else {
            message = QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        }
        const quint64 rows = stats.rows;
        QMetaObject::invokeMethod(this, [this, id, ok, path, rows, message] { emit exported(id, ok, path, rows, message); },
                                  Qt::QueuedConnection);
    });
    return id;
}

uint64_t QueryJob::buildLane(const QString &sql, const QString &title)
{
    if (!m_shared)
        return 0;
    const uint64_t id = ++m_nextId;
    const std::string text = sql.toStdString();
    const std::string name = title.toStdString();
    post([this, id, text, name](Shared &s) {
        std::shared_ptr<QueryLane> lane;
        QString message;
        if (s.dropped(id)) {
            message = QStringLiteral("query cancelled");
        } else {
            s.closeCursor();
            LaneSink sink;
            QueryError err;
            const bool ran = s.theEngine().run(text, sink, {}, &err);
            if (!sink.error.empty())
                message = QString::fromStdString(sink.error);
            else if (!ran)
                message = QString::fromStdString(err.message);
            else if (!sink.ok())
                message = QStringLiteral("the query returned no result to pin");
            else
                lane = std::make_shared<QueryLane>(sink.builder.finish(name, text));
        }
        QMetaObject::invokeMethod(this, [this, id, lane, message] { emit laneReady(id, lane, message); }, Qt::QueuedConnection);
    });
    return id;
}

} // namespace lanescope
