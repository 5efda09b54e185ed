#pragma once
// An allocator whose value-less construct() leaves the memory as it is, for vectors of plain records
// that are resized and then written whole (the sorted slices, a cache file's columns): resize() then
// neither zeroes the memory nor faults its pages in on one thread, so the writers fault them in on the
// cores that write them. Only for implicit-lifetime types (aggregates of numbers and ids).
// Large arrays (kHugeBytes and more) are placed on 2 MiB boundaries and offered to the kernel as
// transparent huge pages (madvise; where the system allows it): one page fault per 2 MiB instead of
// per 4 KiB, which was a third of the time of reopening a trace from the cache.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace lanescope {

// madvise(MADV_HUGEPAGE) where the platform has it; nothing elsewhere.
void adviseHugePages(void *p, size_t bytes) noexcept;

template <class T>
class UninitializedAllocator : public std::allocator<T>
{
public:
    using value_type = T;
    template <class U>
    struct rebind
    {
        using other = UninitializedAllocator<U>;
    };
    static constexpr size_t kHugeBytes = size_t(8) << 20;
    static constexpr size_t kHugeAlign = size_t(2) << 20;

    UninitializedAllocator() noexcept = default;
    template <class U>
    UninitializedAllocator(const UninitializedAllocator<U> &) noexcept
    {
    }

    T *allocate(size_t n)
    {
        if (n > SIZE_MAX / sizeof(T))
            throw std::bad_array_new_length();
        const size_t bytes = n * sizeof(T);
        if (bytes < kHugeBytes)
            return std::allocator<T>::allocate(n);
        void *p = ::operator new(bytes, std::align_val_t(kHugeAlign));
        adviseHugePages(p, bytes);
        return static_cast<T *>(p);
    }
    void deallocate(T *p, size_t n) noexcept
    {
        if (n * sizeof(T) < kHugeBytes)
            std::allocator<T>::deallocate(p, n);
        else
            ::operator delete(p, std::align_val_t(kHugeAlign));
    }

    template <class U>
    void construct(U *) noexcept
    {
        static_assert(std::is_trivially_copyable_v<U> && std::is_trivially_destructible_v<U>, "plain records only");
    }
    template <class U, class... Args>
    void construct(U *p, Args &&...args)
    {
        ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
    }
};

template <class T, class U>
bool operator==(const UninitializedAllocator<T> &, const UninitializedAllocator<U> &) noexcept
{
    return true;
}

} // namespace lanescope
