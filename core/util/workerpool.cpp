#include "workerpool.h"

namespace lanescope {

QThreadPool *workerPool()
{
    // As many threads as cores, like the global pool; destroyed (after waiting for its tasks) at exit.
    static QThreadPool pool;
    return &pool;
}

} // namespace lanescope
