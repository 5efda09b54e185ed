#pragma once
// The background computation of a dock that is only worth doing while the dock is seen (the Flame
// Graph, the Source dock): request() runs it soon when the dock is visible (throttled), else marks it
// stale so that it runs when the dock is shown; start() runs the work on a worker thread and hands
// its result to the dock on the GUI thread, unless a newer start() or a drop() (another trace) came
// first: an outdated result is never shown.
#include "throttle.h"
#include "util/workerpool.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

namespace lanescope {

class DockJob : public QObject
{
public:
    // `compute` is what request() and the dock being shown run: it ends in start().
    DockJob(QDockWidget *dock, std::function<void()> compute, int throttleMs);

    void request();
    // Runs `work` on a worker thread; `done` gets its result and how long it took (ms), when it is
    // for the latest start().
    template <typename Result> void start(std::function<Result()> work, std::function<void(const Result &, double ms)> done)
    {
        m_stale = false;
        m_pending = true;
        const uint64_t generation = ++m_generation;
        auto *watcher = new QFutureWatcher<std::pair<Result, double>>(this);
        connect(watcher, &QFutureWatcher<std::pair<Result, double>>::finished, this, [this, watcher, generation, done = std::move(done)] {
            watcher->deleteLater();
            if (generation != m_generation)
                return; // a newer computation (or another trace) is on its way
            m_pending = false;
            const std::pair<Result, double> out = watcher->result();
            done(out.first, out.second);
        });
        watcher->setFuture(QtConcurrent::run(workerPool(), [work = std::move(work)] {
            QElapsedTimer timer;
            timer.start();
            Result result = work();
            return std::pair<Result, double>(std::move(result), double(timer.nsecsElapsed()) / 1e6);
        }));
    }
    // Drops the computation in flight (the trace changed) and marks the result stale.
    void drop();
    bool isPending() const { return m_pending; }
    bool isStale() const { return m_stale; }

private:
    QDockWidget *m_dock;
    std::function<void()> m_compute;
    Throttle *m_throttle;
    uint64_t m_generation = 0;
    bool m_pending = false;
    bool m_stale = true;
};

} // namespace lanescope
