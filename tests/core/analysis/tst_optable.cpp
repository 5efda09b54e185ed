// OpTable: PyTorch key_averages numbers. Ground truth: the key_averages tables PyTorch printed for the
// three generated rmsnorm traces (generation_meta.json); definitions: a hand-computed fixture.
#include "corpus.h"
#include "loadtrace.h"

#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

#include <cmath>
#include <map>

using namespace lanescope;

namespace {

using lanescope::test::load;

const OpTable::Row *findRow(const OpTable::Result &r, const std::string &name, const std::string &shapes = {})
{
    for (const auto &row : r.rows)
        if (row.name == name && row.shapes == shapes)
            return &row;
    return nullptr;
}

// "375.000us" / "1.076ms" / "4.879s" -> ns, and half a unit of the last printed digit (the export's
// rounding) as the tolerance.
bool parseDuration(const QString &text, double &ns, double &tolerance)
{
    static const QRegularExpression re(QStringLiteral("^([0-9]+)\\.([0-9]+)(us|ms|s)$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return false;
    const double scale = m.captured(3) == QLatin1String("us") ? 1e3 : m.captured(3) == QLatin1String("ms") ? 1e6 : 1e9;
    ns = (m.captured(1) + QLatin1Char('.') + m.captured(2)).toDouble() * scale;
    tolerance = 0.5 * scale * std::pow(10.0, -double(m.captured(2).size()));
    return true;
}

struct Expected
{
    qint64 calls = 0;
    double self = 0, total = 0, selfTol = 0, totalTol = 0;
};

} // namespace

class TestOpTable : public QObject
{
    Q_OBJECT
private slots:
    void pytorchGroundTruth_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("naive") << QStringLiteral("rmsnorm_naive.trace.json");
        QTest::newRow("library") << QStringLiteral("rmsnorm_library.trace.json");
        QTest::newRow("fused") << QStringLiteral("rmsnorm_fused.trace.json");
    }

    // Every row PyTorch printed (row_limit 8, grouped by input shape) must match: calls exactly,
    // CPU self and CPU total within the printing's rounding (half a unit of the last digit: 0.5 ns
    // for "us" values, 0.5 us for "ms", 0.5 ms for "s"). The legacy exporter wrote no shapes into the
    // trace, so PyTorch's rows of one name (aten::mul has two shapes) are summed and compared with
    // our by-name row; the tolerance adds up likewise.
    void pytorchGroundTruth()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("generated-torch-cpu/generation_meta.json"));
        QFETCH(QString, file);
        QFile metaFile(lanescope::test::corpusFile(QStringLiteral("generated-torch-cpu/generation_meta.json")));
        QVERIFY(metaFile.open(QIODevice::ReadOnly));
        const QJsonObject meta = QJsonDocument::fromJson(metaFile.readAll()).object();
        const QString table = meta[QStringLiteral("files")].toObject()[file].toObject()[QStringLiteral("key_averages_by_shape")].toString();
        QVERIFY(!table.isEmpty());

        std::map<std::string, Expected> expected;
        double selfTotal = 0, selfTotalTol = 0;
        static const QRegularExpression columns(QStringLiteral("\\s{2,}"));
        for (const QString &line : table.split(QLatin1Char('\n'))) {
            if (line.startsWith(QLatin1String("Self CPU time total: "))) {
                QVERIFY(parseDuration(line.mid(21).trimmed(), selfTotal, selfTotalTol));
                continue;
            }
            const QStringList cells = line.trimmed().split(columns);
            if (cells.size() < 7 || cells[0] == QLatin1String("Name") || cells[0].startsWith(QLatin1Char('-')))
                continue;
            Expected &e = expected[cells[0].toStdString()];
            double v = 0, tol = 0;
            QVERIFY2(parseDuration(cells[2], v, tol), qPrintable(line));
            e.self += v;
            e.selfTol += tol;
            QVERIFY2(parseDuration(cells[4], v, tol), qPrintable(line));
            e.total += v;
            e.totalTol += tol;
            e.calls += cells[6].toLongLong();
        }
        QCOMPARE(expected.size() >= 7, true);
        QVERIFY(selfTotal > 0);

        const auto trace = load(lanescope::test::corpusFile(QStringLiteral("generated-torch-cpu/") + file));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const OpTable::Result result = OpTable::compute(*trace, index, OpTable::Options());
        for (const auto &[name, e] : expected) {
            const OpTable::Row *row = findRow(result, name);
            QVERIFY2(row, name.c_str());
            QCOMPARE(qint64(row->calls), e.calls);
            QVERIFY2(std::abs(double(row->cpuSelf) - e.self) <= e.selfTol,
                     qPrintable(QStringLiteral("%1 self %2 vs %3").arg(QString::fromStdString(name)).arg(row->cpuSelf).arg(e.self)));
            QVERIFY2(std::abs(double(row->cpuTotal) - e.total) <= e.totalTol,
                     qPrintable(QStringLiteral("%1 total %2 vs %3").arg(QString::fromStdString(name)).arg(row->cpuTotal).arg(e.total)));
        }
        QVERIFY(std::abs(double(result.cpuSelfTotal) - selfTotal) <= selfTotalTol);
        // One row's occurrences without the table are the table's (every row of the real trace).
        for (const auto &row : result.rows)
            QCOMPARE(OpTable::occurrences(*trace, index, OpTable::Options(), row.name), row.occurrences);
        // A CPU-only trace has no device time.
        QCOMPARE(result.deviceTime, 0);
    }

    // The fixture's numbers, worked out by hand (ns): see tests/data/optable_fixture.json.
    void definitions()
    {
        const auto trace = load(QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const OpTable::Result r = OpTable::compute(*trace, index, OpTable::Options());
        QCOMPARE(r.rows.size(), size_t(5));
        struct Want
        {
            const char *name;
            uint64_t calls;
            int64_t total, self, devTotal, devSelf, min, max;
            bool runtime;
        };
        const Want want[] = {
            // two steps: 100 - (50 + 20) and 50 - 10; device: 40 + 10 + 20, and 20
            {"ProfilerStep*", 2, 150000, 70000, 90000, 0, 50000, 100000, false},
            // the first linear's child is aten::mm (python_function looked through), the second's
            // children are its two runtime calls; only the second launched work itself
            {"aten::linear", 2, 70000, 30000, 70000, 30000, 20000, 50000, false},
            {"aten::mm", 2, 40000, 32000, 60000, 60000, 10000, 30000, false},
            {"cudaLaunchKernel", 3, 12000, 12000, 0, 0, 3000, 5000, true},
            {"cudaMemcpyAsync", 1, 6000, 6000, 0, 0, 6000, 6000, true},
        };
        for (const Want &w : want) {
            const OpTable::Row *row = findRow(r, w.name);
            QVERIFY2(row, w.name);
            QCOMPARE(row->calls, w.calls);
            QCOMPARE(row->cpuTotal, w.total);
            QCOMPARE(row->cpuSelf, w.self);
            QCOMPARE(row->deviceTotal, w.devTotal);
            QCOMPARE(row->deviceSelf, w.devSelf);
            QCOMPARE(row->cpuMin, w.min);
            QCOMPARE(row->cpuMax, w.max);
            QCOMPARE(row->runtime, w.runtime);
            QCOMPARE(row->occurrences.size(), size_t(w.calls));
        }
        QCOMPARE(r.cpuSelfTotal, 150000);
        QCOMPARE(r.unattributedDevice, 5000); // the "orphan" kernel's correlation matches no runtime call
        QCOMPARE(r.unattributedCount, uint64_t(1));
        QCOMPARE(r.deviceTime, 95000);
        QCOMPARE(findRow(r, "aten::mm")->deviceSelfPercent, 100.0 * 60000 / 95000);
        QCOMPARE(findRow(r, "ProfilerStep*")->cpuTotalPercent, 100.0);
        // default order: CPU total, longest first
        QCOMPARE(r.rows.front().name, std::string("ProfilerStep*"));
    }

    void groupByShapes()
    {
        const auto trace = load(QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        OpTable::Options o;
        o.groupByShapes = true;
        const OpTable::Result r = OpTable::compute(*trace, index, o);
        QCOMPARE(r.rows.size(), size_t(6));
        const OpTable::Row *big = findRow(r, "aten::linear", "[[4, 8], [8, 8]]");
        const OpTable::Row *small = findRow(r, "aten::linear", "[[2, 8], [8, 8]]");
        QVERIFY(big && small);
        QCOMPARE(big->calls, uint64_t(1));
        QCOMPARE(big->cpuSelf, 20000);
        QCOMPARE(big->deviceTotal, 40000);
        QCOMPARE(small->cpuSelf, 10000);
        QCOMPARE(small->deviceSelf, 30000);
        QVERIFY(findRow(r, "ProfilerStep*", "[]")); // no Input Dims: PyTorch's empty shape list
        QCOMPARE(findRow(r, "aten::mm", "[[4, 8], [8, 8]]")->calls, uint64_t(2));
    }

    void timeRange_data()
    {
        QTest::addColumn<qint64>("t0");
        QTest::addColumn<qint64>("t1");
        QTest::addColumn<qint64>("stepCalls");
        QTest::addColumn<qint64>("mmCalls");
        QTest::addColumn<qint64>("unattributed");
        QTest::newRow("first step") << qint64(0) << qint64(150000) << qint64(1) << qint64(1) << qint64(0);
        QTest::newRow("second step") << qint64(150000) << qint64(300000) << qint64(1) << qint64(1) << qint64(5000);
        QTest::newRow("everything") << qint64(-1) << qint64(1000000) << qint64(2) << qint64(2) << qint64(5000);
        QTest::newRow("empty gap") << qint64(120000) << qint64(130000) << qint64(0) << qint64(0) << qint64(0);
        QTest::newRow("start is inclusive") << qint64(210000) << qint64(210000) << qint64(0) << qint64(1) << qint64(0);
    }

    void timeRange()
    {
        QFETCH(qint64, t0);
        QFETCH(qint64, t1);
        QFETCH(qint64, stepCalls);
        QFETCH(qint64, mmCalls);
        QFETCH(qint64, unattributed);
        const auto trace = load(QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        OpTable::Options o;
        o.hasRange = true;
        o.t0 = t0;
        o.t1 = t1;
        const OpTable::Result r = OpTable::compute(*trace, index, o);
        const OpTable::Row *step = findRow(r, "ProfilerStep*");
        const OpTable::Row *mm = findRow(r, "aten::mm");
        QCOMPARE(step ? qint64(step->calls) : 0, stepCalls);
        QCOMPARE(mm ? qint64(mm->calls) : 0, mmCalls);
        QCOMPARE(r.unattributedDevice, unattributed);
        QCOMPARE(OpTable::occurrences(*trace, index, o, "ProfilerStep*"), step ? step->occurrences : std::vector<uint32_t>());
        for (const auto &row : r.rows)
            for (uint32_t id : row.occurrences) {
                const int64_t s = trace->slice(SliceId(id)).start;
                QVERIFY(s >= t0 && s <= t1);
            }
    }

    void sortColumns_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("column");
        QTest::newRow("ours") << QStringLiteral("device_self_ns") << int(OpTable::Column::DeviceSelf);
        QTest::newRow("self_cpu_time_total") << QStringLiteral("self_cpu_time_total") << int(OpTable::Column::CpuSelf);
        QTest::newRow("cpu_time_total") << QStringLiteral("cpu_time_total") << int(OpTable::Column::CpuTotal);
        QTest::newRow("self_cuda_time_total") << QStringLiteral("self_cuda_time_total") << int(OpTable::Column::DeviceSelf);
        QTest::newRow("self_privateuse1_time_total") << QStringLiteral("self_privateuse1_time_total") << int(OpTable::Column::DeviceSelf);
        QTest::newRow("privateuse1_time_total") << QStringLiteral("privateuse1_time_total") << int(OpTable::Column::DeviceTotal);
        QTest::newRow("count") << QStringLiteral("count") << int(OpTable::Column::Calls);
        QTest::newRow("unknown") << QStringLiteral("bogus") << -1;
    }

    void sortColumns()
    {
        QFETCH(QString, name);
        QFETCH(int, column);
        const auto c = OpTable::columnFromName(name.toStdString());
        QCOMPARE(c ? int(*c) : -1, column);
        for (int i = 0; i < int(OpTable::Column::Count); ++i) // our own names round-trip
            QCOMPARE(int(*OpTable::columnFromName(OpTable::columnName(OpTable::Column(i)))), i);
    }

    void sortOrder()
    {
        const auto trace = load(QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json"));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        OpTable::Options o;
        o.sortBy = OpTable::Column::DeviceSelf;
        const OpTable::Result r = OpTable::compute(*trace, index, o);
        QCOMPARE(r.rows[0].name, std::string("aten::mm"));
        QCOMPARE(r.rows[1].name, std::string("aten::linear"));
        for (size_t i = 1; i < r.rows.size(); ++i)
            QVERIFY(r.rows[i - 1].deviceSelf >= r.rows[i].deviceSelf);
        std::vector<OpTable::Row> rows = r.rows;
        OpTable::sort(rows, OpTable::Column::Name);
        for (size_t i = 1; i < rows.size(); ++i)
            QVERIFY(rows[i - 1].name <= rows[i].name);
    }

    void foldName_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("step") << QStringLiteral("ProfilerStep#12") << QStringLiteral("ProfilerStep*");
        QTest::newRow("no number") << QStringLiteral("ProfilerStep#") << QStringLiteral("ProfilerStep#");
        QTest::newRow("suffix") << QStringLiteral("ProfilerStep#1x") << QStringLiteral("ProfilerStep#1x");
        QTest::newRow("op") << QStringLiteral("aten::mm") << QStringLiteral("aten::mm");
    }

    void foldName()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        const std::string s = in.toStdString();
        QCOMPARE(QString::fromStdString(std::string(OpTable::foldName(s))), out);
    }
};

QTEST_GUILESS_MAIN(TestOpTable)
#include "tst_optable.moc"
