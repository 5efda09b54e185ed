// SliceDetailsView: parent, children and flow ends are links that emit sliceActivated. In a narrow
// dock (the Details dock at 1366x768) the Field column takes at most 40 % and Value the rest, long
// values elide in the middle with the full text as tooltip and on Copy, the user's column width is
// kept, links follow the palette (dark theme). Inputs: a Kineto trace with a long call stack through
// the real loader.
#include "details/slicedetailsview.h"
#include "loadtrace.h"

#include "model/tracebuilder.h"

#include <QAction>
#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

QTreeWidgetItem *findField(QTreeWidget &tree, const QString &field)
{
    const auto items = tree.findItems(field, Qt::MatchExactly | Qt::MatchRecursive, 0);
    return items.isEmpty() ? nullptr : items.front();
}

// One aten::addmm as PyTorch's profiler writes it with record_shapes and with_stack: the call stack
// is one long string, "Record function id" a long key.
const char *kKinetoOp = R"({
  "schemaVersion": 1,
  "traceEvents": [
  {
    "ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 4242, "tid": 4242,
    "ts": 1700000000100.250, "dur": 85.125,
    "args": {
      "External id": 17, "Record function id": 0, "Ev Idx": 16,
      "Input Dims": [[4096], [64, 1024], [1024, 4096], [], []],
      "Input type": ["float", "float", "float", "Scalar", "Scalar"],
      "Concrete Inputs": ["", "", "", "1", "1"],
      "Call stack": "torch/nn/modules/linear.py(114): forward;torch/nn/modules/module.py(1527): _call_impl;torch/nn/modules/module.py(1518): _wrapped_call_impl;models/transformer.py(88): forward;torch/nn/modules/module.py(1527): _call_impl;train.py(42): step;train.py(97): <module>"
    }
  }
  ]
})";

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

        // Links take the palette's link colour, also when the palette changes (View > Dark Theme).
        QPalette dark = view.palette();
        dark.setColor(QPalette::Link, QColor(0x7a, 0xb4, 0xff));
        view.setPalette(dark);
        QCOMPARE(from->foreground(1).color(), QColor(0x7a, 0xb4, 0xff));
        QCOMPARE(findField(view, QStringLiteral("Name"))->foreground(1).style(), Qt::NoBrush); // plain fields keep the text colour
    }

    void narrowDockKeepsValueInView()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("addmm.pt.trace.json")));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(kKinetoOp) > 0);
        f.close();
        const auto trace = test::load(f.fileName());
        QVERIFY(trace);
        QCOMPARE(trace->allSlices().size(), size_t(1));

        SliceDetailsView view;
        view.resize(360, 500); // about the Details dock's width in a 1366x768 window
        view.setTrace(trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showSlice(SliceId(0));
        QTreeWidgetItem *stack = findField(view, QStringLiteral("Call stack"));
        QVERIFY(stack);
        const QString fullStack = stack->text(1);
        QVERIFY(fullStack.startsWith(QStringLiteral("torch/nn/modules/linear.py(114): forward;")));
        QVERIFY(fullStack.endsWith(QStringLiteral("train.py(97): <module>")));
        QCOMPARE(fullStack.size(), 260);

        // "Record function id" under Args (indented) wants more than 40 % of 360 px: Field is capped,
        // Value ends inside the viewport, no horizontal scrolling.
        const int viewport = view.viewport()->width();
        QVERIFY(static_cast<const QAbstractItemView &>(view).sizeHintForColumn(0) > int(viewport * SliceDetailsView::kMaxFieldFraction));
        QCOMPARE(view.columnWidth(0), int(viewport * SliceDetailsView::kMaxFieldFraction));
        QVERIFY(view.columnWidth(1) >= viewport - view.columnWidth(0) - 1);
        QVERIFY(view.header()->sectionViewportPosition(1) + view.header()->sectionSize(1) <= viewport);
        QCOMPARE(view.horizontalScrollBar()->maximum(), 0);
        QCOMPARE(view.textElideMode(), Qt::ElideMiddle);
        QCOMPARE(stack->toolTip(1), fullStack);
        QCOMPARE(findField(view, QStringLiteral("Record function id"))->toolTip(0), QStringLiteral("Record function id"));

        // Wide enough: the Field column shows every field name in full.
        view.resize(1000, 500);
        QTRY_COMPARE(view.columnWidth(0), static_cast<const QAbstractItemView &>(view).sizeHintForColumn(0));
        QVERIFY(view.columnWidth(0) < int(view.viewport()->width() * SliceDetailsView::kMaxFieldFraction));

        // Copy: one row copies its full value, several rows "field<TAB>value" lines in tree order.
        view.setCurrentItem(stack);
        QCOMPARE(view.copyText(), fullStack);
        QGuiApplication::clipboard()->clear();
        QTest::keySequence(&view, QKeySequence::Copy); // Ctrl+C
        QCOMPARE(QGuiApplication::clipboard()->text(), fullStack);
        QVERIFY(view.actions().contains(view.copyAction())); // and the context menu's Copy
        QTreeWidgetItem *dims = findField(view, QStringLiteral("Input Dims"));
        QVERIFY(dims);
        view.clearSelection();
        stack->setSelected(true);
        dims->setSelected(true);
        QCOMPARE(view.copyText(), QStringLiteral("Input Dims\t[[4096], [64, 1024], [1024, 4096], [], []]\nCall stack\t") + fullStack);

        // A width the user dragged the Field column to stays, through resizes and other slices.
        view.header()->resizeSection(0, 123);
        view.resize(360, 500);
        view.showSlice(SliceId(0));
        QCOMPARE(view.columnWidth(0), 123);

        // Nothing selected: the hint is one line across both columns, not squeezed into Field.
        view.showSlice({});
        QCOMPARE(view.topLevelItemCount(), 2);
        QVERIFY(view.topLevelItem(0)->isFirstColumnSpanned());
        QVERIFY(view.topLevelItem(1)->isFirstColumnSpanned());
        QCOMPARE(view.topLevelItem(0)->text(0), QStringLiteral("No slice selected."));
        QCOMPARE(view.topLevelItem(1)->text(0), QStringLiteral("Click a slice in the timeline."));
    }
};

QTEST_MAIN(TestSliceDetailsView)
#include "tst_slicedetailsview.moc"
