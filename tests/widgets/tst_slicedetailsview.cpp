// SliceDetailsView: parent, children and flow ends are links that emit sliceActivated.
#include "slicedetailsview.h"

#include "model/tracebuilder.h"

#include <QSignalSpy>
#include <QTest>

using namespace lanescope;

namespace {

QTreeWidgetItem *findField(QTreeWidget &tree, const QString &field)
{
    const auto items = tree.findItems(field, Qt::MatchExactly | Qt::MatchRecursive, 0);
    return items.isEmpty() ? nullptr : items.front();
}

} // namespace

class TestSliceDetailsView : public QObject
{
    Q_OBJECT
private slots:
    void linksJump()
    {
        TraceBuilder b;
        const StringId cat = b.intern("c");
        const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
        const TrackId cpu = b.addTrack(p, TrackKind::Slices, b.intern("cpu"), 1);
        const TrackId gpu = b.addTrack(p, TrackKind::Slices, b.intern("gpu"), 2);
        b.addSlice(cpu, 0, 1000, b.intern("step"), cat);
        const uint32_t launch = b.addSlice(cpu, 100, 100, b.intern("launch"), cat);
        b.addSlice(cpu, 300, 100, b.intern("sync"), cat);
        b.addSlice(cpu, 120, 10, b.intern("grandchild"), cat);
        const uint32_t kernel = b.addSlice(gpu, 400, 100, b.intern("kernel"), cat);
        b.addFlow(FlowEnd::slice(launch), FlowEnd::slice(kernel), cat, b.intern("f"), 7);
        auto trace = std::make_shared<const Trace>(b.finish());
        const auto id = [&](std::string_view name) {
            for (uint32_t i = 0; i < trace->allSlices().size(); ++i)
                if (trace->str(trace->allSlices()[i].name) == name)
                    return SliceId(i);
            return SliceId();
        };

        SliceDetailsView view;
        view.setTrace(trace);
        QSignalSpy spy(&view, &SliceDetailsView::sliceActivated);

        view.showSlice(id("step"));
        QTreeWidgetItem *children = findField(view, QStringLiteral("Children"));
        QVERIFY(children);
        QCOMPARE(children->text(1), QStringLiteral("2")); // launch and sync, not the grandchild
        QCOMPARE(SliceDetailsView::linkOf(children->child(0)), id("launch"));
        QCOMPARE(SliceDetailsView::linkOf(children->child(1)), id("sync"));

        view.showSlice(id("launch"));
        QTreeWidgetItem *parent = findField(view, QStringLiteral("Parent"));
        QVERIFY(parent);
        QCOMPARE(SliceDetailsView::linkOf(parent), id("step"));
        QTreeWidgetItem *to = findField(view, QStringLiteral("to"));
        QVERIFY(to);
        QCOMPARE(SliceDetailsView::linkOf(to), id("kernel"));
        emit view.itemActivated(to, 1);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<SliceId>(), id("kernel"));

        view.showSlice(id("kernel"));
        QTreeWidgetItem *from = findField(view, QStringLiteral("from"));
        QVERIFY(from);
        QCOMPARE(SliceDetailsView::linkOf(from), id("launch"));
        QVERIFY(!SliceDetailsView::linkOf(findField(view, QStringLiteral("Name"))).isValid());
    }
};

QTEST_MAIN(TestSliceDetailsView)
#include "tst_slicedetailsview.moc"
