#include "workerpool.h"

#include <QCoreApplication>
#include <QSemaphore>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <limits>

namespace lanescope {

QThreadPool *workerPool()
{
    // As many threads as cores, like the global pool; destroyed (after waiting for its tasks) at exit.
    static QThreadPool pool;
    return &pool;
}

namespace {
bool g_held = false;
uint64_t g_generation = 0; // a release or timeout ends the holds made before it
} // namespace

void holdForForeground(int timeoutMs)
{
    if (!g_held)
        workerPool()->setMaxThreadCount(std::max(1, QThread::idealThreadCount() - 1));
    g_held = true;
    const uint64_t generation = g_generation;
    QTimer::singleShot(timeoutMs, QCoreApplication::instance(), [generation] {
        if (generation == g_generation)
            releaseForeground();
    });
}

void releaseForeground()
{
    if (!g_held)
        return;
    g_held = false;
    ++g_generation;
    workerPool()->setMaxThreadCount(QThread::idealThreadCount()); // queued tasks start now
}

void pauseWorkerPool()
{
    // A reserved thread does not stop a pool thread that has finished a task from taking the next one:
    // each thread is given a task that waits instead, ahead of everything queued.
    static QSemaphore gate(0);
    QThreadPool *pool = workerPool();
    for (int i = 0, n = pool->maxThreadCount(); i < n; ++i)
        pool->start([] { gate.acquire(); }, std::numeric_limits<int>::max());
}

} // namespace lanescope
