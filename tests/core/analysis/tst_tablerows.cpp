// TableRows: the row description of each table. The keys are the documented ones (README,
// docs/sqlite-schema.md) in each output, unique, and the accessors return the rows' own numbers.
#include "loadtrace.h"

#include "analysis/launchindex.h"
#include "analysis/tablerows.h"

#include <QtTest>

#include <set>

using namespace lanescope;
using lanescope::test::load;

namespace {

template <typename Row> QStringList keys(const RowDescription<Row> &d, ColumnOutput out)
{
    QStringList k;
    for (const auto &c : d)
        if (c.in(out))
            k << QLatin1String(c.key);
    return k;
}

template <typename Row> bool unique(const RowDescription<Row> &d)
{
    std::set<std::string> seen;
    for (const auto &c : d)
        if (!seen.insert(c.key).second)
            return false;
    return true;
}

QStringList split(const char *text) { return QString::fromLatin1(text).split(QLatin1Char(' ')); }

} // namespace

class TestTableRows : public QObject
{
    Q_OBJECT

private slots:
    void documentedKeys()
    {
        const QStringList opNumbers = split("calls cpu_total_ns cpu_self_ns cpu_avg_ns cpu_min_ns cpu_max_ns device_total_ns "
                                            "device_self_ns device_avg_ns cpu_self_percent cpu_total_percent "
                                            "device_self_percent device_total_percent device_flops_total device_flops_self "
                                            "mfu_percent dma_bytes_total dma_bytes_self");
        QCOMPARE(keys(TableRows::ops(), OutJson), QStringList({QStringLiteral("name"), QStringLiteral("kind")}) + opNumbers);
        QCOMPARE(keys(TableRows::ops(true), OutJson),
                 QStringList({QStringLiteral("name"), QStringLiteral("input_shapes"), QStringLiteral("kind")}) + opNumbers);
        // docs/sqlite-schema.md, table ops and engines, in column order.
        QCOMPARE(keys(TableRows::ops(), OutSqlite), QStringList({QStringLiteral("name"), QStringLiteral("runtime")}) + opNumbers);
        QCOMPARE(keys(TableRows::engines(), OutSqlite),
                 split("core_group_id core engine instruction_count semaphore_wait_count semaphore_wait_time_ns "
                       "instruction_time_ns active_time_ns active_interval_count active_percent idle_time_ns "
                       "idle_gap_count clock_ghz"));
        QCOMPARE(keys(TableRows::engines(), OutJson),
                 split("core engine instruction_count semaphore_wait_count semaphore_wait_time_ns instruction_time_ns "
                       "active_time_ns active_percent idle_time_ns idle_gap_count clock_ghz"));
        QCOMPARE(keys(TableRows::kernels(), OutJson),
                 split("name kind count total_ns mean_ns min_ns max_ns percent launched_by launchers unattributed"));
        QCOMPARE(keys(TableRows::devices(), OutCsv),
                 split("device total_ns busy_ns idle_ns compute_ns memcpy_ns busy_percent work"));
        QCOMPARE(keys(TableRows::dmaQueues(), OutJson),
                 split("core queue bytes active_time_ns active_percent packet_count throughput_bytes_per_s dma_engine dma_queue"));
        QCOMPARE(keys(TableRows::cores(), OutJson),
                 split("core dma_bytes dma_active_time_ns mfu_percent hfu_percent peak_flops_per_s flops_note"));
        // The derived tables of the file exports (docs/sqlite-schema.md) have the --json keys, in order.
        QCOMPARE(keys(TableRows::kernels(), OutSqlite), keys(TableRows::kernels(), OutJson));
        QCOMPARE(keys(TableRows::devices(), OutSqlite), keys(TableRows::devices(), OutJson));
        QCOMPARE(keys(TableRows::dmaQueues(), OutSqlite), keys(TableRows::dmaQueues(), OutJson));
        QCOMPARE(keys(TableRows::tensors(), OutSqlite), keys(TableRows::tensors(), OutJson));
        QCOMPARE(keys(TableRows::collectives(), OutSqlite),
                 split("rank collective process_group group_size dtype message_bytes count total_ns median_ns max_ns "
                       "min_ns p25_ns p75_ns algbw_bytes_per_s busbw_bytes_per_s"));
        QCOMPARE(keys(TableRows::collectives(), OutSqlite), keys(TableRows::collectives(), OutJson));
        QCOMPARE(keys(TableRows::diffRows(), OutJson), split("name kind a_ns b_ns delta_ns delta_pct a_calls b_calls"));
        QVERIFY(unique(TableRows::ops(true)) && unique(TableRows::engines()) && unique(TableRows::kernels())
                && unique(TableRows::devices()) && unique(TableRows::dmaQueues()) && unique(TableRows::cores())
                && unique(TableRows::engineDiffRows()));
        for (const auto &c : TableRows::ops(true))
            QVERIFY2(c.header && *c.header && c.unit && c.get, c.key);
    }

    // The accessors return the rows' own numbers (tests/data/optable_fixture.json, hand-checked in tst_optable).
    void opsValues()
    {
        const auto trace = load(QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"));
        QVERIFY(trace);
        const OpTable::Result result = OpTable::compute(*trace, LaunchIndex::build(*trace), OpTable::Options());
        QVERIFY(!result.rows.empty());
        const auto &d = TableRows::ops();
        for (const OpTable::Row &r : result.rows) {
            const auto cell = [&](const char *key) {
                for (const auto &c : d)
                    if (std::string_view(c.key) == key)
                        return c.get(r);
                return Cell();
            };
            QCOMPARE(std::get<std::string>(cell("name")), r.name);
            QCOMPARE(std::get<std::string>(cell("kind")), std::string(r.runtime ? "runtime" : "op"));
            QCOMPARE(std::get<int64_t>(cell("runtime")), int64_t(r.runtime));
            QCOMPARE(std::get<int64_t>(cell("calls")), int64_t(r.calls));
            QCOMPARE(std::get<int64_t>(cell("cpu_self_ns")), r.cpuSelf);
            QCOMPARE(std::get<int64_t>(cell("device_total_ns")), r.deviceTotal);
            QCOMPARE(std::get<double>(cell("cpu_avg_ns")), r.cpuAvg());
            QCOMPARE(std::get<double>(cell("device_self_percent")), r.deviceSelfPercent);
        }
    }

    void optionalCells()
    {
        EngineBreakdownRow e;
        e.core = GroupId(UINT32_MAX);
        const auto &d = TableRows::engines();
        QVERIFY(std::holds_alternative<std::monostate>(d.front().get(e))); // core_group_id NULL
        QVERIFY(std::holds_alternative<std::monostate>(d.back().get(e)));  // clock_ghz unknown
        e.clockGHz = 1.4;
        QCOMPARE(std::get<double>(d.back().get(e)), 1.4);
        QVERIFY(!d.front().notNull && !d.back().notNull && d[1].notNull);
        DiffRow added;
        added.bNs = 5;
        QVERIFY(std::holds_alternative<std::nullptr_t>(TableRows::roundedPercent(added.deltaPct())));
        QCOMPARE(std::get<double>(TableRows::roundedPercent(12.34567)), 12.346);
    }
};

QTEST_GUILESS_MAIN(TestTableRows)
#include "tst_tablerows.moc"
