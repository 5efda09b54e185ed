// TimelineView over a small hand-built trace: lanes, keyboard zoom, hit testing, clicks and a
// rendered frame that must not be blank. Runs offscreen; set LANESCOPE_SAVE_SCREENSHOTS=1 to keep
// the frames as PNGs in the temp directory.
#include "lanes/lanegeometry.h"
#include "timeline/timelineview.h"
#include "session/viewstate.h"

#include "model/tracebuilder.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

#include <set>

using namespace lanescope;

namespace {

constexpr int64_t kBase = 1'700'000'000'000'000'000; // absolute ns, as in real Kineto traces

std::shared_ptr<const Trace> makeTrace()
{
    TraceBuilder b;
    const StringId cat = b.intern("cpu_op");
    const GroupId p1 = b.addGroup(GroupKind::Process, b.intern("python (pid 100)"), {}, 100);
    const GroupId p2 = b.addGroup(GroupKind::Process, b.intern("worker (pid 200)"), {}, 200);
    const TrackId main = b.addTrack(p1, TrackKind::Slices, b.intern("main thread"), 1);
    const TrackId loader = b.addTrack(p1, TrackKind::Slices, b.intern("dataloader"), 2);
    const TrackId memory = b.addTrack(p1, TrackKind::Counter, b.intern("memory"), 99);
    const TrackId stream = b.addTrack(p2, TrackKind::Slices, b.intern("stream 7"), 7);
    b.addTrack(p2, TrackKind::Slices, b.intern("idle thread"), 8); // no events: not laid out

    const Arg args[] = {Arg::makeInt(b.intern("Input Dims"), 64), Arg::makeString(b.intern("Op"), b.intern("mm"))};
    b.addSlice(main, kBase + 0, 1'000'000, b.intern("ProfilerStep#1"), cat);
    b.addSlice(main, kBase + 100'000, 300'000, b.intern("aten::linear"), cat);
    b.addSlice(main, kBase + 150'000, 200'000, b.intern("aten::addmm"), cat, b.addArgs(args));
    b.addSlice(main, kBase + 500'000, 100'000, b.intern("aten::relu"), cat);
    b.addSlice(loader, kBase + 200'000, 600'000, b.intern("DataLoader next"), cat);
    b.addInstant(loader, kBase + 300'000, b.intern("epoch"), cat);
    b.addSlice(stream, kBase + 300'000, 400'000, b.intern("gemm_kernel"), b.intern("kernel"));
    b.addSlice(stream, kBase + 750'000, 150'000, b.intern("relu_kernel"), b.intern("kernel"));
    b.addCounterSample(memory, kBase + 0, 10);
    b.addCounterSample(memory, kBase + 250'000, 40);
    b.addCounterSample(memory, kBase + 600'000, 20);
    b.addCounterSample(memory, kBase + 1'000'000, 0);
    return std::make_shared<const Trace>(b.finish());
}

SliceId findSlice(const Trace &t, std::string_view name)
{
    for (uint32_t i = 0; i < t.allSlices().size(); ++i)
        if (t.str(t.allSlices()[i].name) == name)
            return SliceId(i);
    return {};
}

void maybeSave(const QImage &image, const QString &name)
{
    if (qEnvironmentVariableIsEmpty("LANESCOPE_SAVE_SCREENSHOTS"))
        return;
    const QString path = QDir::temp().filePath(name);
    QVERIFY(image.save(path));
    qInfo("saved %s", qPrintable(path));
}

} // namespace

class TestTimelineView : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const Trace> m_trace;
    std::unique_ptr<TimelineView> m_view;

    // Where a slice should be, from the layout alone (not from sliceRect).
    // At time `at` (absolute ns), or at the middle of the slice.
    QPoint expectedCenter(SliceId id, int64_t at = -1) const
    {
        const Trace &t = *m_trace;
        const Slice &s = t.slice(id);
        if (at < 0)
            at = s.start + s.duration / 2;
        const auto &row = m_view->layout().rows()[size_t(m_view->layout().rowOfTrack(t.trackOfSlice(id)))];
        const QRect area = m_view->timeArea();
        const auto [t0, t1] = m_view->visibleRange();
        const double mid = double(at - t0) / double(t1 - t0);
        const int rowH = m_view->layout().metrics().rowHeight;
        return QPoint(area.left() + int(mid * area.width()),
                      area.top() + row.y + row.slicesTop + s.depth * rowH + rowH / 2);
    }

private slots:
    void init()
    {
        m_trace = makeTrace();
        m_view = std::make_unique<TimelineView>();
        m_view->resize(1000, 420);
        m_view->setTrace(m_trace);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }

    void cleanup() { m_view.reset(); }

    void lanes()
    {
        QCOMPARE(m_view->laneCount(), 4); // the thread without events is left out
        const auto &rows = m_view->layout().rows();
        QCOMPARE(rows.size(), size_t(6)); // 2 group headers + 4 lanes
        // the group with device work (a kernel stream) comes first: the first screen shows the device
        QVERIFY(!rows[0].isTrack());
        QCOMPARE(m_trace->str(m_trace->group(rows[0].group()).name), std::string_view("worker (pid 200)"));
        QCOMPARE(m_trace->str(m_trace->track(rows[1].track()).name), std::string_view("stream 7"));
        QVERIFY(!rows[2].isTrack());
        QCOMPARE(m_trace->str(m_trace->group(rows[2].group()).name), std::string_view("python (pid 100)"));
        QCOMPARE(m_trace->str(m_trace->track(rows[3].track()).name), std::string_view("main thread"));
        QCOMPARE(rows[3].depthCount, 3);
        QCOMPARE(rows[3].height, 3 * m_view->layout().metrics().rowHeight);
        QCOMPARE(m_trace->str(m_trace->track(rows[4].track()).name), std::string_view("dataloader"));
        QVERIFY(rows[4].slicesTop > 0); // instant strip
        QCOMPARE(m_trace->str(m_trace->track(rows[5].track()).name), std::string_view("memory"));
    }

    void keyboardZoom()
    {
        const auto full = m_view->visibleRange();
        QCOMPARE(full.first, kBase);
        QCOMPARE(full.second, kBase + 1'000'000);
        m_view->setFocus();

        QTest::keyClick(m_view.get(), Qt::Key_W);
        auto r = m_view->visibleRange();
        QCOMPARE(r.second - r.first, int64_t(700'000));
        QCOMPARE((r.first + r.second) / 2, kBase + 500'000); // zoomed at the centre

        QTest::keyClick(m_view.get(), Qt::Key_W);
        r = m_view->visibleRange();
        QCOMPARE(r.second - r.first, int64_t(490'000));

        QTest::keyClick(m_view.get(), Qt::Key_S);
        r = m_view->visibleRange();
        QCOMPARE(r.second - r.first, int64_t(700'000));

        QTest::keyClick(m_view.get(), Qt::Key_D); // pan right by a fifth
        const auto panned = m_view->visibleRange();
        QCOMPARE(panned.first, r.first + 140'000);
        QTest::keyClick(m_view.get(), Qt::Key_D); // clamped at the end of the trace
        QCOMPARE(m_view->visibleRange().second, kBase + 1'000'000);
        QTest::keyClick(m_view.get(), Qt::Key_A);
        QCOMPARE(m_view->visibleRange().second, kBase + 1'000'000 - 140'000);

        QTest::keyClick(m_view.get(), Qt::Key_Home);
        QCOMPARE(m_view->visibleRange(), full);
        QTest::keyClick(m_view.get(), Qt::Key_W);
        QTest::keyClick(m_view.get(), Qt::Key_0);
        QCOMPARE(m_view->visibleRange(), full);

        QTest::keyClick(m_view.get(), Qt::Key_S); // cannot zoom out past the whole trace
        QCOMPARE(m_view->visibleRange(), full);
    }

    void ctrlWheelZoomsAtCursor()
    {
        const QRect area = m_view->timeArea();
        const QPoint at(area.left() + area.width() / 4, area.top() + 10);
        const auto before = m_view->visibleRange();
        const double frac = double(at.x() - area.left()) / area.width();
        const int64_t anchor = before.first + int64_t(frac * double(before.second - before.first));
        QWheelEvent wheel(at, m_view->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(m_view.get(), &wheel);
        const auto after = m_view->visibleRange();
        QVERIFY(after.second - after.first < before.second - before.first);
        const double fracAfter = double(anchor - after.first) / double(after.second - after.first);
        QVERIFY2(std::abs(fracAfter - frac) < 0.01, "the time under the cursor stays under the cursor");
    }

    void sliceAtAndClick()
    {
        const SliceId addmm = findSlice(*m_trace, "aten::addmm");
        QVERIFY(addmm.isValid());
        QCOMPARE(m_trace->slice(addmm).depth, uint16_t(2));
        const QPoint at = expectedCenter(addmm);
        QCOMPARE(m_view->sliceAt(at), addmm);
        QVERIFY(m_view->sliceRect(addmm).contains(at));
        const SliceId kernel = findSlice(*m_trace, "relu_kernel");
        QCOMPARE(m_view->sliceAt(expectedCenter(kernel)), kernel);
        // Empty space and the header column hold no slice.
        QVERIFY(!m_view->sliceAt(QPoint(5, at.y())).isValid());
        const QPoint belowRelu =
            expectedCenter(findSlice(*m_trace, "aten::relu")) + QPoint(0, m_view->layout().metrics().rowHeight);
        QVERIFY(!m_view->sliceAt(belowRelu).isValid());

        QSignalSpy spy(m_view.get(), &TimelineView::sliceSelected);
        QTest::mouseClick(m_view.get(), Qt::LeftButton, {}, at);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(m_view->selectedSlice(), addmm);
        QCOMPARE(spy.at(0).at(0).value<SliceId>(), addmm);

        // Zoomed in, the same slice is still found where the layout says it is.
        m_view->setVisibleRange(kBase + 140'000, kBase + 160'000);
        QCOMPARE(m_view->sliceAt(expectedCenter(addmm, kBase + 155'000)), addmm);
        QCOMPARE(m_view->sliceAt(expectedCenter(addmm, kBase + 145'000)), SliceId());

        // A click on empty space clears the selection.
        m_view->fitAll();
        QTest::mouseClick(m_view.get(), Qt::LeftButton, {}, belowRelu);
        QCOMPARE(spy.count(), 2);
        QVERIFY(!m_view->selectedSlice().isValid());
    }

    void hoverToolTip()
    {
        const SliceId addmm = findSlice(*m_trace, "aten::addmm");
        const QPoint at = expectedCenter(addmm);
        QHelpEvent help(QEvent::ToolTip, at, m_view->mapToGlobal(at));
        QApplication::sendEvent(m_view.get(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        const QString text = QToolTip::text();
        QVERIFY2(text.contains(QStringLiteral("aten::addmm")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("200 µs")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("python (pid 100) / main thread")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Input Dims: 64")), qPrintable(text)); // key args
        QVERIFY2(text.contains(QStringLiteral("Op: mm")), qPrintable(text));
        QToolTip::hideText();
    }

    void dragPans()
    {
        m_view->setVisibleRange(kBase + 400'000, kBase + 600'000);
        const QRect area = m_view->timeArea();
        const QPoint from(area.center());
        QTest::mousePress(m_view.get(), Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, from + QPoint(100, 0), m_view->mapToGlobal(from + QPoint(100, 0)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_view.get(), &move);
        QTest::mouseRelease(m_view.get(), Qt::LeftButton, {}, from + QPoint(100, 0));
        const auto r = m_view->visibleRange();
        const int64_t expected = int64_t(100.0 * 200'000 / area.width());
        QVERIFY(std::abs((kBase + 400'000 - r.first) - expected) <= 1);
        QVERIFY(!m_view->selectedSlice().isValid()); // a drag is not a click
    }

    void groupHeaderFolds()
    {
        const auto &row0 = m_view->layout().rows()[0];
        const QPoint header(50, m_view->timeArea().top() + row0.y + row0.height / 2);
        QTest::mouseClick(m_view.get(), Qt::LeftButton, {}, header);
        QCOMPARE(m_view->laneCount(), 3); // the device group's stream folded
        QTest::mouseClick(m_view.get(), Qt::LeftButton, {}, header);
        QCOMPARE(m_view->laneCount(), 4);
    }

    void rendersSomething()
    {
        m_view->setSelectedSlice(findSlice(*m_trace, "aten::linear"));
        const QImage image = m_view->grab().toImage().convertToFormat(QImage::Format_RGB32);
        QVERIFY(!image.isNull());
        const QRgb background = qRgb(255, 255, 255);
        qint64 nonBackground = 0;
        std::set<QRgb> colours;
        for (int y = 0; y < image.height(); ++y) {
            const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
            for (int x = 0; x < image.width(); ++x) {
                if (line[x] != background)
                    ++nonBackground;
                colours.insert(line[x]);
            }
        }
        maybeSave(image, QStringLiteral("lanescope_tst_timelineview.png"));
        QVERIFY2(nonBackground > image.width() * image.height() / 5,
                 qPrintable(QStringLiteral("only %1 non-background pixels").arg(nonBackground)));
        QVERIFY2(colours.size() > 20, qPrintable(QStringLiteral("only %1 colours").arg(colours.size())));
        // Each slice name has its own colour, and it is drawn.
        const auto colourAt = [&](std::string_view name) {
            return image.pixel(expectedCenter(findSlice(*m_trace, name)) +
                               QPoint(0, -m_view->layout().metrics().rowHeight / 2 + 1));
        };
        const QRgb gemm = colourAt("gemm_kernel"), relu = colourAt("relu_kernel"), step = colourAt("ProfilerStep#1");
        QCOMPARE(gemm, SliceColors::colorForName("gemm_kernel"));
        QCOMPARE(relu, SliceColors::colorForName("relu_kernel"));
        QCOMPARE(step, SliceColors::colorForName("ProfilerStep#1"));
        QVERIFY(gemm != relu && relu != step);
    }

    void emptyAndReplacedTrace()
    {
        m_view->setTrace(nullptr);
        QCOMPARE(m_view->laneCount(), 0);
        QVERIFY(!m_view->sliceAt(QPoint(500, 100)).isValid());
        QVERIFY(!m_view->grab().isNull());
        m_view->setTrace(std::make_shared<const Trace>(TraceBuilder().finish()));
        QCOMPARE(m_view->laneCount(), 0);
        QVERIFY(!m_view->grab().isNull());
        m_view->setTrace(m_trace);
        QCOMPARE(m_view->laneCount(), 4);
    }

    void manySlicesFoldIntoFewItems()
    {
        // 200,000 slices of 10 ns: at 1000 px wide, drawing them one by one would be wasted work.
        TraceBuilder b;
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
        const TrackId t = b.addTrack(g, TrackKind::Slices, b.intern("busy"), 1);
        const StringId a = b.intern("a"), c = b.intern("c");
        b.addSlice(t, 0, 4'000'000, b.intern("root"), c);
        for (int i = 0; i < 200'000; ++i)
            b.addSlice(t, 1000 + int64_t(i) * 15, 10, a, c);
        auto trace = std::make_shared<const Trace>(b.finish());
        m_view->setTrace(trace);
        const QImage image = m_view->grab().toImage();
        maybeSave(image, QStringLiteral("lanescope_tst_timelineview_dense.png"));

        DepthIndex index;
        index.build(trace.get());
        LaneGeometry geometry;
        geometry.build(*trace, index, t, LaneGeometry::Viewport{0, 4'000'000, 1000});
        QVERIFY2(geometry.slices.size() < 1000, qPrintable(QString::number(geometry.slices.size())));
        uint64_t covered = 0;
        for (const auto &item : geometry.slices)
            covered += item.count;
        QCOMPARE(covered, uint64_t(200'001));
        // Zoomed in, only what is visible is looked at.
        geometry.build(*trace, index, t, LaneGeometry::Viewport{1'000'000, 1'000'300, 1000});
        QVERIFY(geometry.slices.size() <= 22);
        QVERIFY(geometry.slices.size() >= 20);
        for (const auto &item : geometry.slices)
            QCOMPARE(item.count, 1u);
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
