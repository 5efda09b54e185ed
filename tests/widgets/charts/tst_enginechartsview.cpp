// EngineChartsView and UtilizationStrip: the charts show EngineBreakdown's numbers (bars, pie, DMA,
// utilization lines), recompute for a range, switch themes, and cope with traces without engines.
// With LANESCOPE_GRAB_DIR set, real NTFFs are rendered to PNGs there (to look at them).
#include "corpus.h"

#include "charts/enginechartsview.h"
#include "timeline/utilizationstrip.h"

#include "io/traceloader.h"
#include "model/tracebuilder.h"

#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QPieSeries>
#include <QTest>

using namespace lanescope;

namespace {

std::shared_ptr<const Trace> smallTrace()
{
    TraceBuilder b;
    const GroupId core = b.addGroup(GroupKind::NeuronCore, b.intern("NeuronCore 0"));
    const StringId cat = b.intern("instruction");
    const TrackId pe = b.addTrack(core, TrackKind::Async, b.intern("Tensor"));
    const TrackId act = b.addTrack(core, TrackKind::Async, b.intern("Scalar"));
    b.addSlice(pe, 0, 500, b.intern("MATMUL"), cat);
    b.addSlice(pe, 600, 400, b.intern("EVENT_SEMAPHORE"), cat);
    b.addSlice(act, 250, 250, b.intern("ACTIVATE"), cat);
    const TrackId q = b.addTrack(core, TrackKind::Async, b.intern("qSyncIO0-Q0-E1"));
    const StringId kSize = b.intern("transfer_size");
    const std::array<Arg, 1> args = {Arg::makeInt(kSize, 4096)};
    b.addSlice(q, 100, 100, b.intern("DMA packet"), b.intern("dma"), b.addArgs(args));
    return std::make_shared<const Trace>(b.finish());
}

template <class T>
T *firstSeries(QChartView *v)
{
    for (QAbstractSeries *s : v->chart()->series())
        if (auto *t = qobject_cast<T *>(s))
            return t;
    return nullptr;
}

} // namespace

class TestEngineChartsView : public QObject
{
    Q_OBJECT
private slots:
    void showsBreakdown();
    void recomputesForRange();
    void noEngines();
    void utilizationStrip();
    void severalCores();
    void grabRealFiles_data();
    void grabRealFiles();
};

void TestEngineChartsView::showsBreakdown()
{
    EngineChartsView view;
    view.setTrace(smallTrace());
    const EngineBreakdownResult &r = view.result();
    QCOMPARE(r.engines.size(), size_t(2));
    auto *bars = firstSeries<QHorizontalStackedBarSeries>(view.activeIdleChart());
    QVERIFY(bars);
    QCOMPARE(bars->count(), 2); // active, idle
    QBarSet *active = bars->barSets().at(0);
    QCOMPARE(active->count(), 2);
    // Bottom-up: Scalar first, Tensor last. Window 0..1000: Tensor active 500 ns, Scalar 250 ns.
    QCOMPARE(active->at(0), 25.0);
    QCOMPARE(active->at(1), 50.0);
    QCOMPARE(bars->barSets().at(1)->at(1), 50.0);
    auto *pie = firstSeries<QPieSeries>(view.shareChart());
    QVERIFY(pie);
    QCOMPARE(pie->count(), 2);
    QCOMPARE(pie->sum(), 750.0); // the wait is not instruction time
    auto *dma = firstSeries<QHorizontalBarSeries>(view.dmaChart());
    QVERIFY(dma);
    QCOMPARE(dma->barSets().at(0)->at(0), 4096.0 / 100.0); // 4096 B in 100 ns = 40.96 GB/s
    QVERIFY(view.headerText().contains(QStringLiteral("Whole trace")));
    QVERIFY(view.headerText().contains(QStringLiteral("no FLOP counts")));
    QCOMPARE(view.utilizationChart()->seriesCount(), 2);
    view.setDark(true);
    QCOMPARE(view.activeIdleChart()->chart()->theme(), QChart::ChartThemeDark);
    QCOMPARE(firstSeries<QPieSeries>(view.shareChart())->count(), 2);
}

void TestEngineChartsView::recomputesForRange()
{
    EngineChartsView view;
    view.setTrace(smallTrace());
    view.setRange(0, 250);
    QVERIFY(!view.result().wholeTrace);
    QVERIFY(view.headerText().contains(QStringLiteral("Selected range")));
    auto *bars = firstSeries<QHorizontalStackedBarSeries>(view.activeIdleChart());
    QCOMPARE(bars->barSets().at(0)->at(1), 100.0); // Tensor busy all of 0..250
    QCOMPARE(bars->barSets().at(0)->at(0), 0.0);   // Scalar starts at 250
    QCOMPARE(firstSeries<QPieSeries>(view.shareChart())->count(), 1);
    view.setRange(0, 0); // cleared selection: the whole trace again
    QVERIFY(view.result().wholeTrace);
}

void TestEngineChartsView::noEngines()
{
    EngineChartsView view;
    QVERIFY(view.headerText().contains(QStringLiteral("Open a NeuronCore profile")));
    TraceBuilder b;
    const GroupId p = b.addGroup(GroupKind::Process, b.intern("python"));
    b.addSlice(b.addTrack(p, TrackKind::Slices, b.intern("main")), 0, 10, b.intern("f"), b.intern("cpu_op"));
    view.setTrace(std::make_shared<const Trace>(b.finish()));
    QVERIFY(view.result().empty());
    QVERIFY(view.headerText().contains(QStringLiteral("No NeuronCore")));
    QCOMPARE(firstSeries<QPieSeries>(view.shareChart())->count(), 0);
    QCOMPARE(view.utilizationChart()->seriesCount(), 0);
}

void TestEngineChartsView::utilizationStrip()
{
    UtilizationStrip strip;
    strip.setBucketCount(4);
    strip.setTrace(smallTrace());
    QCOMPARE(strip.seriesCount(), 2);
    const EngineBreakdownResult &r = strip.result();
    QCOMPARE(r.bucketNs, int64_t(250));
    // Tensor busy 0..500 of 0..1000 in 4 buckets.
    QCOMPARE(r.engines[0].utilization, (std::vector<float>{1, 1, 0, 0}));
    strip.setRange(0, 500);
    QCOMPARE(strip.result().bucketNs, int64_t(125));
    QCOMPARE(strip.result().engines[1].utilization, (std::vector<float>{0, 0, 1, 1}));
    strip.setTrace(nullptr);
    QCOMPARE(strip.seriesCount(), 0);
}

// Three NeuronCores x 5 engines: too many rows for one chart, so the busiest core (#1) is shown first;
// "All cores" shows every row, labelled #i.
void TestEngineChartsView::severalCores()
{
    TraceBuilder b;
    const StringId cat = b.intern("instruction");
    for (int c = 0; c < 3; ++c) {
        const GroupId core = b.addGroup(GroupKind::NeuronCore, b.intern("NeuronCore " + std::to_string(c)), {}, c);
        b.group(core).sortIndex = c;
        for (const char *lane : {"Tensor", "Vector", "Scalar", "GpSimd", "Sync"})
            b.addSlice(b.addTrack(core, TrackKind::Async, b.intern(lane)), 0, c == 1 ? 900 : 100, b.intern("OP"), cat);
    }
    EngineChartsView view;
    view.setTrace(std::make_shared<const Trace>(b.finish()));
    QCOMPARE(view.result().engines.size(), size_t(15));
    QCOMPARE(view.coreBox()->count(), 4);
    QCOMPARE(view.coreBox()->currentIndex(), 2); // #1
    QCOMPARE(view.shown().engines.size(), size_t(5));
    QCOMPARE(view.shown().engines.front().activeTimeNs, int64_t(900));
    view.coreBox()->setCurrentIndex(0);
    QCOMPARE(view.shown().engines.size(), size_t(15));
    auto *bars = firstSeries<QHorizontalStackedBarSeries>(view.activeIdleChart());
    QCOMPARE(bars->barSets().at(0)->count(), 15);
    view.setRange(0, 50); // the choice stays for a new range
    QCOMPARE(view.coreBox()->currentIndex(), 0);
    QCOMPARE(view.utilizationChart()->seriesCount(), 15);
}

void TestEngineChartsView::grabRealFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("dark");
    QTest::newRow("v5 light") << QStringLiteral("neuron-profile-json/profile_128x128x1024.ntff") << false;
    QTest::newRow("v5 json dark") << QStringLiteral("neuron-profile-json/profile_128x128x1024.json") << true;
    QTest::newRow("v4 light") << QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff") << false;
}

void TestEngineChartsView::grabRealFiles()
{
    QFETCH(QString, file);
    QFETCH(bool, dark);
    LANESCOPE_REQUIRE_CORPUS_FILE(file);
    const LoadResult loaded = TraceLoader::load(test::corpusFile(file).toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    std::shared_ptr<const Trace> trace = loaded.trace;
    EngineChartsView view;
    view.resize(1100, 640);
    view.setDark(dark);
    view.setTrace(trace);
    QCOMPARE(view.result().engines.size(), size_t(5));
    QCOMPARE(firstSeries<QHorizontalStackedBarSeries>(view.activeIdleChart())->barSets().at(0)->count(), 5);
    QVERIFY(firstSeries<QHorizontalBarSeries>(view.dmaChart())->barSets().at(0)->count() > 0);
    const QString dir = qEnvironmentVariable("LANESCOPE_GRAB_DIR");
    if (!dir.isEmpty()) {
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QString name = QString::fromUtf8(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('_'));
        QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("engines_%1.png").arg(name))));
    }
}

QTEST_MAIN(TestEngineChartsView)
#include "tst_enginechartsview.moc"
