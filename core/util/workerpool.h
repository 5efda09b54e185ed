#pragma once
// The threads Lanescope's own background work runs on (loads, analyses, exports, dock jobs):
// QtConcurrent::run(workerPool(), ...), never Qt's global pool. Qt 6.4's raster engine splits large
// fills across QThreadPool::globalInstance() and waits for them on the GUI thread, so analyses
// queued there (seconds on a large trace) froze every repaint until they were done.
#include <QThreadPool>

namespace lanescope {

QThreadPool *workerPool();

// While a new trace's first frame is drawn, the background work its views start at once (launch
// index, dependency graph, dock analyses) keeps a core free for the GUI thread: the pool runs on all
// cores but one until releaseForeground() or `timeoutMs` (a window that never paints), whichever
// comes first (a release ends every hold before it). GUI thread only.
void holdForForeground(int timeoutMs);
void releaseForeground();

// Nothing queued from now on starts (work already running goes on) for the rest of the process, which
// must end with _Exit (the pool's threads never come back): a scripted picture of a window's first
// frame is written before the background work the trace starts, which the picture does not show. Only
// when nothing the caller waits for is still to be queued.
void pauseWorkerPool();

} // namespace lanescope
