// The usage series, memory usage and lookup tables of a processed Neuron Explorer profile -> counters,
// memoryUsage and reported values, as neuron-profile's JSON export gives them (explorerdevicereader.h);
// SbufAllocation -> SBUF allocated counters, ActiveTime -> per-engine totals kept as reported values.
#include "explorerdevicestate.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace lanescope::explorer {

namespace {

NtffCounterSeries &series(NtffProfile &p, const std::string &name, const char *unit, uint8_t core)
{
    for (NtffCounterSeries &c : p.counters)
        if (c.name == name && c.core == core)
            return c;
    return p.counters.emplace_back(NtffCounterSeries{name, unit, {}, core});
}

struct SeriesColumn
{
    std::string column; // "partition_32_util_percent"
    std::string name;   // "SBUF usage (partitions 32-63)"
    const char *unit;
};

// One time-series table: each row's timestamp and the values of `columns` (null values skipped).
void readSeries(DeviceState &s, const char *table, const std::vector<SeriesColumn> &columns)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, table);
    if (!c)
        return;
    const auto *ts = c.integer("timestamp");
    const auto *pcore = c.integer("pcore_idx");
    std::vector<const parquet::ColumnData *> values;
    for (const SeriesColumn &sc : columns)
        values.push_back(c.real(sc.column));
    c.note("those series are absent");
    RowProblems problems;
    for (size_t row = 0; row < c.rows(); ++row) {
        const auto time = intAt(ts, row);
        if (!time) {
            problems.add(std::string(table) + " rows without a valid timestamp (skipped)");
            continue;
        }
        uint8_t core = s.core(intAt(pcore, row), problems);
        if (core >= p.cores.size())
            core = 0;
        for (size_t i = 0; i < columns.size(); ++i)
            if (auto v = realAt(values[i], row))
                series(p, columns[i].name, columns[i].unit, core).samples.emplace_back(*time, *v);
    }
    s.rowsRead += c.rows();
    problems.report(p.diagnostics, c.where());
}

} // namespace

// SBUF / PSUM fill levels (the schema says percent; Explorer writes 0-1 fractions, kept as written) and
// DMA / HBM throughput, named as the JSON reader names neuron-profile's instruction_usage and
// dma_throughput series.
void readCounters(DeviceState &s)
{
    std::vector<SeriesColumn> sbuf = {{"avg_util_percent", "SBUF usage (average)", "fraction"}};
    for (int partition = 0; partition < 128; partition += 32)
        sbuf.push_back({"partition_" + std::to_string(partition) + "_util_percent",
                        "SBUF usage (partitions " + std::to_string(partition) + "-" + std::to_string(partition + 31) + ")",
                        "fraction"});
    readSeries(s, "SbufUsage", sbuf);
    std::vector<SeriesColumn> psum = {{"avg_util_percent", "PSUM usage (average)", "fraction"}};
    for (int bank = 0; bank < 8; ++bank)
        psum.push_back({"bank_" + std::to_string(bank) + "_util_percent", "PSUM usage (bank " + std::to_string(bank) + ")", "fraction"});
    readSeries(s, "PsumUsage", psum);
    readSeries(s, "DmaUsage", {{"current_throughput", "DMA throughput", "bytes/s"}});
    readSeries(s, "HbmUsage", {{"current_throughput", "HBM throughput", "bytes/s"}});
}

// HbmUsageSummaryByType: static device memory by usage type; neuroncore_idx is the physical core number.
void readMemoryUsage(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "HbmUsageSummaryByType");
    if (!c)
        return;
    const auto *type = c.text("usage_type");
    const auto *bytes = c.integer("usage_bytes");
    const auto *nc = c.integer("neuroncore_idx");
    c.note("those values are absent from the memory usage");
    RowProblems problems;
    for (size_t row = 0; row < c.rows(); ++row) {
        const auto b = intAt(bytes, row);
        if (!b || *b < 0) {
            problems.add("HbmUsageSummaryByType rows without a valid usage_bytes (skipped)");
            continue;
        }
        NtffMemoryUsage u;
        u.index = row;
        u.bytes = uint64_t(*b);
        u.category = std::string(textAt(type, row).value_or(""));
        if (auto n = intAt(nc, row)) {
            const auto it = std::find_if(p.cores.begin(), p.cores.end(),
                                         [&](const NtffCore &k) { return k.index && int64_t(*k.index) == *n; });
            if (it != p.cores.end())
                u.core = uint8_t(it - p.cores.begin());
            else if (p.cores.size() > 1)
                problems.add("HbmUsageSummaryByType rows whose neuroncore_idx is no physical core of the profile (the "
                             "first core assumed)");
        }
        p.memoryUsage.push_back(std::move(u));
    }
    problems.report(p.diagnostics, c.where());
}

// SbufAllocation: the intervals an SBUF address range is occupied -> a counter of the bytes allocated per
// partition quadrant and physical core, "SBUF allocated (partitions 0-31)" (addresses inclusive: a row
// adds end_address - start_address + 1 bytes from start_ts until end_ts).
void readSbufAllocation(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "SbufAllocation");
    if (!c)
        return;
    const auto *start = c.integer("start_ts");
    const auto *end = c.integer("end_ts");
    const auto *from = c.integer("start_address");
    const auto *to = c.integer("end_address");
    const auto *partition = c.integer("partition");
    const auto *pcore = c.integer("pcore_idx");
    c.note("no SBUF allocation counters");
    RowProblems problems;
    std::map<std::pair<uint8_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> events; // (core, partition) -> (ts, bytes)
    for (size_t row = 0; row < c.rows(); ++row) {
        const auto ts = intAt(start, row), te = intAt(end, row), a = intAt(from, row), b = intAt(to, row);
        const auto part = intAt(partition, row);
        if (!ts || !te || *te < *ts || !a || !b || *b < *a || !part || *part < 0 || *part > 127) {
            problems.add(std::string("SbufAllocation rows without a valid ") +
                         (!ts ? "start_ts" : !te || *te < *ts ? "end_ts (>= start_ts)" : !a ? "start_address" :
                          !b || *b < *a ? "end_address (>= start_address)" : "partition (0..127)") +
                         " (skipped)");
            continue;
        }
        uint8_t core = s.core(intAt(pcore, row), problems);
        if (core >= p.cores.size())
            core = 0;
        auto &list = events[{core, *part}];
        list.emplace_back(*ts, *b - *a + 1);
        list.emplace_back(*te, -(*b - *a + 1));
    }
    for (auto &[key, list] : events) {
        std::sort(list.begin(), list.end()); // a release before an allocation at the same time
        const int64_t first = key.second / 32 * 32;
        NtffCounterSeries &out = series(p, "SBUF allocated (partitions " + std::to_string(first) + "-" + std::to_string(first + 31) + ")",
                                        "bytes", key.first);
        int64_t level = 0;
        for (size_t i = 0; i < list.size(); ++i) {
            level += list[i].second;
            if (i + 1 == list.size() || list[i + 1].first != list[i].first)
                out.samples.emplace_back(list[i].first, double(level));
        }
    }
    s.rowsRead += c.rows();
    problems.report(p.diagnostics, c.where());
}

// ActiveTime: the merged busy intervals per engine and physical core. Lanescope computes the engines'
// active time from the instructions (EngineBreakdown); the table's totals are kept beside it as reported
// values: "neuron_profile.active_time.<engine>" = the sum of duration_ns over the engine's rows (all
// physical cores), "....<engine>.intervals" = their number.
void readActiveTime(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "ActiveTime");
    if (!c)
        return;
    const auto *start = c.integer("start_ts");
    const auto *duration = c.integer("duration_ns");
    const auto *end = c.integer("end_ts");
    const auto *engine = c.text("engine");
    c.note("no active time totals");
    RowProblems problems;
    std::map<std::string, std::pair<int64_t, int64_t>> total; // engine -> (ns, rows)
    for (size_t row = 0; row < c.rows(); ++row) {
        const auto ts = intAt(start, row);
        const int64_t dur = durationOf(duration, end, ts, row);
        const auto e = textAt(engine, row);
        if (!ts || dur < 0 || !e || e->empty()) {
            problems.add(std::string("ActiveTime rows without a valid ") + (!ts ? "start_ts" : dur < 0 ? "duration_ns (or end_ts)" : "engine") +
                         " (skipped)");
            continue;
        }
        std::string name(*e);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
        auto &[ns, rows] = total[name];
        ns += dur;
        ++rows;
    }
    for (const auto &[name, t] : total) {
        p.reportedMetadata.emplace_back("neuron_profile.active_time." + name, std::to_string(t.first));
        p.reportedMetadata.emplace_back("neuron_profile.active_time." + name + ".intervals", std::to_string(t.second));
    }
    s.rowsRead += c.rows();
    problems.report(p.diagnostics, c.where());
}

// Tables the model keeps as reported values, under the names the analyses read from a JSON export:
// TensorInfo as neff_node (the tensor table), Warning as warnings (capture findings), ExecutionInfo.
void readLookupTables(DeviceState &s)
{
    static constexpr std::pair<const char *, const char *> kTables[] = {
        {"TensorInfo", "neuron_profile.neff_node"},
        {"Warning", "neuron_profile.warnings"},
        {"ExecutionInfo", "neuron_profile.execution_info"},
    };
    for (const auto &[table, prefix] : kTables) {
        if (DeviceTable t(s, table); t)
            s.keepRows(t.loaded(), prefix, true);
    }
}

} // namespace lanescope::explorer
