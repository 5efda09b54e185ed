#pragma once
// Loads one trace in the background (QtConcurrent) and hands the result back on the GUI thread.
// Progress arrives on a 0..1000 scale at most ~20 times a second; cancel() stops the load at the
// importer's next chunk. Each start() gets a new job id: results of a cancelled or replaced job are
// dropped, so only the latest load ever reports.
#include "io/input/loadoptions.h"
#include "store/tracecache.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QList>
#include <QStringList>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace lanescope {

class LoadJob : public QObject
{
    Q_OBJECT
public:
    static constexpr int kProgressIntervalMs = 50;

    explicit LoadJob(QObject *parent = nullptr);
    // Cancels a running load and waits for the worker threads to let go.
    ~LoadJob() override;

    // Starts loading `path` (a file or a folder), replacing any load in flight. Returns the job id.
    // Loads go through the trace cache (CachedLoader); a fresh trace is stored after it is delivered.
    // With `rankFiles` (two or more Kineto traces of distinct ranks) they load together as one
    // multi-rank trace (MultiRankLoader, cached as one entry keyed by every rank's file); `path` then
    // only names the job.
    uint64_t start(const QString &path, const QStringList &rankFiles = {});
    // Applies to the next start(). Default: CacheOptions::fromEnvironment().
    void setCacheOptions(const CacheOptions &options) { m_cacheOptions = options; }
    const CacheOptions &cacheOptions() const { return m_cacheOptions; }
    // Asks the running load to stop; cancelled() follows once it has.
    void cancel();
    bool isRunning() const { return m_running; }
    QString path() const { return m_path; }
    uint64_t currentId() const { return m_id; }

signals:
    void progress(int permille);
    // Cache notices of the load ("loaded from cache in 0.12 s", "cache entry was stale ..., rebuilt"),
    // emitted just before finished() or failed(); fromCache: the trace came from the cache.
    void notices(const QStringList &notices, bool fromCache);
    void finished(std::shared_ptr<const lanescope::Trace> trace);
    void failed(const QString &error);
    void cancelled();

private:
    struct Shared; // owned jointly by the job and its worker thread

    void deliver(uint64_t id, LoadResult result);
    void deliverProgress(uint64_t id, int permille);

    uint64_t m_id = 0;
    bool m_running = false;
    QString m_path;
    CacheOptions m_cacheOptions = CacheOptions::fromEnvironment();
    std::shared_ptr<Shared> m_shared;
    QList<QFuture<void>> m_workers; // a replaced job's worker may still be winding down
};

} // namespace lanescope
