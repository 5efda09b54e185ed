#pragma once
// Sorting index arrays that are nearly in order: traces are written in sorted runs (a Kineto thread of
// 3.3 M slices holds ~50 of them), so the runs are found and merged pairwise, n log(runs), reading two
// runs front to back; only input in many short runs goes to std::sort. splitRuns() cuts the runs of
// one array by value into two halves that sort on two cores: every index of the first orders before
// every index of the second. `less` must be a strict total order (ties broken by index).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lanescope::runmerge {

// Where the sorted runs of data[0, n) start, then n: {0, ..., n}.
template <class Less>
std::vector<size_t> findRuns(const uint32_t *data, size_t n, const Less &less)
{
    std::vector<size_t> runs{0};
    for (size_t i = 1; i < n; ++i)
        if (less(data[i], data[i - 1]))
            runs.push_back(i);
    runs.push_back(n);
    return runs;
}

// Too many runs to merge: std::sort does better.
inline bool manyRuns(const std::vector<size_t> &runs, size_t n) { return runs.size() - 1 > n / 16; }

// Merges the runs `runs` ({0, ..., n}) of data[0, n) into one; `buffer` is scratch memory kept between
// calls.
template <class Less>
void mergeRuns(uint32_t *data, std::vector<size_t> runs, const Less &less, std::vector<uint32_t> &buffer)
{
    const size_t n = runs.back();
    if (runs.size() <= 2)
        return;
    buffer.resize(n);
    uint32_t *from = data, *to = buffer.data();
    std::vector<size_t> next;
    while (runs.size() > 2) {
        next.assign(1, 0);
        for (size_t r = 0; r + 1 < runs.size(); r += 2) {
            if (r + 2 < runs.size()) {
                std::merge(from + runs[r], from + runs[r + 1], from + runs[r + 1], from + runs[r + 2], to + runs[r], less);
                next.push_back(runs[r + 2]);
            } else {
                std::copy(from + runs[r], from + runs[r + 1], to + runs[r]);
                next.push_back(runs[r + 1]);
            }
        }
        std::swap(from, to);
        runs.swap(next);
    }
    if (from != data)
        std::copy(from, from + n, data);
}

// Sorts data[0, n) by `less`; false when it already was.
template <class Less>
bool sortRuns(uint32_t *data, size_t n, const Less &less, std::vector<uint32_t> &buffer)
{
    std::vector<size_t> runs = findRuns(data, n, less);
    if (runs.size() <= 2)
        return false;
    if (manyRuns(runs, n))
        std::sort(data, data + n, less);
    else
        mergeRuns(data, std::move(runs), less, buffer);
    return true;
}

// Two halves of data[0, n) to merge separately: data[0, split) and data[split, n), with their runs.
struct Halves
{
    size_t split = 0;
    std::vector<size_t> low, high; // runs of each half, positions relative to its own start
};

// Rearranges the runs `runs` of data[0, n) so that the indices ordering before a pivot (the median of
// a sample) come first, each half still made of sorted runs.
template <class Less>
Halves splitRuns(uint32_t *data, const std::vector<size_t> &runs, const Less &less, std::vector<uint32_t> &buffer)
{
    const size_t n = runs.back();
    std::vector<uint32_t> sample;
    constexpr size_t kSample = 1024;
    for (size_t k = 0; k < kSample; ++k)
        sample.push_back(data[k * n / kSample]);
    std::sort(sample.begin(), sample.end(), less);
    const uint32_t pivot = sample[kSample / 2];
    std::vector<size_t> cut(runs.size() - 1);
    for (size_t r = 0; r + 1 < runs.size(); ++r)
        cut[r] = size_t(std::lower_bound(data + runs[r], data + runs[r + 1], pivot, less) - data);
    buffer.resize(n);
    Halves h;
    h.low.push_back(0);
    size_t at = 0;
    for (size_t r = 0; r + 1 < runs.size(); ++r)
        if (cut[r] > runs[r]) {
            at = size_t(std::copy(data + runs[r], data + cut[r], buffer.data() + at) - buffer.data());
            h.low.push_back(at);
        }
    h.split = at;
    h.high.push_back(0);
    for (size_t r = 0; r + 1 < runs.size(); ++r)
        if (runs[r + 1] > cut[r]) {
            at = size_t(std::copy(data + cut[r], data + runs[r + 1], buffer.data() + at) - buffer.data());
            h.high.push_back(at - h.split);
        }
    std::copy(buffer.data(), buffer.data() + n, data);
    return h;
}

} // namespace lanescope::runmerge
