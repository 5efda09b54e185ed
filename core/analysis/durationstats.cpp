#include "durationstats.h"

#include "model/trace.h"

#include <QRegularExpression>

#include <algorithm>
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

// The duration at `rank` (1-based) of `d`, partially sorting d[from..] (ranks asked in ascending
// order, each call leaves the values below the rank before it).
int64_t selectRank(std::vector<int64_t> &d, uint64_t rank, size_t &from)
{
    const size_t at = size_t(rank - 1);
    if (at >= from) {
        std::nth_element(d.begin() + long(from), d.begin() + long(at), d.end());
        from = at;
    }
    return d[at];
}

void countInto(std::span<const int64_t> durations, std::vector<DurationStats::Bin> &histogram)
{
    if (histogram.empty())
        return;
    for (const int64_t d : durations) {
        auto it = std::upper_bound(histogram.begin(), histogram.end(), d,
                                   [](int64_t v, const DurationStats::Bin &b) { return v < b.from; });
        if (it == histogram.begin())
            continue;
        --it;
        if (d < it->to)
            ++it->count;
    }
}

void finishRow(const Trace &trace, DurationStats::Row &row, int bins)
{
    const auto all = trace.allSlices();
    std::vector<int64_t> d;
    d.reserve(row.occurrences.size());
    for (const uint32_t id : row.occurrences)
        d.push_back(all[id].duration);
    const uint64_t n = d.size();
    row.mean = double(row.total) / double(n);
    double squares = 0;
    for (const int64_t v : d) {
        const double delta = double(v) - row.mean;
        squares += delta * delta;
    }
    row.stddev = std::sqrt(squares / double(n));
    row.histogram = DurationStats::bins(row.min, row.max, bins);
    countInto(d, row.histogram);
    size_t from = 0;
    row.median = selectRank(d, rankOf(50, n), from);
    row.p90 = selectRank(d, rankOf(90, n), from);
    row.p99 = selectRank(d, rankOf(99, n), from);
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

DurationStats::Result DurationStats::compute(const Trace &trace, const Options &options)
{
    Result result;
    QRegularExpression re(options.pattern, options.caseSensitive ? QRegularExpression::NoPatternOption
                                                                 : QRegularExpression::CaseInsensitiveOption);
    if (!re.isValid()) {
        result.error = QStringLiteral("invalid regular expression '%1': %2 at offset %3")
                           .arg(options.pattern, re.errorString())
                           .arg(re.patternErrorOffset());
        return result;
    }
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
