// ProfileDiff: rows joined by name and sorted by regression, totals per metric, equality with the
// single-profile tables, the CI gate.
#include "analysis/enginebreakdown.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "analysis/profilediff.h"
#include "corpus.h"
#include "io/traceloader.h"

#include <QtTest>

using namespace lanescope;

namespace {

std::shared_ptr<const Trace> load(const QString &path)
{
    LoadResult r = TraceLoader::load(path.toStdString());
    if (!r.ok())
        qFatal("cannot load %s: %s", qPrintable(path), r.error.c_str());
    return r.trace;
}

std::shared_ptr<const Trace> data(const char *name)
{
    return load(QStringLiteral(LANESCOPE_TEST_DATA "/diff/") + QLatin1String(name));
}

const DiffRow *row(const std::vector<DiffRow> &rows, std::string_view name)
{
    for (const DiffRow &r : rows)
        if (r.name == name)
            return &r;
    return nullptr;
}

} // namespace

class TestProfileDiff : public QObject
{
    Q_OBJECT
private slots:
    void deviceMetric();
    void cpuAndWallMetrics();
    void identicalInputsGiveZeroDeltas();
    void joinKeepsOneSidedRows();
    void gate();
    void opRowsEqualTheOpTable();
    void engineRowsEqualTheBreakdown();
};

void TestProfileDiff::deviceMetric()
{
    // a.json: gemm 200 us launched by aten::linear, relu_kernel 50 us by aten::relu; b.json: gemm 260 us.
    const auto a = data("a.json"), b = data("b.json");
    const ProfileDiffResult d = ProfileDiff::compute(*a, *b, {});
    QCOMPARE(d.total.aNs, int64_t(250000));
    QCOMPARE(d.total.bNs, int64_t(310000));
    QCOMPARE(*d.total.deltaPct(), 24.0);
    QVERIFY(!d.ops.empty());
    QCOMPARE(d.ops.front().name, std::string("aten::linear")); // the largest regression first
    QCOMPARE(d.ops.front().aNs, int64_t(200000));
    QCOMPARE(d.ops.front().bNs, int64_t(260000));
    QCOMPARE(*d.ops.front().deltaPct(), 30.0);
    const DiffRow *relu = row(d.ops, "aten::relu");
    QVERIFY(relu);
    QCOMPARE(relu->deltaNs(), int64_t(0));
    QCOMPARE(relu->aCalls, uint64_t(1));
    const DiffRow *gemm = row(d.kernels, "gemm");
    QVERIFY(gemm);
    QCOMPARE(gemm->aNs, int64_t(200000));
    QCOMPARE(gemm->bNs, int64_t(260000));
    QCOMPARE(gemm->kind, std::string("kernel"));
    // Sorted by delta, descending.
    for (size_t i = 1; i < d.ops.size(); ++i)
        QVERIFY(d.ops[i - 1].deltaNs() >= d.ops[i].deltaNs());
    QVERIFY(d.engines.empty()); // no NeuronCore in a GPU trace
}

void TestProfileDiff::cpuAndWallMetrics()
{
    const auto a = data("a.json"), b = data("b.json");
    ProfileDiff::Options o;
    o.metric = DiffMetric::Wall;
    const ProfileDiffResult wall = ProfileDiff::compute(*a, *b, o);
    QCOMPARE(wall.total.aNs, a->endNs() - a->startNs());
    const DiffRow *linear = row(wall.ops, "aten::linear");
    QCOMPARE(linear->aNs, int64_t(300000)); // CPU total (inclusive)
    QCOMPARE(linear->bNs, int64_t(330000));
    o.metric = DiffMetric::Cpu;
    const ProfileDiffResult cpu = ProfileDiff::compute(*a, *b, o);
    linear = row(cpu.ops, "aten::linear");
    QCOMPARE(linear->aNs, int64_t(290000)); // CPU self: 300 us minus the 10 us launch
    QCOMPARE(linear->bNs, int64_t(320000));
    const LaunchIndex index = LaunchIndex::build(*a);
    QCOMPARE(cpu.total.aNs, OpTable::compute(*a, index, {}).cpuSelfTotal);
}

void TestProfileDiff::identicalInputsGiveZeroDeltas()
{
    const auto a = data("a.json"), b = data("a.json");
    for (DiffMetric m : {DiffMetric::Device, DiffMetric::Cpu, DiffMetric::Wall}) {
        ProfileDiff::Options o;
        o.metric = m;
        const ProfileDiffResult d = ProfileDiff::compute(*a, *b, o);
        QCOMPARE(d.total.deltaNs(), int64_t(0));
        for (const DiffRow &r : d.ops) {
            QCOMPARE(r.deltaNs(), int64_t(0));
            QCOMPARE(r.aCalls, r.bCalls);
        }
        for (const DiffRow &r : d.kernels)
            QCOMPARE(r.deltaNs(), int64_t(0));
        QVERIFY(!ProfileDiff::gate(d, 0.0, 0).failed);
    }
}

void TestProfileDiff::joinKeepsOneSidedRows()
{
    const std::vector<DiffRow> a = {{"x", "op", 100, 0, 1, 0}, {"gone", "op", 50, 0, 2, 0}};
    const std::vector<DiffRow> b = {{"x", "op", 90, 0, 1, 0}, {"new", "op", 70, 0, 3, 0}};
    const std::vector<DiffRow> j = ProfileDiff::join(a, b);
    QCOMPARE(j.size(), size_t(3));
    QCOMPARE(j[0].name, std::string("new"));
    QVERIFY(!j[0].deltaPct().has_value());
    QCOMPARE(j[0].bCalls, uint64_t(3));
    QCOMPARE(j[1].name, std::string("x"));
    QCOMPARE(*j[1].deltaPct(), -10.0);
    QCOMPARE(j[2].name, std::string("gone"));
    QCOMPARE(*j[2].deltaPct(), -100.0);
}

void TestProfileDiff::gate()
{
    const auto a = data("a.json"), b = data("b.json");
    const ProfileDiffResult d = ProfileDiff::compute(*a, *b, {});
    DiffGateResult g = ProfileDiff::gate(d, 25.0, 0); // total +24 %, aten::linear +30 %
    QVERIFY(g.failed);
    QVERIFY(!g.totalSlower);
    QCOMPARE(g.slowerRows.size(), size_t(1));
    QCOMPARE(g.slowerRows[0]->name, std::string("aten::linear"));
    g = ProfileDiff::gate(d, 35.0, 0);
    QVERIFY(!g.failed);
    g = ProfileDiff::gate(d, 20.0, 300000); // linear (260 us) is below --min-time; the total is not
    QVERIFY(g.failed);
    QVERIFY(g.totalSlower);
    QVERIFY(g.slowerRows.empty());
    // A row new in B counts as slower once it is above --min-time.
    ProfileDiffResult synthetic;
    synthetic.ops = ProfileDiff::join({}, {{"new", "op", 500, 0, 1, 0}});
    QVERIFY(ProfileDiff::gate(synthetic, 1000.0, 100).failed);
    QVERIFY(!ProfileDiff::gate(synthetic, 1000.0, 1000).failed);
}

void TestProfileDiff::opRowsEqualTheOpTable()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("hta/trace_compare__base__base.json.gz"));
    const auto a = load(test::corpusFile(QStringLiteral("hta/trace_compare__base__base.json.gz")));
    const auto b = load(test::corpusFile(QStringLiteral("hta/trace_compare__test__test.json.gz")));
    const ProfileDiffResult d = ProfileDiff::compute(*a, *b, {});
    const OpTable::Result ta = OpTable::compute(*a, LaunchIndex::build(*a), {});
    const OpTable::Result tb = OpTable::compute(*b, LaunchIndex::build(*b), {});
    QVERIFY(!ta.rows.empty());
    QCOMPARE(d.ops.size() >= std::max(ta.rows.size(), tb.rows.size()), true);
    for (const OpTable::Row &r : ta.rows) {
        const DiffRow *dr = row(d.ops, r.name);
        QVERIFY2(dr, r.name.c_str());
        QCOMPARE(dr->aNs, r.deviceSelf);
        QCOMPARE(dr->aCalls, r.calls);
    }
    for (const OpTable::Row &r : tb.rows) {
        const DiffRow *dr = row(d.ops, r.name);
        QVERIFY2(dr, r.name.c_str());
        QCOMPARE(dr->bNs, r.deviceSelf);
        QCOMPARE(dr->bCalls, r.calls);
    }
}

void TestProfileDiff::engineRowsEqualTheBreakdown()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json/profile_128x128x256.ntff"));
    const auto a = load(test::corpusFile(QStringLiteral("neuron-profile-json/profile_128x128x256.ntff")));
    const auto b = load(test::corpusFile(QStringLiteral("neuron-profile-json/profile_128x128x1024.ntff")));
    const ProfileDiffResult d = ProfileDiff::compute(*a, *b, {});
    const EngineBreakdownResult ea = EngineBreakdown::compute(*a), eb = EngineBreakdown::compute(*b);
    QVERIFY(!ea.engines.empty());
    for (const EngineBreakdownRow &r : ea.engines) {
        const std::string name(EngineBreakdown::engineName(r.engine));
        const auto it = std::find_if(d.engines.begin(), d.engines.end(), [&](const EngineDiffRow &e) { return e.engine == name; });
        QVERIFY2(it != d.engines.end(), name.c_str());
        QCOMPARE(it->aActiveNs, r.activeTimeNs);
        QCOMPARE(it->aInstructions, r.instructionCount);
    }
    for (const EngineBreakdownRow &r : eb.engines) {
        const std::string name(EngineBreakdown::engineName(r.engine));
        const auto it = std::find_if(d.engines.begin(), d.engines.end(), [&](const EngineDiffRow &e) { return e.engine == name; });
        QVERIFY(it != d.engines.end());
        QCOMPARE(it->bActiveNs, r.activeTimeNs);
        QCOMPARE(it->bInstructionNs, r.instructionTimeNs);
    }
    uint64_t bytes = 0;
    for (const CoreBreakdown &c : ea.cores)
        bytes += c.dmaBytes;
    QVERIFY(bytes > 0);
    QCOMPARE(d.engines.back().engine, std::string("DMA"));
    QCOMPARE(d.engines.back().aDmaBytes, bytes);
}

QTEST_GUILESS_MAIN(TestProfileDiff)
#include "tst_profilediff.moc"
