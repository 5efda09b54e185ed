// The built-in overlays of TimelineView (FlowOverlay, MarksOverlay for the marked range): flow
// arrows for the selected slice (and all visible flows on demand), the selected range shading and
// the dark theme.
#include "timeline/timelinepalette.h"
#include "timeline/timelineview.h"
#include "session/viewstate.h"

#include "model/tracebuilder.h"
#include "slicebyname.h"

#include <QTest>

using namespace lanescope;

namespace {

// cpu: launch_a [100, 200) -> gpu: kernel_a [300, 500); launch_b [600, 700) -> kernel_b [800, 900)
std::shared_ptr<const Trace> makeTrace()
{
    TraceBuilder b;
    const StringId cat = b.intern("c");
    const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
    const TrackId cpu = b.addTrack(p, TrackKind::Slices, b.intern("cpu"), 1);
    const TrackId gpu = b.addTrack(p, TrackKind::Slices, b.intern("gpu"), 2);
    const uint32_t la = b.addSlice(cpu, 100, 100, b.intern("launch_a"), cat);
    const uint32_t ka = b.addSlice(gpu, 300, 200, b.intern("kernel_a"), cat);
    const uint32_t lb = b.addSlice(cpu, 600, 100, b.intern("launch_b"), cat);
    const uint32_t kb = b.addSlice(gpu, 800, 100, b.intern("kernel_b"), cat);
    b.addSlice(cpu, 950, 50, b.intern("alone"), cat);
    b.addFlow(FlowEnd::slice(la), FlowEnd::slice(ka), b.intern("ac2g"), b.intern("flow"), 1);
    b.addFlow(FlowEnd::slice(lb), FlowEnd::slice(kb), b.intern("ac2g"), b.intern("flow"), 2);
    return std::make_shared<const Trace>(b.finish());
}

} // namespace

class TestTimelineOverlays : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const Trace> m_trace;
    std::unique_ptr<TimelineView> m_view;

    void paint() { (void)m_view->grab(); }

private slots:
    void init()
    {
        m_trace = makeTrace();
        m_view = std::make_unique<TimelineView>();
        m_view->resize(900, 300);
        m_view->setTrace(m_trace);
    }
    void cleanup() { m_view.reset(); }

    void flowsOfSelectedSlice()
    {
        paint();
        QVERIFY(m_view->flowArrows().empty());
        const SliceId la = sliceByName(*m_trace, "launch_a"), ka = sliceByName(*m_trace, "kernel_a");
        m_view->setSelectedSlice(la);
        paint();
        QCOMPARE(m_view->flowArrows().size(), size_t(1));
        const auto &arrow = m_view->flowArrows().front();
        const QRectF from = m_view->sliceRect(la), to = m_view->sliceRect(ka);
        QCOMPARE(arrow.from, QPointF(from.right(), from.center().y()));
        QCOMPARE(arrow.to, QPointF(to.left(), to.center().y()));
        // The target end shows the same flow (incoming).
        m_view->setSelectedSlice(ka);
        paint();
        QCOMPARE(m_view->flowArrows().size(), size_t(1));
        m_view->setSelectedSlice(sliceByName(*m_trace, "alone"));
        paint();
        QVERIFY(m_view->flowArrows().empty());
    }

    void allFlowsOnDemand()
    {
        m_view->setShowAllFlows(true);
        paint();
        QCOMPARE(m_view->flowArrows().size(), size_t(2));
        // Only flows touching the visible range.
        m_view->setVisibleRange(0, 250);
        paint();
        QCOMPARE(m_view->flowArrows().size(), size_t(1));
        m_view->setShowAllFlows(false);
        paint();
        QVERIFY(m_view->flowArrows().empty());
    }

    void rangeShadingAndDarkTheme()
    {
        const QImage plain = m_view->grab().toImage();
        m_view->viewState()->setMarkedRange(300, 500);
        const QImage shaded = m_view->grab().toImage();
        QVERIFY(plain != shaded);
        m_view->viewState()->clearMarkedRange();
        QCOMPARE(m_view->grab().toImage(), plain);

        // Colour by category: all slices share category "c", so launch_a and kernel_a look alike.
        const auto colourAt = [&](const QImage &img, std::string_view name) {
            const QRectF r = m_view->sliceRect(sliceByName(*m_trace, name));
            return img.pixel(QPoint(int(r.left()) + 2, int(r.bottom()) - 2));
        };
        QVERIFY(colourAt(plain, "launch_a") != colourAt(plain, "kernel_a"));
        m_view->setColorByCategory(true);
        const QImage byCategory = m_view->grab().toImage();
        QCOMPARE(colourAt(byCategory, "launch_a"), colourAt(byCategory, "kernel_a"));
        m_view->setColorByCategory(false);

        m_view->setTheme(TimelinePalette::Theme::Dark);
        const QImage dark = m_view->grab().toImage();
        const QPoint empty(m_view->timeArea().right() - 5, m_view->timeArea().bottom() - 5);
        QCOMPARE(QColor(dark.pixel(empty)), TimelinePalette::dark().background);
        QCOMPARE(QColor(plain.pixel(empty)), TimelinePalette::light().background);
        if (!qEnvironmentVariableIsEmpty("LANESCOPE_SAVE_SCREENSHOTS")) {
            m_view->setSelectedSlice(sliceByName(*m_trace, "launch_b"));
            m_view->grab().save(QStringLiteral("/tmp/tst_overlays_dark.png"));
        }
    }
};

QTEST_MAIN(TestTimelineOverlays)
#include "tst_timelineoverlays.moc"
