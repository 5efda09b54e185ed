// ZoomControl: clamping, zoom at an anchor, the undo history and the selected time range.
#include "timeline/zoomcontrol.h"

#include <QSignalSpy>
#include <QTest>

using namespace lanescope;

class TestZoomControl : public QObject
{
    Q_OBJECT
private slots:
    void historyUndo()
    {
        ZoomControl z;
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
        for (size_t i = 0; i < ZoomControl::kMaxHistory + 10; ++i) {
            z.setVisibleRange(int64_t(i) * 100, int64_t(i) * 100 + 1000);
            z.pushHistory();
        }
        QCOMPARE(z.historySize(), ZoomControl::kMaxHistory);
        z.setTraceRange(0, 10); // a new trace forgets the history
        QCOMPARE(z.historySize(), size_t(0));
    }

    void selection()
    {
        ZoomControl z;
        z.setTraceRange(1000, 2000);
        QSignalSpy spy(&z, &ZoomControl::selectionChanged);
        QVERIFY(!z.hasSelection());
        z.setSelection(1800, 1200); // swapped
        QVERIFY(z.hasSelection());
        QCOMPARE(z.selectionStart(), 1200);
        QCOMPARE(z.selectionEnd(), 1800);
        z.setSelection(1200, 1800); // unchanged: no signal
        QCOMPARE(spy.count(), 1);
        z.setSelection(0, 5000); // clamped to the trace
        QCOMPARE(z.selectionStart(), 1000);
        QCOMPARE(z.selectionEnd(), 2000);
        z.clearSelection();
        QVERIFY(!z.hasSelection());
        QCOMPARE(spy.count(), 3);
    }
};

QTEST_GUILESS_MAIN(TestZoomControl)
#include "tst_zoomcontrol.moc"
