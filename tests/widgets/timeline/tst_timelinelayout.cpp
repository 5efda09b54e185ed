// TimelineLayout with the user's arrangement: hidden, pinned and moved lanes; and the view side:
// pinned lanes stay put while the rest scrolls, dragging a lane's name reorders it, sticky headers.
#include "lanes/lanelayoutsettings.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelineview.h"

#include "model/tracebuilder.h"

#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

// Two processes with three threads each; every thread has one slice.
std::shared_ptr<const Trace> makeTrace()
{
    TraceBuilder b;
    const StringId cat = b.intern("c");
    for (int p = 0; p < 2; ++p) {
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("proc " + std::to_string(p)), {}, p + 1);
        for (int t = 0; t < 3; ++t) {
            const TrackId tr = b.addTrack(g, TrackKind::Slices, b.intern("t" + std::to_string(p * 3 + t)), t + 1);
            b.addSlice(tr, 0, 100 + t, b.intern("s"), cat);
        }
    }
    return std::make_shared<const Trace>(b.finish());
}

std::vector<std::string> trackOrder(const Trace &t, const TimelineLayout &layout)
{
    std::vector<std::string> out;
    for (const auto &row : layout.rows())
        out.push_back(row.isTrack() ? std::string(t.str(t.track(row.track()).name))
                                    : "[" + std::string(t.str(t.group(row.group()).name)) + "]");
    return out;
}

using Order = std::vector<std::string>;

} // namespace

class TestTimelineLayout : public QObject
{
    Q_OBJECT
private slots:
    void hidePinMove()
    {
        const auto trace = makeTrace();
        TimelineLayout layout;
        layout.build(trace.get());
        QCOMPARE(trackOrder(*trace, layout), (Order{"[proc 0]", "t0", "t1", "t2", "[proc 1]", "t3", "t4", "t5"}));
        layout.setHidden(TrackId(1), true);
        QCOMPARE(trackOrder(*trace, layout), (Order{"[proc 0]", "t0", "t2", "[proc 1]", "t3", "t4", "t5"}));
        QCOMPARE(layout.laneCount(), 5);
        layout.setPinned(TrackId(4), true);
        QCOMPARE(trackOrder(*trace, layout), (Order{"t4", "[proc 0]", "t0", "t2", "[proc 1]", "t3", "t5"}));
        QCOMPARE(layout.pinnedRowCount(), 1);
        QCOMPARE(layout.pinnedHeight(), layout.rows()[0].height);
        QVERIFY(layout.rows()[0].pinned);
        QVERIFY(layout.moveTrack(TrackId(2), TrackId(0))); // t2 before t0
        QCOMPARE(trackOrder(*trace, layout), (Order{"t4", "[proc 0]", "t2", "t0", "[proc 1]", "t3", "t5"}));
        QVERIFY(!layout.moveTrack(TrackId(2), TrackId(3))); // another group
        QVERIFY(layout.moveTrackBy(TrackId(3), +1));
        QCOMPARE(trackOrder(*trace, layout), (Order{"t4", "[proc 0]", "t2", "t0", "[proc 1]", "t5", "t3"}));
        QVERIFY(!layout.moveTrackBy(TrackId(3), +1)); // already last
        layout.showAllTracks();
        layout.setPinned(TrackId(4), false);
        // t1 had no rank: it comes after the moved ones.
        QCOMPARE(trackOrder(*trace, layout), (Order{"[proc 0]", "t2", "t0", "t1", "[proc 1]", "t5", "t3", "t4"}));

        // The state survives a save / load through QSettings and applies to a fresh layout.
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        layout.toggleCollapsed(GroupId(1));
        LaneLayoutSettings::save(settings, QStringLiteral("/data/a.json"), layout.state());
        const TimelineLayout::State loaded = LaneLayoutSettings::load(settings, QStringLiteral("/data/a.json")).value();
        QVERIFY(loaded == layout.state());
        QVERIFY(!LaneLayoutSettings::load(settings, QStringLiteral("/data/b.json"))); // never arranged: the default applies
        TimelineLayout other;
        other.build(trace.get());
        other.setState(loaded);
        QCOMPARE(trackOrder(*trace, other), (Order{"[proc 0]", "t2", "t0", "t1", "[proc 1]"}));
        LaneLayoutSettings::save(settings, QStringLiteral("/data/a.json"), TimelineLayout::State());
        QVERIFY(!settings.contains(LaneLayoutSettings::key(QStringLiteral("/data/a.json"))));
    }

    void viewPinnedAndDragReorder()
    {
        const auto trace = makeTrace();
        TimelineView view;
        view.resize(800, 130); // shorter than the lanes: it scrolls
        view.setTrace(trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy changed(&view, &TimelineView::layoutStateChanged);
        view.setTrackPinned(TrackId(5), true);
        QCOMPARE(changed.count(), 1);
        const int top = view.timeArea().top();
        QCOMPARE(view.trackAtY(top + 3), TrackId(5));
        view.findChild<QScrollBar *>()->setValue(40);
        QCOMPARE(view.trackAtY(top + 3), TrackId(5)); // pinned: does not scroll
        const QRectF r = view.sliceRect(view.trace()->sliceId(TrackId(5), 0));
        QCOMPARE(int(r.top()), top);
        // [proc 0]'s header scrolled away but its lanes are on screen: it sticks below the pin.
        const int pinnedH = view.layout().pinnedHeight();
        const auto &header = view.layout().rows()[size_t(view.layout().pinnedRowCount())];
        QVERIFY(!header.isTrack());
        QVERIFY(top + header.y - 40 < top + pinnedH);
        const QImage frame = view.grab().toImage();
        if (!qEnvironmentVariableIsEmpty("LANESCOPE_SAVE_SCREENSHOTS"))
            frame.save(QStringLiteral("/tmp/tst_layout_pinned_sticky.png"));
        QCOMPARE(QColor(frame.pixel(view.timeArea().left() + 200, top + pinnedH + 4)), view.colors().groupBackground);
        view.findChild<QScrollBar *>()->setValue(0);

        // Drag t0's name below t2: t0 becomes the last of its group.
        const auto &layout = view.layout();
        const auto rowY = [&](TrackId t) {
            const auto &row = layout.rows()[size_t(layout.rowOfTrack(t))];
            return top + row.y - (row.pinned ? 0 : view.findChild<QScrollBar *>()->value()) + row.height / 2;
        };
        const QPoint from(20, rowY(TrackId(0))), to(20, rowY(TrackId(2)));
        QTest::mousePress(&view, Qt::LeftButton, {}, from);
        QTest::mouseMove(&view, from + QPoint(0, 8));
        QTest::mouseMove(&view, to);
        QTest::mouseRelease(&view, Qt::LeftButton, {}, to);
        QCOMPARE(trackOrder(*trace, layout),
                 (Order{"t5", "[proc 0]", "t1", "t2", "t0", "[proc 1]", "t3", "t4"}));
        QVERIFY(changed.count() >= 2);
        view.setTrackHidden(TrackId(1), true);
        QCOMPARE(view.laneCount(), 5);
    }
};

QTEST_MAIN(TestTimelineLayout)
#include "tst_timelinelayout.moc"
