#pragma once
// The memory of a window's backing store, made ready on another core before the window's first paint.
//
// The first frame of a window paints into a backing store Qt has just allocated: 5 MB for a 1400 x 900
// window, whose ~1,200 pages the kernel clears and maps one page fault at a time as the painter first
// touches them (2 to 3 ms of the first frame, measured on the 1 GB trace's window). BackingStorePrefault
// allocates the backing store at the window's size when it is shown and has the kernel map its pages
// writable from a thread of its own (madvise MADV_POPULATE_WRITE: page tables only, the contents are
// not touched, so it is harmless while the GUI thread paints), while the GUI thread lays the window
// out. Where the platform's backing store is not an image in this process, or the system lacks that
// madvise (Linux before 5.14, other systems), nothing is done.
#include <thread>

class QWidget;

namespace lanescope {

class BackingStorePrefault
{
public:
    BackingStorePrefault() = default;
    ~BackingStorePrefault();
    BackingStorePrefault(const BackingStorePrefault &) = delete;
    BackingStorePrefault &operator=(const BackingStorePrefault &) = delete;

    // For a top-level `window` being shown (from its showEvent); once per object. Returns whether the
    // pages are being mapped.
    bool start(QWidget *window);

private:
    std::thread m_thread;
    bool m_started = false;
};

} // namespace lanescope
