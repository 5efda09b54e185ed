// ViewState: clamping, zoom at an anchor, the undo history and the selected time range.
#include "session/viewstate.h"

#include <QSignalSpy>
#include <QTest>

using namespace lanescope;

class TestViewState : public QObject
{
    Q_OBJECT
private slots:
    void historyUndo()
    {
        ViewState z;
        z.setTraceRange(0, 1'000'000);
        QVERIFY(!z.undoZoom());
        z.pushHistory();
        z.setVisibleRange(100'000, 200'000);
        z.pushHistory();
        z.pushHistory(); // duplicates are kept once
        QCOMPARE(z.historySize(), size_t(2));
        z.zoomAtCenter(0.5);
        QVERIFY(z.undoZoom());
        QCOMPARE(z.visibleStart(), 100'000);
        QCOMPARE(z.visibleEnd(), 200'000);
        QVERIFY(z.undoZoom());
        QCOMPARE(z.visibleStart(), 0);
        QCOMPARE(z.visibleEnd(), 1'000'000);
        QVERIFY(!z.undoZoom());
        for (size_t i = 0; i < ViewState::kMaxHistory + 10; ++i) {
            z.setVisibleRange(int64_t(i) * 100, int64_t(i) * 100 + 1000);
            z.pushHistory();
        }
        QCOMPARE(z.historySize(), ViewState::kMaxHistory);
        z.setTraceRange(0, 10); // a new trace forgets the history
        QCOMPARE(z.historySize(), size_t(0));
    }

    void markedRange()
    {
        ViewState z;
        z.setTraceRange(1000, 2000);
        QSignalSpy spy(&z, &ViewState::markedRangeChanged);
        QVERIFY(!z.hasMarkedRange());
        z.setMarkedRange(1800, 1200); // swapped
        QVERIFY(z.hasMarkedRange());
        QCOMPARE(z.markedStart(), 1200);
        QCOMPARE(z.markedEnd(), 1800);
        z.setMarkedRange(1200, 1800); // unchanged: no signal
        QCOMPARE(spy.count(), 1);
        z.setMarkedRange(0, 5000); // clamped to the trace
        QCOMPARE(z.markedStart(), 1000);
        QCOMPARE(z.markedEnd(), 2000);
        z.clearMarkedRange();
        QVERIFY(!z.hasMarkedRange());
        QCOMPARE(spy.count(), 3);
    }

    void selectedSliceAndNewTrace()
    {
        ViewState z;
        z.setTraceRange(0, 10'000);
        QSignalSpy selected(&z, &ViewState::selectionChanged);
        z.setSelectedSlice(SliceId(7));
        z.setSelectedSlice(SliceId(7)); // unchanged: no signal
        QCOMPARE(selected.count(), 1);
        QCOMPARE(z.selectedSlice(), SliceId(7));
        z.setMarkedRange(100, 200);
        z.setVisibleRange(1000, 2000);
        z.pushHistory();
        // A new trace starts over: everything reset, without selectionChanged / markedRangeChanged.
        QSignalSpy marked(&z, &ViewState::markedRangeChanged);
        QSignalSpy visible(&z, &ViewState::visibleRangeChanged);
        z.setTraceRange(5000, 9000);
        QVERIFY(!z.selectedSlice().isValid());
        QVERIFY(!z.hasMarkedRange());
        QCOMPARE(z.historySize(), size_t(0));
        QCOMPARE(z.visibleStart(), 5000);
        QCOMPARE(z.visibleEnd(), 9000);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(marked.count(), 0);
        QCOMPARE(visible.count(), 1);
    }
};

QTEST_GUILESS_MAIN(TestViewState)
#include "tst_viewstate.moc"
