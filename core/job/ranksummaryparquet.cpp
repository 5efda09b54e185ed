#include "ranksummaryparquet.h"

#include "analysis/stepstatistics.h"
#include "io/parquet/parquetfilewriter.h"

#include <algorithm>
#include <optional>
#include <variant>

namespace lanescope {

namespace {

using Value = std::optional<std::variant<int64_t, double, std::string>>;

struct Cell
{
    parquet::ColumnSpec spec;
    Value value;
};

// One list of columns and their values: columns() takes the names and types from an empty summary.
class Row
{
public:
    void integer(const char *name, std::optional<int64_t> v) { add(name, parquet::ColumnType::Int64, v ? Value(*v) : Value()); }
    void real(const char *name, std::optional<double> v) { add(name, parquet::ColumnType::Double, v ? Value(*v) : Value()); }
    void text(const char *name, const std::string &v) { add(name, parquet::ColumnType::String, Value(v)); }
    std::vector<Cell> cells;

private:
    void add(const char *name, parquet::ColumnType type, Value v)
    {
        cells.push_back(Cell{parquet::ColumnSpec{name, type, true}, std::move(v)});
    }
};

std::optional<int64_t> metricInt(const QJsonObject &m, const char *key)
{
    const QJsonValue v = m.value(QLatin1String(key));
    return v.isDouble() ? std::optional<int64_t>(v.toInteger()) : std::nullopt;
}

std::optional<double> metricReal(const QJsonObject &m, const char *key)
{
    const QJsonValue v = m.value(QLatin1String(key));
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

std::vector<Cell> cellsOf(const RankSummary &s)
{
    Row r;
    const auto known = [](int64_t v) { return v >= 0 ? std::optional<int64_t>(v) : std::nullopt; };
    r.integer("rank", known(s.rank));
    r.text("rank_source", s.rankSource);
    r.integer("world_size", known(s.worldSize));
    r.text("backend", s.backend);
    r.integer("process_groups", int64_t(s.processGroups.size()));
    r.text("producer", s.producer);
    r.text("trace_path", s.file.path);
    r.text("trace_name", s.file.name);
    r.integer("trace_bytes", int64_t(s.file.bytes));
    r.text("trace_fingerprint", s.file.fingerprint);
    r.text("trace_format", s.file.format);
    r.integer("start_ns", s.startNs);
    r.integer("end_ns", s.endNs);
    r.integer("span_ns", s.endNs - s.startNs);
    r.integer("base_time_ns", s.baseTimeNs);
    r.integer("first_step_ns", s.firstStepNs);
    r.integer("events", int64_t(s.events));
    r.integer("slices", int64_t(s.slices));

    std::vector<int64_t> steps;
    int64_t stepTotal = 0;
    for (const RankStepTable::Step &st : s.steps) {
        steps.push_back(st.duration);
        stepTotal += st.duration;
    }
    const StepStatistics::Summary stats = StepStatistics::summarize(steps);
    const auto ifSteps = [&](int64_t v) { return steps.empty() ? std::nullopt : std::optional<int64_t>(v); };
    r.integer("steps", int64_t(steps.size()));
    r.integer("step_total_ns", ifSteps(stepTotal));
    r.integer("step_median_ns", ifSteps(stats.median));
    r.integer("step_p90_ns", ifSteps(stats.p90));
    r.integer("step_max_ns", ifSteps(stats.slowest));

    int64_t collectiveNs = 0, collectiveBytes = 0;
    for (const CollectiveInstance &c : s.collectives) {
        collectiveNs += c.duration;
        collectiveBytes += int64_t(c.bytes.value_or(0));
    }
    r.integer("collectives", int64_t(s.collectives.size()));
    r.integer("collective_ns", collectiveNs);
    r.integer("collective_bytes", collectiveBytes);

    const QJsonObject &m = s.metrics;
    r.integer("device_ns", metricInt(m, "device_ns"));
    r.integer("device_total_ns", metricInt(m, "device_total_ns"));
    r.integer("device_busy_ns", metricInt(m, "device_busy_ns"));
    r.integer("device_idle_ns", metricInt(m, "device_idle_ns"));
    r.integer("framework_cpu_ns", metricInt(m, "framework_cpu_ns"));
    r.integer("dma_bytes", metricInt(m, "dma_bytes"));
    r.real("mfu_percent", metricReal(m, "mfu_percent"));
    r.real("hfu_percent", metricReal(m, "hfu_percent"));
    r.real("mbu_percent", metricReal(m, "mbu_percent"));

    std::vector<std::string> rules; // each rule once, in the order of the findings
    for (const Finding &f : s.findings)
        if (std::find(rules.begin(), rules.end(), f.rule) == rules.end())
            rules.push_back(f.rule);
    std::string ruleList;
    for (const std::string &rule : rules)
        ruleList += (ruleList.empty() ? "" : ",") + rule;
    r.integer("findings", int64_t(s.findings.size()));
    r.text("finding_rules", ruleList);
    r.integer("warnings", int64_t(s.warnings.size()));
    r.integer("ops", int64_t(s.ops.total));
    r.integer("kernels", int64_t(s.kernels.total));
    return std::move(r.cells);
}

} // namespace

std::vector<parquet::ColumnSpec> RankSummaryParquet::columns()
{
    std::vector<parquet::ColumnSpec> out;
    for (const Cell &c : cellsOf(RankSummary()))
        out.push_back(c.spec);
    return out;
}

bool RankSummaryParquet::write(const RankSummary &s, const std::string &path, std::string *error,
                               const parquet::WriteOptions &options)
{
    const std::vector<Cell> cells = cellsOf(s);
    std::vector<parquet::ColumnSpec> specs;
    for (const Cell &c : cells)
        specs.push_back(c.spec);
    parquet::FileWriter w;
    if (!w.open(path, specs, options, {{"lanescope.rank_summary.version", std::to_string(RankSummary::kVersion)}}, error))
        return false;
    for (size_t i = 0; i < cells.size(); ++i) {
        parquet::ColumnWriter &col = w.column(i);
        if (!cells[i].value)
            col.addNull();
        else if (const auto *v = std::get_if<int64_t>(&*cells[i].value))
            col.addInt(*v);
        else if (const auto *d = std::get_if<double>(&*cells[i].value))
            col.addReal(*d);
        else
            col.addText(std::get<std::string>(*cells[i].value));
    }
    if (!w.endRow() || !w.close()) {
        *error = w.error();
        return false;
    }
    return true;
}

} // namespace lanescope
