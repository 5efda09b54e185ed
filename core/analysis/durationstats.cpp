#include "durationstats.h"

#include "model/trace.h"

#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

namespace lanescope {

namespace {

// 1-based nearest rank of the p-th percentile of n values: ceil(p/100 * n), in integers (p in
// hundredths) so that p90 of 10 values is rank 9 and not 10 through rounding.
uint64_t rankOf(double p, uint64_t n)
{
    const auto hundredths = uint64_t(std::llround(std::clamp(p, 0.0, 100.0) * 100.0));
    return std::clamp<uint64_t>((hundredths * n + 9999) / 10000, 1, n);
}

// Finds the bin of a duration in O(1): the bins a power-of-two octave can fall in start at
// firstBin[octave], and an octave spans only a few log-spaced bins (no binary search per value).
class BinLocator
{
public:
    explicit BinLocator(const std::vector<DurationStats::Bin> &bins) : m_bins(bins)
    {
        for (int k = 0; k < 64; ++k) {
            const int64_t v = int64_t(uint64_t(1) << k) > 0 ? int64_t(uint64_t(1) << k) : INT64_MAX;
            auto it = std::upper_bound(bins.begin(), bins.end(), v,
                                       [](int64_t x, const DurationStats::Bin &b) { return x < b.from; });
            m_first[size_t(k)] = uint32_t(it == bins.begin() ? 0 : (it - bins.begin()) - 1);
        }
    }
    // The bin index, or -1 when the duration is outside every bin.
    int64_t operator()(int64_t d) const
    {
        if (m_bins.empty() || d < m_bins.front().from || d >= m_bins.back().to)
            return -1;
        if (d == 0)
            return 0;
        size_t i = m_first[size_t(std::bit_width(uint64_t(d)) - 1)];
        while (d >= m_bins[i].to)
            ++i;
        return int64_t(i);
    }

private:
    const std::vector<DurationStats::Bin> &m_bins;
    std::array<uint32_t, 64> m_first{};
};

void countInto(std::span<const int64_t> durations, std::vector<DurationStats::Bin> &histogram)
{
    const BinLocator locate(histogram);
    for (const int64_t d : durations)
        if (const int64_t i = locate(d); i >= 0)
            ++histogram[size_t(i)].count;
}

// Percentiles through the histogram: the bin holding each rank is known from the counts, so only
// that bin's durations are collected and partially sorted (a few % of them, not three passes of
// nth_element over all).
void finishRow(const Trace &trace, DurationStats::Row &row, int bins)
{
    const auto all = trace.allSlices();
    const uint64_t n = row.occurrences.size();
    row.mean = double(row.total) / double(n);
    row.histogram = DurationStats::bins(row.min, row.max, bins);
    const BinLocator locate(row.histogram);
    std::vector<int64_t> d(n);
    std::vector<uint32_t> binOf(n);
    double squares = 0;
    for (size_t i = 0; i < n; ++i) {
        const int64_t v = all[row.occurrences[i]].duration;
        d[i] = v;
        const double delta = double(v) - row.mean;
        squares += delta * delta;
        const auto b = uint32_t(locate(v)); // every duration is inside [min, max + 1)
        binOf[i] = b;
        ++row.histogram[b].count;
    }
    row.stddev = std::sqrt(squares / double(n));
    const uint64_t ranks[] = {rankOf(50, n), rankOf(90, n), rankOf(99, n)};
    int64_t *out[] = {&row.median, &row.p90, &row.p99};
    uint32_t binOfRank[3] = {};
    uint64_t below[3] = {};
    for (int k = 0; k < 3; ++k) {
        uint64_t cumulative = 0;
        uint32_t b = 0;
        while (cumulative + row.histogram[b].count < ranks[k]) {
            cumulative += row.histogram[b].count;
            ++b;
        }
        binOfRank[k] = b;
        below[k] = cumulative;
    }
    std::vector<int64_t> inBin[3];
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k)
            if (binOf[i] == binOfRank[k] && (k == 0 || binOfRank[k] != binOfRank[k - 1])) {
                inBin[k].push_back(d[i]);
                break;
            }
    for (int k = 0; k < 3; ++k) {
        int src = k;
        while (src > 0 && binOfRank[src] == binOfRank[src - 1])
            --src;
        std::vector<int64_t> &v = inBin[src];
        const auto at = v.begin() + long(ranks[k] - below[k] - 1);
        std::nth_element(v.begin(), at, v.end());
        *out[k] = *at;
    }
}

} // namespace

int64_t DurationStats::nearestRank(std::span<const int64_t> sorted, double p)
{
    if (sorted.empty())
        return 0;
    return sorted[size_t(rankOf(p, sorted.size()) - 1)];
}

std::vector<DurationStats::Bin> DurationStats::bins(int64_t lo, int64_t hi, int count)
{
    std::vector<Bin> out;
    if (hi < lo || lo < 0)
        return out;
    count = std::max(1, count);
    if (lo == 0) {
        out.push_back({0, 1, 0});
        if (hi == 0)
            return out;
        lo = 1;
    }
    const int64_t end = hi + 1;
    const double ratio = double(end) / double(lo);
    int64_t from = lo;
    for (int i = 1; i <= count; ++i) {
        const int64_t to = i == count ? end : std::min(end, int64_t(std::llround(double(lo) * std::pow(ratio, double(i) / count))));
        if (to <= from)
            continue; // rounds to nothing: merged into the next bin
        out.push_back({from, to, 0});
        from = to;
    }
    return out;
}

void DurationStats::fill(const Trace &trace, std::span<const uint32_t> occurrences, std::vector<Bin> &histogram)
{
    const auto all = trace.allSlices();
    std::vector<int64_t> d;
    d.reserve(occurrences.size());
    for (const uint32_t id : occurrences)
        d.push_back(all[id].duration);
    countInto(d, histogram);
}

std::vector<uint32_t> DurationStats::binSlices(const Trace &trace, const Row &row, int64_t from, int64_t to)
{
    const auto all = trace.allSlices();
    std::vector<uint32_t> out;
    for (const uint32_t id : row.occurrences)
        if (all[id].duration >= from && all[id].duration < to)
            out.push_back(id);
    std::sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) {
        return all[a].start != all[b].start ? all[a].start < all[b].start : a < b;
    });
    return out;
}

QString DurationStats::patternError(const QString &pattern)
{
    const QRegularExpression re(pattern);
    if (re.isValid())
        return {};
    return QStringLiteral("invalid regular expression '%1': %2 at offset %3").arg(pattern, re.errorString()).arg(re.patternErrorOffset());
}

DurationStats::Result DurationStats::compute(const Trace &trace, const Options &options)
{
    Result result;
    result.error = patternError(options.pattern);
    if (!result.ok())
        return result;
    const QRegularExpression re(options.pattern, options.caseSensitive ? QRegularExpression::NoPatternOption
                                                                       : QRegularExpression::CaseInsensitiveOption);
    const StringPool &pool = trace.strings();
    // Per distinct string, looked at once: -1 not yet, -2 no match, else the row.
    std::vector<int32_t> rowOf(pool.size(), -1);
    std::vector<Row> &rows = result.rows;
    const auto rowFor = [&](StringId name) -> int32_t {
        if (!name.isValid() || name.value >= rowOf.size())
            return -2;
        int32_t &r = rowOf[name.value];
        if (r == -1) {
            const std::string_view v = pool.view(name);
            if (re.match(QString::fromUtf8(v.data(), qsizetype(v.size()))).hasMatch()) {
                r = int32_t(rows.size());
                Row row;
                row.nameId = name;
                row.name = std::string(v);
                rows.push_back(std::move(row));
            } else {
                r = -2;
            }
        }
        return r;
    };
    const auto all = trace.allSlices();
    const auto visit = [&](uint32_t begin, uint32_t end) {
        for (uint32_t i = begin; i < end; ++i) {
            const Slice &s = all[i];
            if (options.hasRange && (s.start < options.t0 || s.start >= options.t1))
                continue;
            const int32_t r = rowFor(s.name);
            if (r < 0)
                continue;
            Row &row = rows[size_t(r)];
            if (row.count == 0 || s.duration < row.min || (s.duration == row.min && s.start < all[row.fastest.value].start)) {
                row.min = s.duration;
                row.fastest = SliceId(i);
            }
            if (row.count == 0 || s.duration > row.max || (s.duration == row.max && s.start < all[row.slowest.value].start)) {
                row.max = s.duration;
                row.slowest = SliceId(i);
            }
            ++row.count;
            row.total += s.duration;
            row.occurrences.push_back(i);
        }
    };
    if (options.tracks.empty()) {
        visit(0, uint32_t(all.size()));
    } else {
        for (const TrackId t : options.tracks) {
            if (!t.isValid() || t.value >= trace.tracks().size())
                continue;
            const Track &track = trace.track(t);
            visit(track.sliceBegin, track.sliceBegin + track.sliceCount);
        }
    }
    std::erase_if(rows, [](const Row &r) { return r.count == 0; });
    for (Row &row : rows)
        finishRow(trace, row, options.bins);
    std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        return a.total != b.total ? a.total > b.total : a.name < b.name;
    });
    return result;
}

} // namespace lanescope
