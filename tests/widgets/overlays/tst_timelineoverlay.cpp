// TimelineOverlay through TimelineView::addOverlay: added overlays paint after the built-in ones in
// the order added, see the frame of the paint, can be removed, are reset with a new trace, ask for
// repaints, and can dim slices (as the dependency chain does).
#include "overlays/timelineoverlay.h"
#include "timeline/timelineframe.h"
#include "timeline/timelineview.h"

#include "model/tracebuilder.h"

#include <QPainter>
#include <QTest>

using namespace lanescope;

namespace {

std::shared_ptr<const Trace> makeTrace()
{
    TraceBuilder b;
    const StringId cat = b.intern("c");
    const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
    const TrackId t = b.addTrack(p, TrackKind::Slices, b.intern("t"), 1);
    b.addSlice(t, 100, 300, b.intern("first"), cat);
    b.addSlice(t, 600, 300, b.intern("second"), cat);
    return std::make_shared<const Trace>(b.finish());
}

// Records what it saw; fills a small square so its painting order is visible in the image.
class Probe : public TimelineOverlay
{
public:
    Probe(std::vector<int> *log, int tag, QColor colour) : m_log(log), m_tag(tag), m_colour(colour) {}

    void paint(QPainter &p, const TimelineFrame &frame) override
    {
        m_log->push_back(m_tag);
        lastRange = frame.visibleRange();
        const QRect a = frame.timeArea();
        p.fillRect(QRect(a.left() + 10, a.bottom() - 20, 10, 10), m_colour);
    }
    void reset() override { ++resets; }
    bool dimsSlices() const override { return dimAllBut.isValid(); }
    bool keepsColour(SliceId id) const override { return id == dimAllBut; }
    void changed() { requestRepaint(); }

    std::pair<int64_t, int64_t> lastRange;
    int resets = 0;
    SliceId dimAllBut;

private:
    std::vector<int> *m_log;
    int m_tag;
    QColor m_colour;
};

} // namespace

class TestTimelineOverlay : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const Trace> m_trace;
    std::unique_ptr<TimelineView> m_view;
    std::vector<int> m_log;

    QPoint probePoint() const { return {m_view->timeArea().left() + 15, m_view->timeArea().bottom() - 15}; }
    QPoint slicePoint(uint32_t id) const { return m_view->sliceRect(SliceId(id)).center().toPoint(); }

private slots:
    void init()
    {
        m_log.clear();
        m_trace = makeTrace();
        m_view = std::make_unique<TimelineView>();
        m_view->resize(700, 200);
        m_view->setTrace(m_trace);
    }
    void cleanup() { m_view.reset(); }

    void paintedInOrderAdded()
    {
        const size_t builtIn = m_view->overlayCount();
        QCOMPARE(builtIn, size_t(5)); // marked range, search hits, chain, selection, flows
        Probe *red = m_view->addOverlay(std::make_unique<Probe>(&m_log, 1, QColor(Qt::red)));
        Probe *blue = m_view->addOverlay(std::make_unique<Probe>(&m_log, 2, QColor(Qt::blue)));
        QCOMPARE(m_view->overlayCount(), builtIn + 2);
        const QImage image = m_view->grab().toImage();
        QCOMPARE(m_log, (std::vector<int>{1, 2}));
        QCOMPARE(QColor(image.pixel(probePoint())), QColor(Qt::blue)); // the later one is on top
        QCOMPARE(red->lastRange, m_view->visibleRange());
        QCOMPARE(blue->lastRange, m_view->visibleRange());
    }

    void removeGivesItBack()
    {
        const QImage plain = m_view->grab().toImage();
        Probe *probe = m_view->addOverlay(std::make_unique<Probe>(&m_log, 1, QColor(Qt::red)));
        QVERIFY(m_view->grab().toImage() != plain);
        std::unique_ptr<TimelineOverlay> back = m_view->removeOverlay(probe);
        QCOMPARE(back.get(), static_cast<TimelineOverlay *>(probe));
        QCOMPARE(m_view->grab().toImage(), plain);
        QVERIFY(!m_view->removeOverlay(probe));   // not in the view any more
        QVERIFY(!m_view->removeOverlay(nullptr));
        QCOMPARE(m_view->overlayCount(), size_t(5));
        // A null overlay is ignored.
        m_view->addOverlay(std::unique_ptr<TimelineOverlay>());
        QCOMPARE(m_view->overlayCount(), size_t(5));
    }

    void resetWithNewTrace()
    {
        Probe *probe = m_view->addOverlay(std::make_unique<Probe>(&m_log, 1, QColor(Qt::red)));
        QCOMPARE(probe->resets, 0);
        m_view->setTrace(makeTrace());
        QCOMPARE(probe->resets, 1);
        m_view->setTrace(nullptr);
        QCOMPARE(probe->resets, 2);
        (void)m_view->grab(); // no trace: overlays are not asked to paint
        QVERIFY(m_log.empty());
    }

    void repaintRequest()
    {
        Probe *probe = m_view->addOverlay(std::make_unique<Probe>(&m_log, 1, QColor(Qt::red)));
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        QTRY_VERIFY(!m_log.empty());
        m_log.clear();
        probe->changed();
        QTRY_VERIFY(!m_log.empty());
    }

    void dimming()
    {
        const QImage plain = m_view->grab().toImage();
        Probe *probe = m_view->addOverlay(std::make_unique<Probe>(&m_log, 1, QColor(Qt::red)));
        probe->dimAllBut = SliceId(0);
        const QImage dimmed = m_view->grab().toImage();
        QCOMPARE(dimmed.pixel(slicePoint(0) + QPoint(0, 4)), plain.pixel(slicePoint(0) + QPoint(0, 4)));
        QVERIFY(dimmed.pixel(slicePoint(1) + QPoint(0, 4)) != plain.pixel(slicePoint(1) + QPoint(0, 4)));
        probe->dimAllBut = SliceId();
        QCOMPARE(m_view->grab().toImage().pixel(slicePoint(1) + QPoint(0, 4)), plain.pixel(slicePoint(1) + QPoint(0, 4)));
    }
};

QTEST_MAIN(TestTimelineOverlay)
#include "tst_timelineoverlay.moc"
