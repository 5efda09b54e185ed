// SummaryView on the insights of real inputs (the bundled naive sample through the folder loader, a
// GPU trace of the corpus): metrics and charts show the KeyMetrics numbers and hide without data,
// capture-* findings go to the Capture section, compare mode tags resolved / new / changed from
// FindingsDiff. The key-metrics column is as wide as its rows in the font at 1366 and 1920 px: no
// row wraps or is clipped.
#include "corpus.h"
#include "loadtrace.h"

#include "summary/findingslistview.h"
#include "summary/summarybars.h"
#include "summary/summaryview.h"

#include "analysis/insights/insights.h"
#include "analysis/launchindex.h"
#include "io/synthetic/samplefolderwriter.h"

#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace lanescope;

class TestSummaryView : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::vector<std::string> m_folders; // naive, rms_norm, compile

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_folders = SampleFolderWriter::writeComparison(m_dir.path().toStdString(), SampleFolderWriter::Options());
        QCOMPARE(m_folders.size(), size_t(3));
    }

    void naiveSample()
    {
        const auto trace = test::load(QString::fromStdString(m_folders[0]));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const Insights::Result r = Insights::run(*trace, index, Insights::Options());
        const auto regions = SummaryRegions::list(*trace, index);
        SummaryView view;
        view.resize(1200, 700);
        view.setResult(r.metrics, r.findings, SummaryRegions::steps(regions, false, 0, 0));
        // The sample is captured the right way (three steps, synchronized, warm-up outside the window):
        // no capture check fires, so the Capture section is hidden and every finding is in Findings.
        const auto captures = std::count_if(r.findings.begin(), r.findings.end(), [](const Finding &f) { return Finding::isCapture(f.rule); });
        QCOMPARE(captures, 0);
        QCOMPARE(view.findingsList()->count(), int(r.findings.size()));
        QCOMPARE(view.captureList()->count(), 0);
        QVERIFY(view.captureList()->isHidden());
        // Device busy bar = KeyMetrics' busy %; engine bars only for engines with work; DMA by kind.
        QCOMPARE(view.deviceChart()->bars().size(), r.metrics.devices.size());
        QCOMPARE(view.deviceChart()->bars()[0].value, r.metrics.devices[0].busyPercent);
        QVERIFY(!view.engineChart()->bars().empty());
        QVERIFY(view.engineChart()->bars().size() <= r.metrics.engines.size()); // idle engines are no bars (one lane set: all work here)
        for (const SummaryBars::Bar &b : view.engineChart()->bars())
            QVERIFY(b.value >= 0.05);
        QCOMPARE(view.dmaChart()->bars().size(), size_t(1));
        QCOMPARE(view.dmaChart()->bars()[0].label, QStringLiteral("io"));
        QCOMPARE(view.dmaChart()->bars()[0].value, double(r.metrics.dma[0].bytes));
        QCOMPARE(r.metrics.steps, uint64_t(3)); // ProfilerStep#1..#3
        QCOMPARE(view.stepChart()->bars().size(), size_t(3));
        std::vector<double> bars;
        for (const SummaryBars::Bar &b : view.stepChart()->bars())
            bars.push_back(b.value);
        std::sort(bars.begin(), bars.end());
        QCOMPARE(bars[1], double(r.metrics.medianStepNs)); // the middle one of three steps is the median
        QVERIFY(view.metricsText().contains(QStringLiteral("Average DMA size")));
    }

    void metricsColumnFitsItsRows_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("1366") << 1366;
        QTest::newRow("1920") << 1920;
    }

    void metricsColumnFitsItsRows()
    {
        QFETCH(int, width);
        const auto trace = test::load(QString::fromStdString(m_folders[0]));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const Insights::Result r = Insights::run(*trace, index, Insights::Options());
        SummaryView view;
        view.resize(width, 200); // the Summary dock: the window's width, a short height
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setResult(r.metrics, r.findings, SummaryRegions::steps(SummaryRegions::list(*trace, index), false, 0, 0));
        const QLabel *metrics = view.metricsLabel();
        // "Framework CPU self vs device time" and "3.467 ms vs 1.832 ms" on one line: wider than the old 280 px
        QVERIFY(view.metricsWidth() > SummaryView::kMinLeftWidth);
        QTRY_VERIFY(metrics->width() >= view.metricsWidth());
        // No row wraps: the label is as tall at its width as with unlimited room.
        QCOMPARE(metrics->heightForWidth(metrics->width()), metrics->heightForWidth(10000));
        // and the old minimum width would have wrapped some
        QVERIFY(metrics->heightForWidth(SummaryView::kMinLeftWidth) > metrics->heightForWidth(10000));
        // The findings keep at least half of the page.
        const QList<int> sizes = view.findChild<QSplitter *>()->sizes();
        QVERIFY(sizes[1] >= sizes[0]);
    }

    // A GPU trace: no engines, no DMA: those charts are hidden, not empty.
    void gpuTraceHidesNeuronCharts()
    {
        const QString rel = QStringLiteral("hta/ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const auto trace = test::load(test::corpusFile(rel));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const Insights::Result r = Insights::run(*trace, index, Insights::Options());
        SummaryView view;
        view.setResult(r.metrics, r.findings, SummaryRegions::steps(SummaryRegions::list(*trace, index), false, 0, 0));
        QVERIFY(view.engineChart()->isHidden());
        QVERIFY(view.dmaChart()->isHidden());
        QVERIFY(!view.deviceChart()->isHidden());
        QCOMPARE(view.stepChart()->bars().size(), size_t(r.metrics.steps));
        QVERIFY(!view.metricsText().contains(QStringLiteral("Average DMA size")));
    }

    void captureChecksGoToTheirSection()
    {
        Finding capture;
        capture.rule = "capture-device-work-missing";
        capture.severity = Severity::High;
        capture.title = "Device work missing at the end";
        Finding other;
        other.rule = "device-idle";
        other.title = "Device idle";
        QVERIFY(isCaptureCheck(capture));
        QVERIFY(!isCaptureCheck(other));
        SummaryView view;
        view.setResult(KeyMetrics(), {other, capture}, {});
        QCOMPARE(view.captureList()->count(), 1);
        QCOMPARE(view.captureList()->findings()[0].rule, capture.rule);
        QVERIFY(!view.captureList()->isHidden());
        QCOMPARE(view.findingsList()->count(), 1);
        QCOMPARE(view.findingsList()->findings()[0].rule, other.rule);
        QCOMPARE(view.captureList()->heading(), QStringLiteral("Capture (1)"));
    }

    // naive vs compile: the fusion candidate of A is tagged resolved, nothing of B is.
    void comparison()
    {
        const auto a = test::load(QString::fromStdString(m_folders[0]));
        const auto b = test::load(QString::fromStdString(m_folders[2]));
        QVERIFY(a && b);
        const auto ra = Insights::run(*a, Insights::Options()), rb = Insights::run(*b, Insights::Options());
        const FindingsDiffResult diff = FindingsDiff::compare(ra.findings, rb.findings);
        SummaryView view;
        view.setComparison(QStringLiteral("A"), ra.findings, QStringLiteral("B"), rb.findings, diff);
        QVERIFY(view.isComparison());
        QVERIFY(view.findingsList()->isHidden());
        const FindingsListView *left = view.compareList(0);
        QCOMPARE(left->count(), int(ra.findings.size()));
        int resolved = 0;
        for (int i = 0; i < left->count(); ++i) {
            const bool tagged = left->cardText(i).contains(QStringLiteral("[resolved]"));
            resolved += tagged;
            if (left->findings()[size_t(i)].rule == "fusion-candidate")
                QVERIFY(tagged);
        }
        QCOMPARE(resolved, int(diff.resolved.size()));
        int added = 0;
        for (int i = 0; i < view.compareList(1)->count(); ++i)
            added += view.compareList(1)->cardText(i).contains(QStringLiteral("[new]"));
        QCOMPARE(added, int(diff.added.size()));
        QVERIFY(!left->showButton(0)->isVisibleTo(&view));
    }
};

QTEST_MAIN(TestSummaryView)
#include "tst_summaryview.moc"
