// TimelineInput through a real TimelineView: box zoom, F to fit, Backspace undo, M marks a range,
// Shift+drag selects a range, arrows pan, / asks for search, and the cursor readout repaints.
#include "timeline/timelineinput.h"
#include "timeline/timelineview.h"
#include "session/viewstate.h"

#include "model/tracebuilder.h"

#include <QSignalSpy>
#include <QTest>

using namespace lanescope;

namespace {

constexpr int64_t kBase = 1'000'000'000;

std::shared_ptr<const Trace> makeTrace()
{
    TraceBuilder b;
    const StringId cat = b.intern("c");
    const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
    const TrackId t = b.addTrack(p, TrackKind::Slices, b.intern("main"), 1);
    b.addSlice(t, kBase, 1'000'000, b.intern("root"), cat);
    b.addSlice(t, kBase + 200'000, 100'000, b.intern("child"), cat);
    return std::make_shared<const Trace>(b.finish());
}

} // namespace

class TestTimelineInput : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const Trace> m_trace;
    std::unique_ptr<TimelineView> m_view;

    int xAt(int64_t t) const
    {
        const QRect area = m_view->timeArea();
        const auto [t0, t1] = m_view->visibleRange();
        return area.left() + int(double(t - t0) / double(t1 - t0) * area.width());
    }
    int laneY() const { return m_view->timeArea().top() + m_view->layout().rows()[1].y + 5; }

private slots:
    void init()
    {
        m_trace = makeTrace();
        m_view = std::make_unique<TimelineView>();
        m_view->resize(1000, 300);
        m_view->setTrace(m_trace);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }
    void cleanup() { m_view.reset(); }

    void boxZoomAndUndo()
    {
        const auto all = m_view->visibleRange();
        const int y = laneY();
        const int x0 = xAt(kBase + 400'000), x1 = xAt(kBase + 600'000);
        QTest::mousePress(m_view.get(), Qt::LeftButton, Qt::ControlModifier, QPoint(x0, y));
        QTest::mouseMove(m_view.get(), QPoint(x0 + 40, y));
        QTest::mouseMove(m_view.get(), QPoint(x1, y));
        QCOMPARE(m_view->visibleRange(), all); // no pan while box-zooming
        QTest::mouseRelease(m_view.get(), Qt::LeftButton, Qt::ControlModifier, QPoint(x1, y));
        const auto [t0, t1] = m_view->visibleRange();
        QVERIFY(std::abs(t0 - (kBase + 400'000)) < 2'000);
        QVERIFY(std::abs(t1 - (kBase + 600'000)) < 2'000);
        QTest::keyClick(m_view.get(), Qt::Key_Backspace);
        QCOMPARE(m_view->visibleRange(), all);
    }

    void fitSelectedSliceWithF()
    {
        const SliceId child(1);
        QCOMPARE(m_trace->str(m_trace->slice(child).name), std::string_view("child"));
        m_view->setSelectedSlice(child);
        const auto before = m_view->visibleRange();
        QTest::keyClick(m_view.get(), Qt::Key_F);
        const auto [t0, t1] = m_view->visibleRange();
        QVERIFY(t0 < kBase + 200'000 && t0 >= kBase + 180'000);
        QVERIFY(t1 > kBase + 300'000 && t1 <= kBase + 320'000);
        // Zoom in more with W, then Backspace twice: W is not an undo point, F is.
        QTest::keyClick(m_view.get(), Qt::Key_W);
        QTest::keyClick(m_view.get(), Qt::Key_Backspace);
        QCOMPARE(m_view->visibleRange(), before);
        QTest::keyClick(m_view.get(), Qt::Key_Home);
        QCOMPARE(m_view->visibleRange(), before);
    }

    void markRangeWithM()
    {
        QSignalSpy spy(m_view->viewState(), &ViewState::markedRangeChanged);
        m_view->setSelectedSlice(SliceId(1));
        QTest::keyClick(m_view.get(), Qt::Key_M);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(m_view->viewState()->markedStart(), kBase + 200'000);
        QCOMPARE(m_view->viewState()->markedEnd(), kBase + 300'000);
        // F with no slice selected fits the marked range.
        m_view->setSelectedSlice({});
        QTest::keyClick(m_view.get(), Qt::Key_F);
        QCOMPARE(m_view->visibleRange(), std::make_pair(kBase + 200'000, kBase + 300'000));
        QTest::keyClick(m_view.get(), Qt::Key_Escape);
        QVERIFY(!m_view->viewState()->hasMarkedRange());
    }

    void shiftDragSelectsRange()
    {
        const auto all = m_view->visibleRange();
        const int y = laneY();
        const int x0 = xAt(kBase + 100'000), x1 = xAt(kBase + 500'000);
        QTest::mousePress(m_view.get(), Qt::LeftButton, Qt::ShiftModifier, QPoint(x0, y));
        QTest::mouseMove(m_view.get(), QPoint(x0 + 30, y));
        QTest::mouseMove(m_view.get(), QPoint(x1, y));
        QTest::mouseRelease(m_view.get(), Qt::LeftButton, Qt::ShiftModifier, QPoint(x1, y));
        QCOMPARE(m_view->visibleRange(), all);
        const ViewState *zoom = m_view->viewState();
        QVERIFY(zoom->hasMarkedRange());
        QVERIFY(std::abs(zoom->markedStart() - (kBase + 100'000)) < 2'000);
        QVERIFY(std::abs(zoom->markedEnd() - (kBase + 500'000)) < 2'000);
    }

    void arrowsPanAndSlashSearches()
    {
        QTest::keyClick(m_view.get(), Qt::Key_W);
        QTest::keyClick(m_view.get(), Qt::Key_W);
        const auto [t0, t1] = m_view->visibleRange();
        const int64_t step = int64_t(double(t1 - t0) * TimelineView::kKeyPanFraction);
        QTest::keyClick(m_view.get(), Qt::Key_Right);
        QVERIFY(std::abs(m_view->visibleRange().first - (t0 + step)) <= 1);
        QTest::keyClick(m_view.get(), Qt::Key_Left);
        QVERIFY(std::abs(m_view->visibleRange().first - t0) <= 1);
        QSignalSpy search(m_view.get(), &TimelineView::searchRequested);
        QTest::keyClick(m_view.get(), Qt::Key_Slash);
        QTest::keyClick(m_view.get(), Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(search.count(), 2);
    }

    void cursorReadoutRepaints()
    {
        const QImage before = m_view->grab().toImage();
        const QPoint p(xAt(kBase + 700'000), laneY());
        QTest::mouseMove(m_view.get(), p);
        QTRY_VERIFY(m_view->grab().toImage() != before); // the cursor line and the time label
        // The ruler shows the time under the cursor: compare the ruler strip only.
        const QImage after = m_view->grab().toImage();
        const QRect ruler(m_view->timeArea().left(), 0, m_view->timeArea().width(), m_view->timeArea().top());
        QVERIFY(after.copy(ruler) != before.copy(ruler));
    }
};

QTEST_MAIN(TestTimelineInput)
#include "tst_timelineinput.moc"
