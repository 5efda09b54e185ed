// The Collectives dock in the real window offscreen, on a two-rank job written from HTA's real NCCL
// trace (tests/common/rankset.h: rank 1 on another clock origin and arriving late at every
// collective): the Overlap tab lists both GPUs and their steps, the Skew tab names rank 1 last at all
// 21 collectives, activating the most skewed collective puts its two kernels (one per rank) in the
// timeline's matches, marks first to last entry, selects rank 1's kernel and keeps the dock in front;
// a point clicked in the Durations plot does the same for its collective.
#include "collectivespanel.h"
#include "corpus.h"
#include "mainwindow.h"
#include "rankset.h"
#include "session.h"

#include "analysis/rankfilter.h"
#include "charts/collectivedurationsview.h"
#include "model/trace.h"
#include "timeline/timelineview.h"

#include <QChartView>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <algorithm>

using namespace lanescope;

class TestCollectivesDock : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QString rel = QStringLiteral("hta/nccl_parser_config__nccl_data.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const QJsonObject source = test::loadGzipJson(test::corpusFile(rel));
        QVERIFY(!source.isEmpty());
        QVERIFY(!test::writeFileIn(m_dir, QStringLiteral("rank0.json"), test::rankVariant(source, 0, 2, 0)).isEmpty());
        QVERIFY(!test::writeFileIn(m_dir, QStringLiteral("rank1.json"), test::rankVariant(source, 1, 2, 250'000, test::arriveLate(800))).isEmpty());
    }

    void skewOverlapAndDurations()
    {
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        CollectivesPanel *panel = w.collectivesPanel();
        QSignalSpy done(panel, &CollectivesPanel::computed);
        QSignalSpy finished(w.session(), &Session::loadFinished);
        w.session()->open(m_dir.path());
        QVERIFY(finished.wait(60000) && finished.first().value(0).toBool());
        QVERIFY(panel->hasContent());
        panel->raise();
        QVERIFY(done.count() > 0 || done.wait(20000));
        const CollectiveAnalysis &a = panel->result();

        // Overlap: a row per GPU, then per step (3 steps on each of the 2 ranks)
        QCOMPARE(a.overlap.devices.size(), size_t(2));
        QCOMPARE(panel->overlapTable()->model()->rowCount(), 2 + 6);
        // Skew: rank 1 last at every one of the 21 collectives
        QVERIFY(panel->tabs()->isTabEnabled(CollectivesPanel::SkewTab));
        QCOMPARE(panel->skewTable()->model()->rowCount(), 21);
        QCOMPARE(panel->latenessTable()->model()->rowCount(), 2);
        QCOMPARE(a.match.ranks[1].last, uint64_t(21));
        QCOMPARE(a.match.unmatched, uint64_t(0));

        const auto &matched = a.match.matched;
        const size_t worst = size_t(std::max_element(matched.begin(), matched.end(), [](const auto &x, const auto &y) {
                                        return x.skewNs() < y.skewNs();
                                    }) - matched.begin());
        QCOMPARE(panel->selectMatched(worst), size_t(2));
        std::vector<uint32_t> want = a.slicesOf(matched[worst]);
        std::vector<uint32_t> got = w.timeline()->searchMatches();
        std::sort(want.begin(), want.end());
        std::sort(got.begin(), got.end());
        QCOMPARE(got, want);
        const Trace &t = *w.session()->trace();
        QCOMPARE(RankFilter::rankOfTrack(t, t.trackOfSlice(w.session()->selectedSlice())), int64_t(1));
        QVERIFY(w.session()->hasMarkedRange());
        QCOMPARE(w.session()->markedStart(), matched[worst].firstEntry);
        QCOMPARE(w.session()->markedEnd(), matched[worst].lastEntry);
        QTest::qWait(200); // the Range Summary follows the mark (throttled) but must not cover this dock
        QVERIFY(!panel->visibleRegion().isEmpty());

        // Durations: one box per collectives row; a point clicked finds its collective on both ranks
        panel->tabs()->setCurrentIndex(CollectivesPanel::DurationsTab);
        CollectiveDurationsView *plot = panel->durations();
        QCOMPARE(plot->groups().size(), a.table.rows.size());
        QTRY_VERIFY(plot->isVisible());
        w.timeline()->setSearchMatches({});
        const CollectiveDurationsView::Point &p = plot->drawnPoints(0).front();
        const QPoint at = plot->pointPosition(0, 0);
        QVERIFY(plot->rect().contains(at));
        auto *view = plot->findChild<QChartView *>();
        QSignalSpy clicked(plot, &CollectiveDurationsView::instanceClicked);
        const QPoint inView = view->viewport()->mapFrom(plot, at);
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, inView);
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, inView);
        QTRY_COMPARE(clicked.count(), 1);
        QCOMPARE(clicked.first().value(0).toUInt(), p.instance);
        QCOMPARE(w.timeline()->searchMatches().size(), size_t(2)); // the instance and its peer on the other rank
    }
};

QTEST_MAIN(TestCollectivesDock)
#include "tst_collectivesdock.moc"
