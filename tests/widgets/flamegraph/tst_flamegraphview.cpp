// FlameGraphView (widgets/flamegraph/flamegraphview.h), offscreen, over call trees built by CallTree
// from hand-built traces: box widths are proportional to the weight, children left-heavy beneath
// their parent (icicle) or above it (flame), a click emits the node, double-click zooms (the node
// takes the width, its ancestors stay), Backspace / Home zoom out, a search sums the outermost
// matches, boxes under half a pixel are not drawn, and the differential colours read red for growth
// and blue for a shrink.
#include "calltreetraces.h"

#include "flamegraph/flamegraphview.h"

#include "analysis/calltree.h"
#include "analysis/calltreediff.h"
#include "analysis/launchindex.h"

#include <QSignalSpy>
#include <QTest>

using namespace lanescope;
using lanescope::test::oneThread;

namespace {

std::shared_ptr<const CallTree::Result> tree(const Trace &trace)
{
    return std::make_shared<const CallTree::Result>(lanescope::test::mergedTree(trace));
}

const auto nodeAt = lanescope::test::nodeAtPath;

} // namespace

class TestFlameGraphView : public QObject
{
    Q_OBJECT

private slots:
    // f [0,300) > (g [0,100), h [100,300)); k [400,500); tiny [600,600.0001]
    void layoutClickZoom()
    {
        const auto trace = oneThread({{0, 300, "f"}, {0, 100, "g"}, {100, 200, "h"}, {400, 100, "k"}, {1000, 1, "tiny"}});
        const auto t = tree(*trace);
        FlameGraphView view;
        view.resize(802, 300);
        view.setTree(t, CallTree::Weight::Cpu);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const uint32_t f = nodeAt(*t, "f"), g = nodeAt(*t, "f;g"), h = nodeAt(*t, "f;h"), k = nodeAt(*t, "k"), tiny = nodeAt(*t, "tiny");
        const double w = view.width(); // root: 401 ns
        QCOMPARE(view.nodeRect(0).width(), w);
        QVERIFY(qAbs(view.nodeRect(f).width() - w * 300 / 401) < 1e-6);
        QVERIFY(qAbs(view.nodeRect(k).width() - w * 100 / 401) < 1e-6);
        // Left-heavy: h (200) left of g (100), both beneath f, on the next row.
        QCOMPARE(view.nodeRect(f).x(), 0.0);
        QCOMPARE(view.nodeRect(h).x(), 0.0);
        QVERIFY(qAbs(view.nodeRect(g).x() - view.nodeRect(h).width()) < 1e-6);
        QCOMPARE(view.nodeRect(h).top(), view.nodeRect(f).top() + view.rowHeight());
        QVERIFY(qAbs(view.nodeRect(tiny).width() - w / 401) < 1e-6); // 2 px: drawn
        QCOMPARE(view.nodeAt(view.nodeRect(g).center()), g);
        QVERIFY(view.tooltipText(g).contains(QStringLiteral("Total CPU")));

        QSignalSpy clicked(&view, &FlameGraphView::nodeClicked);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.nodeRect(g).center().toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.front().front().toUInt(), g);
        QCOMPARE(view.selectedNode(), g);

        QSignalSpy zoomed(&view, &FlameGraphView::zoomChanged);
        QTest::mouseDClick(&view, Qt::LeftButton, {}, view.nodeRect(f).center().toPoint());
        QCOMPARE(view.zoomRoot(), f);
        QVERIFY(zoomed.count() >= 1);
        QCOMPARE(view.nodeRect(f).width(), w);
        QCOMPARE(view.nodeRect(0).width(), w); // the ancestor stays as a full bar
        QVERIFY(qAbs(view.nodeRect(h).width() - w * 200 / 300) < 1e-6);
        QVERIFY(view.nodeRect(k).isEmpty()); // outside the zoomed subtree
        QTest::keyClick(&view, Qt::Key_Backspace);
        QCOMPARE(view.zoomRoot(), uint32_t(0));
        view.zoomTo(h);
        QTest::keyClick(&view, Qt::Key_Home);
        QCOMPARE(view.zoomRoot(), uint32_t(0));

        // Search: "h" matches f;h only (names are f, g, h, k, tiny); its 200 of 401.
        view.setSearch(QStringLiteral("H"));
        QCOMPARE(view.searchMatches(), 1);
        QVERIFY(qAbs(view.searchShare() - 200.0 / 401) < 1e-9);
        view.setSearch(QString());
        QCOMPARE(view.searchMatches(), 0);

        // Flame: the root on the bottom row.
        view.setFlame(true);
        QCOMPARE(view.nodeRect(0).bottom(), double(view.height() - 1));
        QVERIFY(view.nodeRect(f).bottom() < view.nodeRect(0).top());
        QCOMPARE(view.nodeAt(view.nodeRect(k).center()), k);
    }

    void narrowBoxesAreNotDrawn()
    {
        const auto trace = oneThread({{0, 1000000, "big"}, {2000000, 1, "speck"}});
        const auto t = tree(*trace);
        FlameGraphView view;
        view.resize(400, 200);
        view.setTree(t, CallTree::Weight::Cpu);
        QVERIFY(view.nodeRect(nodeAt(*t, "speck")).isEmpty()); // 0.0004 px
        QVERIFY(!view.nodeRect(nodeAt(*t, "big")).isEmpty());
    }

    // B grew f (100 -> 300) and shrank k (100 -> 50): red and blue boxes.
    void differentialColours()
    {
        const auto a = tree(*oneThread({{0, 100, "f"}, {200, 100, "k"}}));
        const auto b = tree(*oneThread({{0, 300, "f"}, {400, 50, "k"}}));
        CallTreeDiff::Result d = CallTreeDiff::compute(*b, *a, CallTree::Weight::Cpu);
        FlameGraphView view;
        view.resize(700, 120);
        view.setTree(b, CallTree::Weight::Cpu, d.before);
        QVERIFY(view.isDifferential());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage image = view.grab().toImage();
        const auto colourAt = [&](uint32_t node) {
            const QRectF r = view.nodeRect(node);
            return image.pixelColor(int(r.left() + 2), int(r.center().y())); // left of the label
        };
        const QColor grew = colourAt(nodeAt(*b, "f")), shrank = colourAt(nodeAt(*b, "k"));
        QVERIFY2(grew.red() > grew.blue() + 60, qPrintable(grew.name()));
        QVERIFY2(shrank.blue() > shrank.red() + 30, qPrintable(shrank.name()));
        QVERIFY(view.tooltipText(nodeAt(*b, "f")).contains(QStringLiteral("+200 ns")));
    }

    void emptyShowsTheMessage()
    {
        FlameGraphView view;
        view.clear(QStringLiteral("No call stacks"));
        QVERIFY(!view.tree());
        QCOMPARE(view.nodeAt(QPointF(10, 5)), FlameGraphView::kNoNode);
        view.resize(300, 100);
        QVERIFY(!view.grab().isNull());
    }
};

QTEST_MAIN(TestFlameGraphView)
#include "tst_flamegraphview.moc"
