// SummaryRegions: the regions the Summary page offers (whole trace, ProfilerStep#N, NEFF / driver
// executions) with their times, on the bundled sample (through the real folder loader), a GPU trace
// with steps and a lone NTFF from the corpus; steps() keeps the steps that start inside a range.
#include "corpus.h"
#include "loadtrace.h"

#include "analysis/insights/insightcontext.h"
#include "analysis/launchindex.h"
#include "analysis/summaryregions.h"
#include "io/synthetic/samplefolderwriter.h"
#include "model/trace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;

namespace {

size_t countKind(const std::vector<SummaryRegion> &regions, SummaryRegion::Kind kind)
{
    return size_t(std::count_if(regions.begin(), regions.end(), [&](const SummaryRegion &r) { return r.kind == kind; }));
}

// The steps the insights rules see (InsightContext::steps, the op table's ProfilerStep* row): the
// step regions must be the same occurrences, at the same times.
void compareWithRuleSteps(const Trace &trace, const LaunchIndex &index, const std::vector<SummaryRegion> &regions)
{
    InsightContext context(trace, index, {});
    const std::vector<uint32_t> steps = context.steps();
    const auto stepRegions = SummaryRegions::steps(regions, false, 0, 0);
    QCOMPARE(stepRegions.size(), steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
        const Slice &s = trace.slice(SliceId(steps[i]));
        QCOMPARE(stepRegions[i].t0, s.start);
        QCOMPARE(stepRegions[i].t1, s.end());
        QCOMPARE(stepRegions[i].label, std::string(trace.str(s.name)));
    }
}

struct Loaded
{
    std::shared_ptr<const Trace> trace;
    LaunchIndex index;
    std::vector<SummaryRegion> regions;
};

// A corpus file through the real loader, its LaunchIndex and its regions.
Loaded loadRegions(const QString &relative)
{
    Loaded l;
    l.trace = test::load(test::corpusFile(relative));
    if (l.trace) {
        l.index = LaunchIndex::build(*l.trace);
        l.regions = SummaryRegions::list(*l.trace, l.index);
    }
    return l;
}

} // namespace

class TestSummaryRegions : public QObject
{
    Q_OBJECT

private slots:
    void sampleNaive()
    {
        QTemporaryDir dir;
        SampleFolderWriter::Options options;
        options.variant = "naive";
        const auto trace = test::load(QString::fromStdString(SampleFolderWriter::write(dir.path().toStdString(), options)));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const auto regions = SummaryRegions::list(*trace, index);
        QVERIFY(regions.size() >= 3);
        QCOMPARE(regions[0].kind, SummaryRegion::Kind::Whole);
        QCOMPARE(regions[0].t0, trace->startNs());
        QCOMPARE(regions[0].t1, trace->endNs());
        QCOMPARE(regions[1].kind, SummaryRegion::Kind::Step);
        QCOMPARE(regions[1].label, std::string("ProfilerStep#1"));
        QCOMPARE(countKind(regions, SummaryRegion::Kind::Step), size_t(3)); // ProfilerStep#1..#3
        QCOMPARE(regions[2].label, std::string("ProfilerStep#2"));
        QCOMPARE(regions[3].label, std::string("ProfilerStep#3"));
        compareWithRuleSteps(*trace, index, regions);
        // The naive variant runs aten::pow, aten::mean, aten::rsqrt, aten::mul in each step: four NEFF
        // executions per step, 12 in all, each inside its step.
        QCOMPARE(countKind(regions, SummaryRegion::Kind::Execution), size_t(12));
        int64_t previous = INT64_MIN;
        int executions = 0;
        for (const SummaryRegion &r : regions) {
            if (r.kind != SummaryRegion::Kind::Execution)
                continue;
            QVERIFY(r.t0 >= previous); // by start
            previous = r.t0;
            QVERIFY(r.t1 > r.t0);
            QVERIFY2(r.label.starts_with("neff_") && r.label.find(" on NeuronCore 0 at +") != std::string::npos, r.label.c_str());
            const SummaryRegion &step = regions[1 + size_t(executions++ / 4)];
            QVERIFY(r.t0 >= step.t0 && r.t1 <= step.t1); // inside its step
        }
        const auto steps = SummaryRegions::steps(regions, false, 0, 0);
        QCOMPARE(steps.size(), size_t(3));
        QCOMPARE(steps[0].t1 - steps[0].t0, regions[1].t1 - regions[1].t0);
        // A range that starts after the step's start holds no step (occurrences count where they start).
        QCOMPARE(SummaryRegions::steps(regions, true, regions[1].t0 + 1, regions[1].t1).size(), size_t(0));
        QCOMPARE(SummaryRegions::steps(regions, true, regions[1].t0, regions[1].t0).size(), size_t(1));
    }

    // A GPU trace with steps: one region per ProfilerStep#N (the rules' steps), no executions. A lone
    // NTFF: no steps, its one NEFF execution. Regions of a kind are in start order.
    void corpusTraces_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("hasSteps");
        QTest::addColumn<int>("executions");
        QTest::newRow("gpu") << QStringLiteral("hta/ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz") << true << 0;
        QTest::newRow("ntff") << QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff") << false << 1;
    }

    void corpusTraces()
    {
        QFETCH(QString, file);
        QFETCH(bool, hasSteps);
        QFETCH(int, executions);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const Loaded l = loadRegions(file);
        QVERIFY(l.trace);
        const size_t steps = countKind(l.regions, SummaryRegion::Kind::Step);
        QCOMPARE(steps > 1, hasSteps);
        QCOMPARE(steps == 0, !hasSteps);
        compareWithRuleSteps(*l.trace, l.index, l.regions);
        QCOMPARE(countKind(l.regions, SummaryRegion::Kind::Execution), size_t(executions));
        for (size_t i = 2; i < l.regions.size(); ++i)
            if (l.regions[i].kind == l.regions[i - 1].kind)
                QVERIFY(l.regions[i].t0 >= l.regions[i - 1].t0);
            else
                QVERIFY(l.regions[i].t1 > l.regions[i].t0);
    }
};

QTEST_GUILESS_MAIN(TestSummaryRegions)
#include "tst_summaryregions.moc"
