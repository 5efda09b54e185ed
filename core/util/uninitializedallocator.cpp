#include "uninitializedallocator.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace lanescope {

void adviseHugePages(void *p, size_t bytes) noexcept
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Only the whole 2 MiB pages inside [p, p + bytes): p is 2 MiB aligned by the caller.
    const size_t whole = bytes & ~((size_t(2) << 20) - 1);
    if (whole > 0)
        madvise(p, whole, MADV_HUGEPAGE); // a hint: failure (THP off) changes nothing
#else
    (void)p;
    (void)bytes;
#endif
}

} // namespace lanescope
