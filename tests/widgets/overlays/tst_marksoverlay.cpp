// MarksOverlay: marked time ranges (shaded, edges, optional duration in the ruler) and marked
// slices (outlined, any order, duplicates once, ids outside the trace ignored): the view's marked
// range is one, findings are another instance added with addOverlay().
#include "overlays/marksoverlay.h"
#include "timeline/timelineview.h"
#include "session/viewstate.h"

#include "model/tracebuilder.h"

#include <QTest>

using namespace lanescope;

namespace {

std::shared_ptr<const Trace> makeTrace()
{
    TraceBuilder b;
    const StringId cat = b.intern("c");
    const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
    const TrackId t = b.addTrack(p, TrackKind::Slices, b.intern("t"), 1);
    b.addSlice(t, 100, 200, b.intern("a"), cat);
    b.addSlice(t, 400, 200, b.intern("b"), cat);
    b.addSlice(t, 700, 200, b.intern("c"), cat);
    return std::make_shared<const Trace>(b.finish());
}

} // namespace

class TestMarksOverlay : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const Trace> m_trace;
    std::unique_ptr<TimelineView> m_view;

    QImage grab() { return m_view->grab().toImage(); }
    // Just inside the top-left corner of a slice: where its outline is drawn.
    QPoint outlinePoint(uint32_t id) const
    {
        const QRectF r = m_view->sliceRect(SliceId(id));
        return QPoint(int(r.center().x()), int(r.top()) + 1);
    }

private slots:
    void init()
    {
        m_trace = makeTrace();
        m_view = std::make_unique<TimelineView>();
        m_view->resize(800, 200);
        m_view->setTrace(m_trace);
    }
    void cleanup() { m_view.reset(); }

    void state()
    {
        MarksOverlay marks;
        marks.setRanges({{10, 20}, {30, 30}, {50, 40}});
        QCOMPARE(marks.ranges().size(), size_t(1)); // empty and reversed ranges dropped
        marks.setSlices({2, 0, 2, 1});
        QCOMPARE(marks.slices(), (std::vector<uint32_t>{0, 1, 2}));
        marks.reset();
        QVERIFY(marks.ranges().empty());
        QVERIFY(marks.slices().empty());
    }

    void outlinesMarkedSlices()
    {
        const QImage plain = grab();
        MarksOverlay::Style style;
        style.outline = QColor(0xff, 0x00, 0xff);
        MarksOverlay *findings = m_view->addOverlay(std::make_unique<MarksOverlay>(style));
        findings->setSlices({2, 0, 99}); // 99 is not in the trace
        const QImage marked = grab();
        QCOMPARE(QColor(marked.pixel(outlinePoint(0))), style.outline);
        QCOMPARE(QColor(marked.pixel(outlinePoint(2))), style.outline);
        QCOMPARE(marked.pixel(outlinePoint(1)), plain.pixel(outlinePoint(1)));
        QCOMPARE(findings->slices(), (std::vector<uint32_t>{0, 2}));
        findings->clear();
        QCOMPARE(grab(), plain);
    }

    void shadesRanges()
    {
        const QImage plain = grab();
        MarksOverlay *findings = m_view->addOverlay(std::make_unique<MarksOverlay>());
        findings->setRanges({{400, 600}});
        const QImage shaded = grab();
        const QRect area = m_view->timeArea();
        const int inside = int((m_view->sliceRect(SliceId(1)).left() + m_view->sliceRect(SliceId(1)).right()) / 2);
        const int outside = int(m_view->sliceRect(SliceId(0)).center().x());
        const QPoint below(inside, area.bottom() - 3), belowOut(outside, area.bottom() - 3);
        QVERIFY(shaded.pixel(below) != plain.pixel(below));
        QCOMPARE(shaded.pixel(belowOut), plain.pixel(belowOut));
        // No duration label unless asked for: the ruler is untouched.
        for (int x = area.left(); x < area.right(); x += 7)
            QCOMPARE(shaded.pixel(x, area.top() / 2), plain.pixel(x, area.top() / 2));
        m_view->setTrace(m_trace); // a new trace forgets the marks
        QVERIFY(findings->ranges().empty());
    }

    void markedRangeIsAMarksOverlay()
    {
        QVERIFY(m_view->markedRange().ranges().empty());
        m_view->viewState()->setMarkedRange(400, 600);
        QCOMPARE(m_view->markedRange().ranges().size(), size_t(1));
        QCOMPARE(m_view->markedRange().ranges().front(), (std::pair<int64_t, int64_t>(400, 600)));
        const QImage labelled = grab();
        m_view->viewState()->clearMarkedRange();
        QVERIFY(m_view->markedRange().ranges().empty());
        const QImage plain = grab();
        // The duration label sits in the ruler above the range.
        const int x = int((m_view->sliceRect(SliceId(1)).left() + m_view->sliceRect(SliceId(1)).right()) / 2);
        bool differs = false;
        for (int y = 2; y < m_view->timeArea().top() - 2; ++y)
            differs = differs || labelled.pixel(x, y) != plain.pixel(x, y);
        QVERIFY(differs);
        // A new trace clears ViewState's selection, and the overlay follows.
        m_view->viewState()->setMarkedRange(400, 600);
        m_view->setTrace(m_trace);
        QVERIFY(m_view->markedRange().ranges().empty());
    }
};

QTEST_MAIN(TestMarksOverlay)
#include "tst_marksoverlay.moc"
