#include "loadjob.h"

#include "store/cachedloader.h"
#include "util/workerpool.h"

#include <QtConcurrent/QtConcurrentRun>

namespace lanescope {

struct LoadJob::Shared
{
    std::atomic<bool> cancel{false};
};

LoadJob::LoadJob(QObject *parent) : QObject(parent) {}

LoadJob::~LoadJob()
{
    if (m_shared)
        m_shared->cancel = true;
    // Workers post their results to this object: they must be done before it is gone. Posted
    // events that are still queued are discarded with the object.
    for (auto &f : m_workers)
        f.waitForFinished();
}

uint64_t LoadJob::start(const QString &path, const QStringList &rankFiles)
{
    if (m_shared)
        m_shared->cancel = true; // the old job stops at its next chunk; its result is dropped by id
    m_workers.removeIf([](const QFuture<void> &f) { return f.isFinished(); });
    const uint64_t id = ++m_id;
    m_path = path;
    m_running = true;
    m_shared = std::make_shared<Shared>();
    auto shared = m_shared;
    const std::string file = path.toStdString();
    std::vector<std::string> ranks;
    for (const QString &r : rankFiles)
        ranks.push_back(r.toStdString());
    const CacheOptions cacheOptions = m_cacheOptions;
    m_workers.append(QtConcurrent::run(workerPool(), [this, id, shared, file, ranks, cacheOptions] {
        QElapsedTimer sinceReport;
        sinceReport.start();
        int last = -1;
        LoadOptions options;
        options.cancel = &shared->cancel;
        options.progress = [&](int permille) {
            // Throttle to ~20 updates a second; 1000 always gets through.
            if (permille == last || (permille < 1000 && last >= 0 && sinceReport.elapsed() < kProgressIntervalMs))
                return;
            last = permille;
            sinceReport.restart();
            QMetaObject::invokeMethod(
                this, [this, id, permille] { deliverProgress(id, permille); }, Qt::QueuedConnection);
        };
        CachedLoader loader(cacheOptions);
        loader.setDeferStore(true); // show the trace first, store it afterwards (the trace is immutable)
        LoadResult result = ranks.empty() ? loader.load(file, options) : loader.load(ranks, options); // a rank set is cached too
        if (result.trace && !shared->cancel.load())
            result.trace->depthTables(); // what the timeline's first frame needs, built here rather than on the GUI thread
        QMetaObject::invokeMethod(
            this, [this, id, result = std::move(result)] { deliver(id, result); }, Qt::QueuedConnection);
        if (!shared->cancel.load())
            loader.storePending();
    }));
    return id;
}

void LoadJob::cancel()
{
    if (m_shared && m_running)
        m_shared->cancel = true;
}

void LoadJob::deliverProgress(uint64_t id, int permille)
{
    if (id == m_id && m_running)
        emit progress(permille);
}

void LoadJob::deliver(uint64_t id, LoadResult result)
{
    if (id != m_id || !m_running)
        return; // a replaced job: its result is stale
    m_running = false;
    // A cancel that came too late to stop the importer still wins: the user asked for it.
    if (!result.notices.empty() && !result.cancelled) {
        QStringList notices;
        for (const auto &n : result.notices)
            notices << QString::fromStdString(n);
        emit this->notices(notices, result.fromCache);
    }
    if (result.cancelled || (m_shared && m_shared->cancel.load()))
        emit cancelled();
    else if (result.ok())
        emit finished(std::move(result.trace));
    else
        emit failed(QString::fromStdString(result.error));
}

} // namespace lanescope
