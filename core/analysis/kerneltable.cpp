#include "kerneltable.h"

#include "rankfilter.h"

#include "optable.h"

#include "model/trace.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace lanescope {

namespace {

constexpr const char *kNames[] = {"name", "kind", "count", "total_ns", "mean_ns", "min_ns", "max_ns", "percent", "launched_by"};
static_assert(std::size(kNames) == size_t(KernelTable::Column::ColumnCount));

} // namespace

const char *KernelTable::columnName(Column c) { return kNames[size_t(c)]; }

std::optional<KernelTable::Column> KernelTable::columnFromName(std::string_view name)
{
    for (size_t i = 0; i < std::size(kNames); ++i)
        if (name == kNames[i])
            return Column(i);
    if (name == "total" || name == "time_total" || name == "self_device_time_total" || name == "self_cuda_time_total"
        || name == "self_privateuse1_time_total")
        return Column::Total;
    if (name == "mean" || name == "avg")
        return Column::Mean;
    return std::nullopt;
}

double KernelTable::Row::number(Column c) const
{
    switch (c) {
    case Column::Count: return double(count);
    case Column::Total: return double(total);
    case Column::Mean: return mean();
    case Column::Min: return double(min);
    case Column::Max: return double(max);
    case Column::Percent: return percent;
    default: return 0;
    }
}

void KernelTable::sort(std::vector<Row> &rows, Column column)
{
    const auto text = [column](const Row &r) -> std::string_view {
        switch (column) {
        case Column::Kind: return LaunchIndex::kindName(r.kind);
        case Column::LaunchedBy: return r.launchedBy;
        default: return r.name;
        }
    };
    if (column == Column::Name || column == Column::Kind || column == Column::LaunchedBy) {
        std::stable_sort(rows.begin(), rows.end(), [&](const Row &a, const Row &b) {
            const auto x = text(a), y = text(b);
            return x != y ? x < y : a.name < b.name;
        });
        return;
    }
    std::stable_sort(rows.begin(), rows.end(), [&](const Row &a, const Row &b) {
        const double x = a.number(column), y = b.number(column);
        return x != y ? x > y : (a.kind != b.kind ? a.kind < b.kind : a.name < b.name);
    });
}

KernelTable::Result KernelTable::compute(const Trace &trace, const LaunchIndex &index, const Options &options)
{
    Result result;
    std::unordered_map<uint64_t, uint32_t> rowOfKey;        // (kind, name id) -> row
    std::map<std::pair<int, std::string>, uint32_t> rowOfText; // NEFF executions share names across groups
    std::vector<std::map<std::string_view, uint64_t>> launchCounts;
    const RankFilter rank(trace, options.rank);
    for (const LaunchIndex::Work &w : index.work()) {
        if ((options.hasRange && (w.start < options.t0 || w.start > options.t1)) || !rank.accepts(w.slice))
            continue;
        const uint64_t key = (uint64_t(w.kind) << 32) | w.name.value;
        auto it = rowOfKey.find(key);
        if (it == rowOfKey.end()) {
            std::string name = LaunchIndex::workName(trace, w);
            auto [t, added] = rowOfText.try_emplace({int(w.kind), name}, uint32_t(result.rows.size()));
            if (added) {
                Row r;
                r.name = std::move(name);
                r.kind = w.kind;
                r.min = w.duration();
                r.max = w.duration();
                result.rows.push_back(std::move(r));
                launchCounts.emplace_back();
            }
            it = rowOfKey.emplace(key, t->second).first;
        }
        Row &r = result.rows[it->second];
        ++r.count;
        r.total += w.duration();
        r.min = std::min(r.min, w.duration());
        r.max = std::max(r.max, w.duration());
        r.occurrences.push_back(w.slice.value);
        if (w.op.isValid())
            ++launchCounts[it->second][OpTable::foldName(trace.str(trace.slice(w.op).name))];
        else
            ++r.unattributed;
        (LaunchIndex::isExecutionLevel(w.kind) ? result.executionTime : result.instructionTime) += w.duration();
    }
    for (size_t i = 0; i < result.rows.size(); ++i) {
        Row &r = result.rows[i];
        const int64_t level = LaunchIndex::isExecutionLevel(r.kind) ? result.executionTime : result.instructionTime;
        r.percent = level > 0 ? 100.0 * double(r.total) / double(level) : 0.0;
        r.launchers = uint32_t(launchCounts[i].size());
        uint64_t best = 0;
        for (const auto &[name, count] : launchCounts[i]) // map order: ties go to the first name
            if (count > best) {
                best = count;
                r.launchedBy = std::string(name);
            }
    }
    sort(result.rows, options.sortBy);
    return result;
}

} // namespace lanescope
