#pragma once
// One array of the trace model (slices, args, flows, ...): its records either owned (a std::vector, as
// the importers build them) or viewed in place in read-only memory that a keeper keeps alive (a
// memory-mapped trace cache file: MappedModel). Readers see one contiguous range either way (data(),
// size(), begin(), operator[], a std::span); the first mutable access to a viewed column copies it into
// an owned vector (copy on write), so the builders and mergers work on either without knowing.
// Only for implicit-lifetime records (aggregates of numbers and ids) when viewed.
#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace lanescope {

template <class T, class A = std::allocator<T>>
class Column
{
public:
    using value_type = T;
    using size_type = size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T &;
    using const_reference = const T &;
    using iterator = T *;
    using const_iterator = const T *;
    using vector_type = std::vector<T, A>;

    Column() = default;
    Column(vector_type v) noexcept : m_owned(std::move(v)) {}
    Column(Column &&) noexcept = default;
    Column &operator=(Column &&) noexcept = default;
    Column(const Column &) = delete;
    Column &operator=(const Column &) = delete;
    Column &operator=(vector_type v) noexcept
    {
        release();
        m_owned = std::move(v);
        return *this;
    }

    // Views `count` records at `records` (read-only) for as long as this column lives: `keeper` keeps
    // that memory valid. What the column owned is freed.
    void view(const T *records, size_t count, std::shared_ptr<const void> keeper) noexcept
    {
        m_owned = vector_type();
        m_view = records;
        m_count = count;
        m_keeper = std::move(keeper);
    }
    bool isView() const { return m_keeper != nullptr; }

    const T *data() const { return m_keeper ? m_view : m_owned.data(); }
    size_t size() const { return m_keeper ? m_count : m_owned.size(); }
    bool empty() const { return size() == 0; }
    // Owned: the vector's capacity; viewed: the records viewed (held by the mapping, not the heap).
    size_t capacity() const { return m_keeper ? m_count : m_owned.capacity(); }
    const T *begin() const { return data(); }
    const T *end() const { return data() + size(); }
    const T &operator[](size_t i) const { return data()[i]; }
    const T &front() const { return data()[0]; }
    const T &back() const { return data()[size() - 1]; }
    std::span<const T> span() const { return {data(), size()}; }
    vector_type toVector() const { return vector_type(begin(), end()); }

    // Mutable access: a viewed column becomes owned first (a copy of the records).
    vector_type &vec()
    {
        if (m_keeper) [[unlikely]] {
            vector_type copy(m_view, m_view + m_count);
            release();
            m_owned = std::move(copy);
        }
        return m_owned;
    }
    T *data() { return vec().data(); }
    T *begin() { return vec().data(); }
    T *end()
    {
        vector_type &v = vec();
        return v.data() + v.size();
    }
    T &operator[](size_t i) { return vec()[i]; }
    T &front() { return vec().front(); }
    T &back() { return vec().back(); }
    void push_back(const T &v) { vec().push_back(v); }
    template <class... Args>
    T &emplace_back(Args &&...args)
    {
        return vec().emplace_back(std::forward<Args>(args)...);
    }
    template <class It>
    void insert(const T *pos, It first, It last)
    {
        const auto at = pos - data();
        vector_type &v = vec();
        v.insert(v.begin() + at, first, last);
    }
    void reserve(size_t n) { vec().reserve(n); }
    void resize(size_t n) { vec().resize(n); }
    void clear() noexcept
    {
        release();
        m_owned.clear();
    }
    void shrink_to_fit() { vec().shrink_to_fit(); }

private:
    void release() noexcept
    {
        m_keeper.reset();
        m_view = nullptr;
        m_count = 0;
    }

    vector_type m_owned;
    const T *m_view = nullptr;
    size_t m_count = 0;
    std::shared_ptr<const void> m_keeper; // set: the column is a view
};

} // namespace lanescope
