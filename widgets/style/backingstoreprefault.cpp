#include "style/backingstoreprefault.h"

#include <QBackingStore>
#include <QImage>
#include <QWidget>

#include <cstdint>
#include <system_error>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace lanescope {

BackingStorePrefault::~BackingStorePrefault()
{
    if (m_thread.joinable())
        m_thread.join();
}

bool BackingStorePrefault::start(QWidget *window)
{
#if defined(MADV_POPULATE_WRITE)
    if (m_started || !window || !window->isWindow())
        return false;
    m_started = true;
    QBackingStore *store = window->backingStore();
    if (!store)
        return false;
    store->resize(window->size()); // allocated now rather than in the first paint (same size then: kept)
    QPaintDevice *device = store->paintDevice();
    if (!device || device->devType() != QInternal::Image)
        return false;
    const auto *image = static_cast<const QImage *>(device);
    const auto page = uintptr_t(::sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<uintptr_t>(image->constBits()) & ~(page - 1);
    const auto end = reinterpret_cast<uintptr_t>(image->constBits()) + uintptr_t(image->sizeInBytes());
    if (image->isNull() || page == 0 || end <= begin)
        return false;
    try {
        m_thread = std::thread([begin, end] { ::madvise(reinterpret_cast<void *>(begin), end - begin, MADV_POPULATE_WRITE); });
    } catch (const std::system_error &) {
        return false; // no thread to spare: the first paint maps the pages itself
    }
    return true;
#else
    (void)window;
    return false;
#endif
}

} // namespace lanescope
