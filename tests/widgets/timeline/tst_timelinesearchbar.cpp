// TimelineSearchBar with a TimelineView: typing finds N matches, Enter / Shift+Enter step through
// them in time order (selecting each and bringing it on screen), the count is shown, Escape clears.
#include "timeline/timelinesearchbar.h"
#include "timeline/timelineview.h"
#include "session/viewstate.h"

#include "model/tracebuilder.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

using namespace lanescope;

namespace {

std::shared_ptr<const Trace> makeTrace()
{
    TraceBuilder b;
    const StringId cat = b.intern("c");
    const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
    const TrackId t1 = b.addTrack(p, TrackKind::Slices, b.intern("t1"), 1);
    const TrackId t2 = b.addTrack(p, TrackKind::Slices, b.intern("t2"), 2);
    // "gemm" at 1000, 5000 (t1) and 3000, 9000 (t2); noise in between.
    for (int i = 0; i < 10; ++i)
        b.addSlice(i % 2 ? t2 : t1, int64_t(i) * 1000, 500, b.intern(i % 2 ? "noise" : "idle"), cat);
    b.addSlice(t1, 1000, 100, b.intern("sgemm_a"), cat);
    b.addSlice(t2, 3000, 100, b.intern("GEMM_b"), cat);
    b.addSlice(t1, 5000, 100, b.intern("gemm_c"), cat);
    b.addSlice(t2, 9000, 100, b.intern("dgemm_d"), cat);
    return std::make_shared<const Trace>(b.finish());
}

} // namespace

class TestTimelineSearchBar : public QObject
{
    Q_OBJECT
private slots:
    void findsAndStepsInTimeOrder()
    {
        const auto trace = makeTrace();
        TimelineView view;
        view.resize(900, 300);
        view.setTrace(trace);
        TimelineSearchBar bar(&view);
        bar.lineEdit()->setText(QStringLiteral("gemm"));
        bar.search();
        QCOMPARE(view.searchMatches().size(), size_t(4));
        QCOMPARE(bar.statusText(), QStringLiteral("4 matches"));

        // Zoom into the start so stepping has to pan.
        view.setVisibleRange(0, 800);
        std::vector<int64_t> seen;
        for (int i = 0; i < 5; ++i) {
            QTest::keyClick(bar.lineEdit(), Qt::Key_Return);
            const SliceId sel = view.selectedSlice();
            QVERIFY(sel.isValid());
            seen.push_back(trace->slice(sel).start);
            const auto [t0, t1] = view.visibleRange();
            QVERIFY2(trace->slice(sel).start >= t0 && trace->slice(sel).end() <= t1, "match brought on screen");
        }
        QCOMPARE(seen, (std::vector<int64_t>{1000, 3000, 5000, 9000, 1000})); // wraps around
        QCOMPARE(bar.statusText(), QStringLiteral("1 of 4"));
        QTest::keyClick(bar.lineEdit(), Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(trace->slice(view.selectedSlice()).start, int64_t(9000));
        QCOMPARE(bar.statusText(), QStringLiteral("4 of 4"));

        // Regex narrows; a bad one says so.
        bar.regexBox()->setChecked(true);
        bar.lineEdit()->setText(QStringLiteral("^gemm"));
        bar.search();
        QCOMPARE(view.searchMatches().size(), size_t(2)); // GEMM_b, gemm_c (case-insensitive)
        bar.lineEdit()->setText(QStringLiteral("(("));
        bar.search();
        QVERIFY(view.searchMatches().empty());
        QCOMPARE(bar.statusText(), QStringLiteral("Bad regex"));

        QTest::keyClick(bar.lineEdit(), Qt::Key_Escape);
        QVERIFY(view.searchMatches().empty());
        QVERIFY(bar.lineEdit()->text().isEmpty());
    }

    void matchesAreHighlighted()
    {
        const auto trace = makeTrace();
        TimelineView view;
        view.resize(900, 300);
        view.setTrace(trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage plain = view.grab().toImage();
        TimelineSearchBar bar(&view);
        bar.lineEdit()->setText(QStringLiteral("dgemm"));
        bar.search();
        const QImage marked = view.grab().toImage();
        const QRectF r = view.sliceRect(SliceId(view.searchMatches().front()));
        QVERIFY(!r.isEmpty());
        // The outline differs from the plain frame around the match, and nowhere far from it.
        const QRect around = r.toAlignedRect().adjusted(-2, -2, 2, 2);
        QVERIFY(marked.copy(around) != plain.copy(around));
        const QRect far(view.timeArea().left(), view.timeArea().top(), 50, 50);
        QCOMPARE(marked.copy(far), plain.copy(far));
    }

    void slashActivatesTheBar()
    {
        const auto trace = makeTrace();
        TimelineView view;
        view.setTrace(trace);
        TimelineSearchBar bar(&view);
        bar.hide();
        QTest::keyClick(&view, Qt::Key_Slash);
        QVERIFY(!bar.isHidden());
    }

    // The clear button (an icon-theme lookup) is added when the bar is first shown, not when it is made.
    void clearButtonWhenShown()
    {
        TimelineView view;
        TimelineSearchBar bar(&view);
        bar.hide();
        QVERIFY(!bar.lineEdit()->isClearButtonEnabled());
        bar.activate();
        QVERIFY(bar.isVisible());
        QVERIFY(bar.lineEdit()->isClearButtonEnabled());
        bar.hide();
        bar.activate(); // shown again: still one button, no second filter
        QVERIFY(bar.lineEdit()->isClearButtonEnabled());
    }
};

QTEST_MAIN(TestTimelineSearchBar)
#include "tst_timelinesearchbar.moc"
