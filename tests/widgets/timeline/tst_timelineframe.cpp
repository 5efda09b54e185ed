// TimelineFrame: the read-only picture of one frame that the painter and the overlays draw from
// agrees with the view (slice rectangles, hit testing, time <-> x, rows, names) and its lanes come
// from the view's cache.
#include "lanes/lanegeometry.h"
#include "timeline/timelineframe.h"
#include "timeline/timelineview.h"
#include "session/viewstate.h"

#include "model/tracebuilder.h"
#include "slicebyname.h"

#include <QTest>

using namespace lanescope;

namespace {

std::shared_ptr<const Trace> makeTrace()
{
    TraceBuilder b;
    const StringId cat = b.intern("c");
    const GroupId p = b.addGroup(GroupKind::Process, b.intern("python"), {}, 42);
    const TrackId cpu = b.addTrack(p, TrackKind::Slices, b.intern("cpu"), 1);
    const TrackId gpu = b.addTrack(p, TrackKind::Slices, b.intern(""), 7);
    b.addSlice(cpu, 1000, 1000, b.intern("outer"), cat);
    b.addSlice(cpu, 1200, 300, b.intern("inner"), cat);
    b.addSlice(gpu, 1500, 400, b.intern("kernel"), cat);
    return std::make_shared<const Trace>(b.finish());
}

} // namespace

class TestTimelineFrame : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const Trace> m_trace;
    std::unique_ptr<TimelineView> m_view;

private slots:
    void init()
    {
        m_trace = makeTrace();
        m_view = std::make_unique<TimelineView>();
        m_view->resize(800, 240);
        m_view->setTrace(m_trace);
        m_view->setVisibleRange(1000, 2000);
    }
    void cleanup() { m_view.reset(); }

    void geometryMatchesTheView()
    {
        const TimelineFrame f = m_view->frame();
        QCOMPARE(f.trace(), m_trace.get());
        QCOMPARE(f.size(), m_view->size());
        QCOMPARE(f.timeArea(), m_view->timeArea());
        QCOMPARE(f.headerWidth(), m_view->timeArea().left());
        QCOMPARE(f.rulerHeight(), m_view->timeArea().top());
        QCOMPARE(f.visibleRange(), m_view->visibleRange());
        QCOMPARE(&f.layout(), &m_view->layout());
        QCOMPARE(f.palette().background, m_view->colors().background);
    }

    void timeAndX()
    {
        const TimelineFrame f = m_view->frame();
        const auto [t0, t1] = f.visibleRange();
        QCOMPARE(f.xOf(t0), double(f.timeArea().left()));
        QCOMPARE(f.xOf(t1), double(f.timeArea().left() + f.timeArea().width()));
        QCOMPARE(f.timeAtX(f.xOf(1500)), int64_t(1500));
        QCOMPARE(f.timeAtX(300), m_view->timeAtX(300));
        // Far outside the range: clamped to two pixels beyond the time area.
        QCOMPARE(f.clampedXOf(-1'000'000), f.timeArea().left() - 2.0);
        QCOMPARE(f.clampedXOf(1'000'000), f.timeArea().left() + f.timeArea().width() + 2.0);
    }

    void slicesAndRows()
    {
        const TimelineFrame f = m_view->frame();
        for (const char *name : {"outer", "inner", "kernel"}) {
            const SliceId id = sliceByName(*m_trace, name);
            const QRectF r = f.sliceRect(id);
            QCOMPARE(r, m_view->sliceRect(id));
            QVERIFY(f.isOnScreen(r));
            QCOMPARE(f.sliceAt(r.center().toPoint()), id);
        }
        QVERIFY(f.sliceRect(SliceId()).isEmpty());
        QVERIFY(f.sliceRect(SliceId(99)).isEmpty());
        QVERIFY(!f.isOnScreen(QRectF()));

        // The first row is the process header, right below the ruler; then the two tracks.
        const auto &rows = f.layout().rows();
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(f.rowTop(rows[0]), f.rulerHeight());
        QCOMPARE(f.rowIndexAtY(f.rulerHeight() - 1), -1);
        QCOMPARE(f.rowIndexAtY(f.rowTop(rows[1])), 1);
        QVERIFY(f.groupAtY(f.rowTop(rows[0])).isValid());
        QVERIFY(!f.trackAtY(f.rowTop(rows[0])).isValid());
        QCOMPARE(f.trackAtY(f.rowTop(rows[2])), m_view->trackAtY(f.rowTop(rows[2])));
        QVERIFY(!f.groupAtY(f.rowTop(rows[2])).isValid());

        // Names: a process shows its pid, a nameless track its id.
        QCOMPARE(f.groupName(rows[0].group()), QStringLiteral("python (pid 42)"));
        QCOMPARE(f.trackName(rows[2].track()), QStringLiteral("track 7"));
    }

    void lanesComeFromTheCache()
    {
        const TimelineFrame f = m_view->frame();
        const LaneGeometry &g = f.lane(1); // the cpu track: outer and inner
        QVERIFY(g.valid);
        QCOMPARE(g.slices.size(), size_t(2));
        QCOMPARE(&f.lane(1), &g); // built once per viewport
        // A new range rebuilds it for the new viewport.
        m_view->setVisibleRange(1000, 1100);
        const TimelineFrame zoomed = m_view->frame();
        QCOMPARE(zoomed.lane(1).slices.size(), size_t(1)); // only outer reaches into [1000, 1100]
    }

    void emptyView()
    {
        TimelineView empty;
        empty.resize(400, 200);
        const TimelineFrame f = empty.frame();
        QVERIFY(!f.trace());
        QVERIFY(f.sliceRect(SliceId(0)).isEmpty());
        QVERIFY(!f.sliceAt(QPoint(300, 100)).isValid());
        QVERIFY(!empty.grab().isNull());
    }
};

QTEST_MAIN(TestTimelineFrame)
#include "tst_timelineframe.moc"
