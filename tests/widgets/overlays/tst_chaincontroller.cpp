// ChainController: the graph arrives from the background, a selection gets its chain in the timeline
// (slices outside it drawn dimmed) and predecessor / successor links in the details panel, [ and ]
// walk the chain, the critical path toggles, a new trace drops the old graph.
#include "details/slicedetailsview.h"
#include "overlays/chaincontroller.h"
#include "timeline/timelineview.h"

#include "analysis/dependencychain.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QAction>
#include <QSignalSpy>
#include <QTest>

using namespace lanescope;

namespace {

SliceId byName(const Trace &t, std::string_view name)
{
    for (uint32_t i = 0; i < t.allSlices().size(); ++i)
        if (t.str(t.allSlices()[i].name) == name)
            return SliceId(i);
    return {};
}

QTreeWidgetItem *findField(QTreeWidget &tree, const QString &field)
{
    const auto items = tree.findItems(field, Qt::MatchExactly | Qt::MatchRecursive, 0);
    return items.isEmpty() ? nullptr : items.front();
}

QRgb pixelAt(TimelineView &view, SliceId id)
{
    const QRectF r = view.sliceRect(id);
    return view.grab().toImage().pixel(int(r.left()) + 2, int(r.center().y()));
}

} // namespace

class TestChainController : public QObject
{
    Q_OBJECT
private:
    std::shared_ptr<const Trace> m_trace;

private slots:
    void initTestCase()
    {
        const LoadResult r = TraceLoader::load(LANESCOPE_TEST_DATA "/chain_small.json");
        QVERIFY2(r.ok(), r.error.c_str());
        m_trace = r.trace;
    }

    void selectionShowsChain()
    {
        TimelineView timeline;
        timeline.resize(1200, 500);
        SliceDetailsView details;
        ChainController chain(&timeline, &details);
        QSignalSpy ready(&chain, &ChainController::graphReady);
        timeline.setTrace(m_trace);
        details.setTrace(m_trace);
        chain.setTrace(m_trace);
        QVERIFY(ready.count() == 1 || ready.wait(10000));
        QVERIFY(chain.graph());
        QVERIFY(!chain.isBuilding());

        const Trace &t = *m_trace;
        const SliceId kernel = byName(t, "conv_kernel"), launch = byName(t, "cudaLaunchKernel"),
                      inner = byName(t, "aten::inner"), sibling = byName(t, "aten::sibling");
        const QRgb siblingBefore = pixelAt(timeline, sibling);
        const QRgb innerBefore = pixelAt(timeline, inner);

        timeline.setSelectedSlice(kernel);
        details.showSlice(kernel);
        QVERIFY(timeline.chain());
        QCOMPARE(timeline.chain()->root(), kernel);
        QCOMPARE(timeline.chain()->members().size(), size_t(4));
        QVERIFY(timeline.criticalPath().empty()); // off until asked for
        // outside the chain: dimmed towards the background; inside: unchanged
        const QRgb siblingAfter = pixelAt(timeline, sibling);
        QVERIFY(siblingAfter != siblingBefore);
        QVERIFY(qGray(siblingAfter) > qGray(siblingBefore)); // lighter: mixed with the white background
        QCOMPARE(pixelAt(timeline, inner), innerBefore);

        // the details panel: the event id and the launching call as a predecessor link
        QTreeWidgetItem *idField = findField(details, QStringLiteral("Event id"));
        QVERIFY(idField);
        QCOMPARE(idField->text(1), QString::number(kernel.value));
        QTreeWidgetItem *pred = findField(details, QStringLiteral("Predecessors ([)"));
        QVERIFY(pred);
        QCOMPARE(pred->childCount(), 1);
        QCOMPARE(pred->child(0)->text(0), QStringLiteral("launch"));
        QCOMPARE(SliceDetailsView::linkOf(pred->child(0)), launch);
        details.showSlice(launch);
        QTreeWidgetItem *succ = findField(details, QStringLiteral("Successors (])"));
        QVERIFY(succ);
        QCOMPARE(SliceDetailsView::linkOf(succ->child(0)), kernel);

        // [ and ]: back along the critical path conv > inner > launch > kernel, and forward again
        chain.previousAction()->trigger();
        QCOMPARE(timeline.selectedSlice(), launch);
        chain.previousAction()->trigger();
        QCOMPARE(timeline.selectedSlice(), inner);
        chain.nextAction()->trigger();
        QCOMPARE(timeline.selectedSlice(), launch);
        chain.nextAction()->trigger();
        QCOMPARE(timeline.selectedSlice(), kernel);
        chain.nextAction()->trigger(); // nothing depends on the kernel: stays
        QCOMPARE(timeline.selectedSlice(), kernel);

        chain.criticalPathAction()->setChecked(true);
        QVERIFY(chain.showCriticalPath());
        QCOMPARE(timeline.criticalPath().size(), size_t(4));
        QCOMPARE(timeline.criticalPath().back(), kernel);

        timeline.setSelectedSlice(SliceId());
        QVERIFY(!timeline.chain());
        QCOMPARE(pixelAt(timeline, sibling), siblingBefore);
    }

    void newTraceDropsGraph()
    {
        TimelineView timeline;
        SliceDetailsView details;
        ChainController chain(&timeline, &details);
        QSignalSpy ready(&chain, &ChainController::graphReady);
        chain.setTrace(m_trace);
        chain.setTrace(nullptr); // replaced before it finished (or just after): never delivered
        QVERIFY(!chain.graph());
        QTest::qWait(200);
        QVERIFY(!chain.graph());
        QCOMPARE(ready.count(), 0);
    }
};

QTEST_MAIN(TestChainController)
#include "tst_chaincontroller.moc"
