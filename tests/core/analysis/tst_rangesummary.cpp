// RangeSummary (core/analysis) on a hand-built trace: counts, total and self time clipped to the
// range, checked against numbers worked out by hand; async tracks do not subtract children.
#include "analysis/rangesummary.h"

#include "model/tracebuilder.h"

#include <QTest>

using namespace lanescope;

namespace {

// main:  A [0, 100)            depth 0
//          B [10, 40)          depth 1
//            C [20, 30)        depth 2
//          B [50, 90)          depth 1
// other: B [60, 200)           depth 0
// async: X [0, 50), Y [10, 30) (packed, depth 1, not nested)
std::shared_ptr<const Trace> makeTrace()
{
    TraceBuilder b;
    const StringId cat = b.intern("c");
    const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
    const TrackId main = b.addTrack(p, TrackKind::Slices, b.intern("main"), 1);
    const TrackId other = b.addTrack(p, TrackKind::Slices, b.intern("other"), 2);
    const TrackId async = b.addTrack(p, TrackKind::Async, b.intern("async"), 3);
    b.addSlice(main, 0, 100, b.intern("A"), cat);
    b.addSlice(main, 10, 30, b.intern("B"), cat);
    b.addSlice(main, 20, 10, b.intern("C"), cat);
    b.addSlice(main, 50, 40, b.intern("B"), cat);
    b.addSlice(other, 60, 140, b.intern("B"), cat);
    b.addSlice(async, 0, 50, b.intern("X"), cat, {}, uint16_t(SliceFlag::Async));
    b.addSlice(async, 10, 20, b.intern("Y"), cat, {}, uint16_t(SliceFlag::Async));
    return std::make_shared<const Trace>(b.finish());
}

const RangeSummary::Row *find(const Trace &t, const std::vector<RangeSummary::Row> &rows, std::string_view name)
{
    for (const auto &r : rows)
        if (t.str(r.name) == name)
            return &r;
    return nullptr;
}

} // namespace

class TestRangeSummary : public QObject
{
    Q_OBJECT
private slots:
    void wholeTrace()
    {
        const auto trace = makeTrace();
        const auto rows = RangeSummary::compute(*trace, 0, 200);
        const auto *a = find(*trace, rows, "A");
        const auto *b = find(*trace, rows, "B");
        const auto *c = find(*trace, rows, "C");
        QVERIFY(a && b && c);
        QCOMPARE(a->count, 1u);
        QCOMPARE(a->total, 100);
        QCOMPARE(a->self, 100 - 30 - 40);
        QCOMPARE(b->count, 3u);
        QCOMPARE(b->total, 30 + 40 + 140);
        QCOMPARE(b->self, (30 - 10) + 40 + 140);
        QCOMPARE(b->average(), 210.0 / 3);
        QCOMPARE(c->total, 10);
        QCOMPARE(c->self, 10);
        // Sorted by total, longest first.
        QCOMPARE(trace->str(rows.front().name), std::string_view("B"));
    }

    void clippedToRange()
    {
        const auto trace = makeTrace();
        // [25, 70): A clipped 45; B(10-40) clipped 15, B(50-90) clipped 20, B(60-200) clipped 10;
        // C clipped 5 (25-30). A self = 45 - 15 - 20 = 10. B self = (15 - 5) + 20 + 10 = 40.
        const auto rows = RangeSummary::compute(*trace, 25, 70);
        const auto *a = find(*trace, rows, "A");
        const auto *b = find(*trace, rows, "B");
        const auto *c = find(*trace, rows, "C");
        QVERIFY(a && b && c);
        QCOMPARE(a->total, 45);
        QCOMPARE(a->self, 10);
        QCOMPARE(b->count, 3u);
        QCOMPARE(b->total, 45);
        QCOMPARE(b->self, 40);
        QCOMPARE(c->total, 5);
        QCOMPARE(c->self, 5);
        QVERIFY(!find(*trace, rows, "nothing"));
    }

    void outsideAndTrackFilter()
    {
        const auto trace = makeTrace();
        // Only "other" (track 1): one B.
        const TrackId tracks[] = {TrackId(1)};
        const auto rows = RangeSummary::compute(*trace, 0, 1000, tracks);
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].total, 140);
        // A range after everything is empty.
        QVERIFY(RangeSummary::compute(*trace, 500, 600).empty());
        // A range that touches a slice's end only does not count it.
        const auto touching = RangeSummary::compute(*trace, 100, 110);
        QVERIFY(!find(*trace, touching, "A"));
        QVERIFY(find(*trace, touching, "B")); // the one on "other"
    }

    void asyncIsNotNested()
    {
        const auto trace = makeTrace();
        const auto rows = RangeSummary::compute(*trace, 0, 50);
        const auto *x = find(*trace, rows, "X");
        const auto *y = find(*trace, rows, "Y");
        QVERIFY(x && y);
        QCOMPARE(x->self, 50); // Y overlaps X but is not its child
        QCOMPARE(y->self, 20);
    }
};

QTEST_GUILESS_MAIN(TestRangeSummary)
#include "tst_rangesummary.moc"
