#pragma once
// The threads Lanescope's own background work runs on (loads, analyses, exports, dock jobs):
// QtConcurrent::run(workerPool(), ...), never Qt's global pool. Qt 6.4's raster engine splits large
// fills across QThreadPool::globalInstance() and waits for them on the GUI thread, so analyses
// queued there (seconds on a large trace) froze every repaint until they were done.
#include <QThreadPool>

namespace lanescope {

QThreadPool *workerPool();

} // namespace lanescope
