// The Flame Graph dock in the real main window, offscreen, on a Kineto trace the test writes the way
// PyTorch's profiler writes one with with_stack=True (python_function frames "file(line): name"
// around cpu_op / cuda_runtime / kernel events): the dock joins its tab group by itself for such a
// trace, Shift+F raises it, its tree has the numbers CallTree computes, a click on a frame makes its
// slices the timeline's matches (in time order) and names the frame for the Source dock, the weight
// box switches to device time launched and to the bottom-up tree, a marked range restricts it, and
// two profiles give the differential graph. A trace without call stacks leaves the dock hidden.
#include "calltreetraces.h"

#include "flamegraphpanel.h"
#include "mainwindow.h"
#include "session.h"

#include "flamegraph/flamegraphview.h"
#include "timeline/timelineview.h"

#include "analysis/calltree.h"
#include "analysis/launchindex.h"
#include "model/trace.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

uint32_t nodeNamed(const CallTree::Result &r, const std::string &name)
{
    for (uint32_t i = 1; i < r.nodes.size(); ++i)
        if (r.nodes[i].name == name)
            return i;
    return UINT32_MAX;
}

bool waitComputed(FlameGraphPanel *panel)
{
    if (!panel->isComputing())
        return true;
    QSignalSpy computed(panel, &FlameGraphPanel::computed);
    return computed.wait(20000);
}

} // namespace

class TestFlameGraphPanel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void clickSelectsOccurrences()
    {
        const QString path = lanescope::test::writeStackTrace(m_dir, "stacks.json");
        QVERIFY(!path.isEmpty());
        MainWindow w;
        w.setQuietErrors(true);
        QSignalSpy finished(w.session(), &Session::loadFinished);
        w.session()->open(path);
        QVERIFY(finished.wait(60000));
        const auto trace = w.session()->trace();
        QVERIFY(trace);
        FlameGraphPanel *panel = w.flameGraphPanel();
        QCOMPARE(panel->objectName(), QStringLiteral("flameGraphDock"));
        QVERIFY(!panel->isHidden()); // tabbed by itself: the trace has call stacks
        QCOMPARE(panel->showAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F));

        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.timeline()->setFocus();
        QTest::keyClick(w.timeline(), Qt::Key_F, Qt::ShiftModifier);
        QVERIFY(panel->isVisible());
        QVERIFY(waitComputed(panel));
        FlameGraphView *view = panel->view();
        const CallTree::Result *shown = view->tree();
        QVERIFY(shown);
        // The numbers CallTree computes (its own tests check them against independent counts).
        const LaunchIndex index = LaunchIndex::build(*trace);
        const CallTree::Result expected = CallTree::compute(*trace, index, {});
        QCOMPARE(shown->nodes.size(), expected.nodes.size());
        QCOMPARE(shown->root().total, expected.root().total);
        QCOMPARE(shown->root().device, int64_t(120000)); // 50 + 70 us of gemm
        const uint32_t step = nodeNamed(*shown, "train.py(20): step");
        QVERIFY(step != UINT32_MAX);
        QCOMPARE(shown->nodes[step].calls, uint64_t(2));
        QCOMPARE(shown->nodes[step].total, int64_t(800000));

        // A click: the two step slices become the timeline's matches, the frame goes to the Source dock.
        QSignalSpy frame(panel, &FlameGraphPanel::frameSelected);
        const QRectF box = view->nodeRect(step);
        QVERIFY(!box.isEmpty());
        QTest::mouseClick(view, Qt::LeftButton, {}, box.center().toPoint());
        const auto &matches = w.timeline()->searchMatches();
        QCOMPARE(matches.size(), size_t(2));
        for (uint32_t id : matches)
            QCOMPARE(trace->str(trace->slice(SliceId(id)).name), std::string_view("train.py(20): step"));
        QVERIFY(trace->slice(SliceId(matches[0])).start < trace->slice(SliceId(matches[1])).start);
        QCOMPARE(frame.count(), 1);
        QCOMPARE(frame.front().front().toString(), QStringLiteral("train.py(20): step"));
        QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("2 slice")), qPrintable(panel->statusLabel()->text()));

        // Device time launched: the same tree, weighed by the kernels.
        panel->modeBox()->setCurrentIndex(int(FlameGraphPanel::Mode::Device));
        panel->recompute();
        QVERIFY(waitComputed(panel));
        QCOMPARE(view->weight(), CallTree::Weight::Device);
        QCOMPARE(view->tree()->root().weight(CallTree::Weight::Device), int64_t(120000));
        const uint32_t mm = nodeNamed(*view->tree(), "aten::mm");
        QVERIFY(mm != UINT32_MAX);
        QCOMPARE(view->tree()->nodes[mm].device, int64_t(120000));

        // Self time: the bottom-up tree; its first level holds every frame's self time.
        panel->modeBox()->setCurrentIndex(int(FlameGraphPanel::Mode::Self));
        panel->recompute();
        QVERIFY(waitComputed(panel));
        const CallTree::Result *up = view->tree();
        QVERIFY(up != panel->topDown());
        QCOMPARE(up->root().total, expected.root().total);
        const uint32_t launch = nodeNamed(*up, "cudaLaunchKernel");
        QVERIFY(launch != UINT32_MAX);
        QCOMPARE(up->nodes[launch].parent, uint32_t(0));
        QCOMPARE(panel->occurrencesOf(launch).size(), size_t(2)); // both runtime calls

        // The marked range [0, 450 us): only the first step.
        panel->modeBox()->setCurrentIndex(int(FlameGraphPanel::Mode::Cpu));
        QSignalSpy computed(panel, &FlameGraphPanel::computed);
        w.session()->setMarkedRange(trace->startNs(), trace->startNs() + 450000);
        QVERIFY(computed.wait(20000));
        const uint32_t step1 = nodeNamed(*view->tree(), "train.py(20): step");
        QVERIFY(step1 != UINT32_MAX);
        QCOMPARE(view->tree()->nodes[step1].calls, uint64_t(1));
        QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("Marked range")));
    }

    void differentialInCompareMode()
    {
        QTemporaryDir dir;
        const QString a = lanescope::test::writeStackTrace(dir, "a.json"), b = lanescope::test::writeStackTrace(dir, "b.json", true);
        MainWindow w;
        w.setQuietErrors(true);
        QSignalSpy finished(w.session(), &Session::loadFinished);
        w.session()->openComparison({a, b});
        QVERIFY(finished.wait(120000));
        QVERIFY(w.session()->isComparing());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        FlameGraphPanel *panel = w.flameGraphPanel();
        panel->showAction()->trigger();
        QVERIFY(waitComputed(panel));
        panel->modeBox()->setCurrentIndex(int(FlameGraphPanel::Mode::Device));
        panel->recompute();
        QVERIFY(waitComputed(panel));
        FlameGraphView *view = panel->view();
        QVERIFY2(view->tree(), qPrintable(panel->statusLabel()->text()));
        QVERIFY(view->isDifferential());
        QCOMPARE(view->tree()->root().device, int64_t(220000)); // B: 50 + 170 us
        QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("Differential")), qPrintable(panel->statusLabel()->text()));
        const uint32_t mm = nodeNamed(*view->tree(), "aten::mm");
        QVERIFY(mm != UINT32_MAX);
        QVERIFY2(view->tooltipText(mm).contains(QStringLiteral("+100 us")) || view->tooltipText(mm).contains(QStringLiteral("+100 µs")),
                 qPrintable(view->tooltipText(mm)));
        // B's slices, as slices of the combined trace on B's lanes.
        panel->selectNode(mm);
        const auto combined = w.session()->trace();
        const auto &matches = w.timeline()->searchMatches();
        QCOMPARE(matches.size(), size_t(2));
        for (uint32_t id : matches) {
            QCOMPARE(combined->str(combined->slice(SliceId(id)).name), std::string_view("aten::mm"));
            QVERIFY(QString::fromStdString(combined->trackPath(combined->trackOfSlice(SliceId(id)))).contains(QStringLiteral("B")));
        }
    }

    void hiddenWithoutCallStacks()
    {
        QTemporaryDir dir;
        lanescope::test::KinetoEvents e;
        e.step(1, 0, 100);
        const QString path = e.write(dir, "nostacks.json");
        MainWindow w;
        w.setQuietErrors(true);
        QSignalSpy finished(w.session(), &Session::loadFinished);
        w.session()->open(path);
        QVERIFY(finished.wait(60000));
        QVERIFY(w.flameGraphPanel()->isHidden());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Shift+F still shows the op nesting.
        w.flameGraphPanel()->showAction()->trigger();
        QVERIFY(waitComputed(w.flameGraphPanel()));
        QVERIFY(w.flameGraphPanel()->view()->tree());
        QVERIFY(nodeNamed(*w.flameGraphPanel()->view()->tree(), "aten::add") != UINT32_MAX);
    }
};

QTEST_MAIN(TestFlameGraphPanel)
#include "tst_flamegraphpanel.moc"
