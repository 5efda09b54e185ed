// DurationStats (core/analysis): per-name duration statistics on a Kineto trace written the way
// PyTorch's profiler writes one (X events, ts/dur in microseconds) and read by the real importer,
// checked against numbers worked out by hand; on the corpus, counts and totals equal the kernel and
// operator tables for the same name.
#include "corpus.h"
#include "loadtrace.h"

#include "analysis/durationstats.h"
#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "model/trace.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace lanescope;

namespace {

// aten::mul on thread 1 at ts 1000 + 100 i us, durations 3,7,1,10,5,2,9,4,8,6 us (i = 0..9);
// aten::mul_ once (4 us) and aten::add once (7 us) on thread 2; a kernel on stream 7.
constexpr int kMulUs[] = {3, 7, 1, 10, 5, 2, 9, 4, 8, 6};

QByteArray kinetoJson()
{
    QByteArray events;
    const auto add = [&](const char *name, const char *cat, int tid, int64_t tsUs, int durUs) {
        if (!events.isEmpty())
            events += ",\n";
        events += QStringLiteral(R"(  {"ph": "X", "cat": "%1", "name": "%2", "pid": 1, "tid": %3, "ts": %4.000, "dur": %5.000, "args": {"External id": 1}})")
                      .arg(QLatin1String(cat), QLatin1String(name))
                      .arg(tid)
                      .arg(tsUs)
                      .arg(durUs)
                      .toUtf8();
    };
    for (int i = 0; i < 10; ++i)
        add("aten::mul", "cpu_op", 1, 1000 + 100 * i, kMulUs[i]);
    add("aten::mul_", "cpu_op", 2, 1000, 4);
    add("aten::add", "cpu_op", 2, 1200, 7);
    add("void at::native::vectorized_elementwise_kernel<4>", "kernel", 7, 1300, 2);
    return "{\n\"schemaVersion\": 1,\n\"traceEvents\": [\n" + events + "\n]}\n";
}

std::shared_ptr<const Trace> loadFixture(QTemporaryDir &dir)
{
    QFile f(dir.filePath(QStringLiteral("stats.pt.trace.json")));
    if (!f.open(QIODevice::WriteOnly))
        return nullptr;
    f.write(kinetoJson());
    f.close();
    return lanescope::test::load(f.fileName());
}

DurationStats::Options options(const QString &pattern)
{
    DurationStats::Options o;
    o.pattern = pattern;
    return o;
}

// Exactly `name`, as the GUI asks for a selected slice's name.
DurationStats::Options exactly(const std::string &name)
{
    return options(QLatin1Char('^') + QRegularExpression::escape(QString::fromStdString(name)) + QLatin1Char('$'));
}

const DurationStats::Row *row(const DurationStats::Result &r, const std::string &name)
{
    for (const auto &x : r.rows)
        if (x.name == name)
            return &x;
    return nullptr;
}

void checkHistogram(const DurationStats::Row &r)
{
    QVERIFY(!r.histogram.empty());
    uint64_t sum = 0;
    for (size_t i = 0; i < r.histogram.size(); ++i) {
        sum += r.histogram[i].count;
        QVERIFY(r.histogram[i].from < r.histogram[i].to);
        if (i)
            QCOMPARE(r.histogram[i].from, r.histogram[i - 1].to);
    }
    QCOMPARE(sum, r.count);
    QCOMPARE(r.histogram.front().from, r.min == 0 ? 0 : r.min);
    QCOMPARE(r.histogram.back().to, r.max + 1);
}

} // namespace

class TestDurationStats : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::shared_ptr<const Trace> m_trace;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_trace = loadFixture(m_dir);
        QVERIFY(m_trace);
    }

    void nearestRank()
    {
        const std::vector<int64_t> ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        QCOMPARE(DurationStats::nearestRank(ten, 50), int64_t(5));  // rank ceil(5) = 5
        QCOMPARE(DurationStats::nearestRank(ten, 90), int64_t(9));  // rank ceil(9) = 9, not 10
        QCOMPARE(DurationStats::nearestRank(ten, 99), int64_t(10)); // rank ceil(9.9) = 10
        QCOMPARE(DurationStats::nearestRank(ten, 100), int64_t(10));
        QCOMPARE(DurationStats::nearestRank(ten, 1), int64_t(1));   // rank ceil(0.1) = 1
        const std::vector<int64_t> one = {42};
        QCOMPARE(DurationStats::nearestRank(one, 50), int64_t(42));
        QCOMPARE(DurationStats::nearestRank(one, 99), int64_t(42));
        const std::vector<int64_t> four = {10, 20, 30, 40};
        QCOMPARE(DurationStats::nearestRank(four, 50), int64_t(20)); // rank 2: the lower middle
        QCOMPARE(DurationStats::nearestRank(four, 51), int64_t(30)); // rank ceil(2.04) = 3
    }

    void bins()
    {
        auto b = DurationStats::bins(1000, 9999, 1);
        QCOMPARE(b.size(), size_t(1));
        QCOMPARE(b[0].from, int64_t(1000));
        QCOMPARE(b[0].to, int64_t(10000));
        b = DurationStats::bins(1, 100, 2); // edges 1, round(sqrt(101)) = 10, 101
        QCOMPARE(b.size(), size_t(2));
        QCOMPARE(b[0].to, int64_t(10));
        QCOMPARE(b[1].from, int64_t(10));
        QCOMPARE(b[1].to, int64_t(101));
        b = DurationStats::bins(0, 99, 2); // [0, 1) for zero, then 1, 10, 100
        QCOMPARE(b.size(), size_t(3));
        QCOMPARE(b[0].from, int64_t(0));
        QCOMPARE(b[0].to, int64_t(1));
        QCOMPARE(b[1].to, int64_t(10));
        QCOMPARE(b[2].to, int64_t(100));
        b = DurationStats::bins(5, 5, 40); // one value: one bin, the rounded-away ones merged
        QCOMPARE(b.size(), size_t(1));
        QCOMPARE(b[0].from, int64_t(5));
        QCOMPARE(b[0].to, int64_t(6));
        b = DurationStats::bins(1000, 1000000, 30);
        QCOMPARE(b.size(), size_t(30));
        QVERIFY(std::abs(double(b[10].from) - 10000.0) <= 1); // a decade every 10 bins
        QVERIFY(std::abs(double(b[20].from) - 100000.0) <= 1);
    }

    void handComputed()
    {
        const auto &trace = m_trace;
        DurationStats::Options o = options(QStringLiteral("^aten::mul$"));
        const auto r = DurationStats::compute(*trace, o);
        QVERIFY(r.ok());
        QCOMPARE(r.rows.size(), size_t(1));
        const auto &m = r.rows.front();
        QCOMPARE(m.name, std::string("aten::mul"));
        QCOMPARE(m.count, uint64_t(10));
        QCOMPARE(m.total, int64_t(55000));
        QCOMPARE(m.mean, 5500.0);
        QCOMPARE(m.median, int64_t(5000)); // rank 5 of 1..10 us
        QCOMPARE(m.p90, int64_t(9000));    // rank 9
        QCOMPARE(m.p99, int64_t(10000));   // rank ceil(9.9) = 10
        QCOMPARE(m.min, int64_t(1000));
        QCOMPARE(m.max, int64_t(10000));
        // Population standard deviation of 1..10 us: sqrt((10^2 - 1) / 12) us = 2872.28 ns.
        QVERIFY(std::abs(m.stddev - 1000.0 * std::sqrt(99.0 / 12.0)) < 1e-6);
        QCOMPARE(trace->slice(m.fastest).duration, int64_t(1000));
        QCOMPARE(trace->slice(m.fastest).start - trace->startNs(), int64_t(200000)); // i = 2
        QCOMPARE(trace->slice(m.slowest).duration, int64_t(10000));
        QCOMPARE(trace->slice(m.slowest).start - trace->startNs(), int64_t(300000)); // i = 3
        QCOMPARE(m.occurrences.size(), size_t(10));
        checkHistogram(m);
        // The 1-3 us occurrences in time order: i = 0 (3 us), 2 (1 us), 5 (2 us).
        const auto ids = DurationStats::binSlices(*trace, m, 1000, 3001);
        QCOMPARE(ids.size(), size_t(3));
        QCOMPARE(trace->slice(SliceId(ids[0])).duration, int64_t(3000));
        QCOMPARE(trace->slice(SliceId(ids[1])).duration, int64_t(1000));
        QCOMPARE(trace->slice(SliceId(ids[2])).duration, int64_t(2000));
        // Every bin's slices are its count.
        for (const auto &b : m.histogram)
            QCOMPARE(uint64_t(DurationStats::binSlices(*trace, m, b.from, b.to).size()), b.count);
    }

    void singleValue()
    {
        const auto &trace = m_trace;
        DurationStats::Options o = options(QStringLiteral("aten::add"));
        const auto r = DurationStats::compute(*trace, o);
        QCOMPARE(r.rows.size(), size_t(1));
        const auto &a = r.rows.front();
        QCOMPARE(a.count, uint64_t(1));
        QCOMPARE(a.total, int64_t(7000));
        QCOMPARE(a.median, int64_t(7000));
        QCOMPARE(a.p90, int64_t(7000));
        QCOMPARE(a.p99, int64_t(7000));
        QCOMPARE(a.min, int64_t(7000));
        QCOMPARE(a.max, int64_t(7000));
        QCOMPARE(a.stddev, 0.0);
        QCOMPARE(a.fastest, a.slowest);
        QCOMPARE(a.histogram.size(), size_t(1));
        QCOMPARE(a.histogram[0].from, int64_t(7000));
        QCOMPARE(a.histogram[0].to, int64_t(7001));
        QCOMPARE(a.histogram[0].count, uint64_t(1));
    }

    void rangeRestriction()
    {
        const auto &trace = m_trace;
        DurationStats::Options o = options(QStringLiteral("^aten::mul$"));
        o.hasRange = true;
        o.t0 = trace->startNs();          // i = 0..4 start in [t0, t1); i = 5 starts at t1: out
        o.t1 = trace->startNs() + 500000;
        const auto r = DurationStats::compute(*trace, o);
        QCOMPARE(r.rows.size(), size_t(1));
        const auto &m = r.rows.front();
        QCOMPARE(m.count, uint64_t(5)); // 3, 7, 1, 10, 5 us
        QCOMPARE(m.total, int64_t(26000));
        QCOMPARE(m.median, int64_t(5000)); // rank ceil(2.5) = 3 of 1, 3, 5, 7, 10
        QCOMPARE(m.p90, int64_t(10000));   // rank ceil(4.5) = 5
        QCOMPARE(m.min, int64_t(1000));
        QCOMPARE(m.max, int64_t(10000));
        checkHistogram(m);
        o.t0 = trace->startNs() + 2000000; // nothing starts there
        o.t1 = o.t0 + 1000;
        QVERIFY(DurationStats::compute(*trace, o).rows.empty());
    }

    void severalNames()
    {
        const auto &trace = m_trace;
        DurationStats::Options o = options(QStringLiteral("^aten::(mul|add)"));
        const auto r = DurationStats::compute(*trace, o);
        QVERIFY(r.ok());
        QCOMPARE(r.rows.size(), size_t(3)); // aten::mul, aten::add, aten::mul_ by total
        QCOMPARE(r.rows[0].name, std::string("aten::mul"));
        QCOMPARE(r.rows[1].name, std::string("aten::add"));
        QCOMPARE(r.rows[2].name, std::string("aten::mul_"));
        QCOMPARE(r.rows[2].total, int64_t(4000));
        o.pattern = QStringLiteral("ATEN::MUL");
        QVERIFY(DurationStats::compute(*trace, o).rows.empty()); // case-sensitive by default
        o.caseSensitive = false;
        QCOMPARE(DurationStats::compute(*trace, o).rows.size(), size_t(2));
        o.pattern = QStringLiteral("elementwise_kernel");
        const auto k = DurationStats::compute(*trace, o);
        QCOMPARE(k.rows.size(), size_t(1));
        QCOMPARE(k.rows[0].total, int64_t(2000));
    }

    void tracks()
    {
        const auto &trace = m_trace;
        DurationStats::Options o = options(QStringLiteral("^aten::"));
        for (uint32_t t = 0; t < trace->tracks().size(); ++t)
            if (trace->track(TrackId(t)).externalId == 2)
                o.tracks.push_back(TrackId(t));
        QCOMPARE(o.tracks.size(), size_t(1));
        const auto r = DurationStats::compute(*trace, o);
        QCOMPARE(r.rows.size(), size_t(2)); // thread 2 only: aten::add, aten::mul_
        QVERIFY(!row(r, "aten::mul"));
    }

    void badRegex()
    {
        const auto &trace = m_trace;
        DurationStats::Options o = options(QStringLiteral("aten::(mul"));
        const auto r = DurationStats::compute(*trace, o);
        QVERIFY(!r.ok());
        QVERIFY(r.rows.empty());
        QVERIFY2(r.error.contains(QStringLiteral("aten::(mul")), qPrintable(r.error));
    }

    void corpusAgreesWithTables_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("kineto resnet50") << QStringLiteral("kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz");
        QTest::newRow("b200") << QStringLiteral("tracelens/b200_eager_trace.json.gz");
        QTest::newRow("neuron-profile json") << QStringLiteral("neuron-profile-json/profile_128x128x256.json");
    }

    // For the busiest kernels / opcodes and ops: the same count and total as the kernel and op tables.
    void corpusAgreesWithTables()
    {
        QFETCH(QString, file);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const auto trace = lanescope::test::load(lanescope::test::corpusFile(file));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const auto kernels = KernelTable::compute(*trace, index, KernelTable::Options());
        QVERIFY(!kernels.rows.empty());
        int compared = 0;
        for (size_t i = 0; i < std::min<size_t>(3, kernels.rows.size()); ++i) {
            const auto &k = kernels.rows[i];
            if (k.kind == LaunchIndex::WorkKind::NeffExecution)
                continue; // an execution spans a NeuronCore group, not one slice
            const auto r = DurationStats::compute(*trace, exactly(k.name));
            QCOMPARE(r.rows.size(), size_t(1));
            QCOMPARE(r.rows[0].count, k.count);
            QCOMPARE(r.rows[0].total, k.total);
            QCOMPARE(r.rows[0].min, k.min);
            QCOMPARE(r.rows[0].max, k.max);
            checkHistogram(r.rows[0]);
            ++compared;
        }
        QVERIFY(compared > 0);
        const auto ops = OpTable::compute(*trace, index, OpTable::Options());
        for (size_t i = 0; i < std::min<size_t>(3, ops.rows.size()); ++i) {
            const auto &op = ops.rows[i];
            if (op.name.find('*') != std::string::npos)
                continue; // ProfilerStep* folds ProfilerStep#N
            const auto r = DurationStats::compute(*trace, exactly(op.name));
            QCOMPARE(r.rows.size(), size_t(1));
            // Statistics count every slice of the name; the op table its op slices only. The rest
            // (e.g. the gpu_user_annotation PyTorch writes on the stream under the same name) add up.
            uint64_t others = 0;
            int64_t otherTotal = 0;
            for (const uint32_t id : r.rows[0].occurrences)
                if (index.role(SliceId(id)) != LaunchIndex::Role::FrameworkOp && index.role(SliceId(id)) != LaunchIndex::Role::Runtime) {
                    ++others;
                    otherTotal += trace->slice(SliceId(id)).duration;
                }
            QCOMPARE(r.rows[0].count, op.calls + others);
            QCOMPARE(r.rows[0].total, op.cpuTotal + otherTotal);
        }
    }
};

QTEST_GUILESS_MAIN(TestDurationStats)
#include "tst_durationstats.moc"
