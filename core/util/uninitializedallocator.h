#pragma once
// An allocator whose value-less construct() leaves the memory as it is, for vectors of plain records
// that are resized and then written whole (the sorted slices, a cache file's columns): resize() then
// neither zeroes the memory nor faults its pages in on one thread, so the writers fault them in on the
// cores that write them. Only for implicit-lifetime types (aggregates of numbers and ids).
#include <memory>
#include <type_traits>
#include <utility>

namespace lanescope {

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
    UninitializedAllocator() noexcept = default;
    template <class U>
    UninitializedAllocator(const UninitializedAllocator<U> &) noexcept
    {
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
