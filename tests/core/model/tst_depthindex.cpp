// DepthIndex: per-depth visible ranges and the multi-resolution summary behind level of detail:
// consumeRun must equal a plain walk over the slices (next position, count, end, longest member).
#include "model/depthindex.h"

#include "model/tracebuilder.h"

#include <QTest>

#include <algorithm>
#include <random>

using namespace lanescope;

class TestDepthIndex : public QObject
{
    Q_OBJECT
private slots:
    void consumeEqualsPlainWalk()
    {
        TraceBuilder b;
        const StringId cat = b.intern("c");
        const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
        const TrackId t1 = b.addTrack(p, TrackKind::Slices, b.intern("t1"), 1);
        const TrackId t2 = b.addTrack(p, TrackKind::Slices, b.intern("t2"), 2);
        std::mt19937 rng(7);
        std::vector<StringId> names{b.intern("a"), b.intern("b")};
        for (TrackId t : {t1, t2}) {
            int64_t ts = 0;
            for (int i = 0; i < 20'000; ++i) {
                const int64_t dur = 1 + int64_t(rng() % 50);
                b.addSlice(t, ts, dur, names[rng() % 2], cat);
                if (rng() % 3 == 0) // a child
                    b.addSlice(t, ts, dur / 2, names[0], cat);
                ts += dur + int64_t(rng() % 5);
            }
        }
        auto trace = std::make_shared<const Trace>(b.finish());
        DepthIndex index;
        index.build(trace.get());
        QVERIFY(index.levelCount() >= 3); // 16, 256, 4096 entries per group
        QCOMPARE(index.depthCount(t1), 2);

        const auto all = trace->allSlices();
        int longRuns = 0;
        for (TrackId t : {t1, t2}) {
            for (int d = 0; d < index.depthCount(t); ++d) {
                const auto ids = index.slices(t, d);
                for (int trial = 0; trial < 400; ++trial) {
                    const size_t from = rng() % ids.size();
                    const size_t last = from + rng() % (ids.size() - from + 1);
                    const int64_t runEnd = all[ids[from]].start - int64_t(rng() % 3);
                    const int64_t maxGap = int64_t(rng() % 6);
                    const int64_t maxDuration = 1 + int64_t(rng() % 80);
                    const auto run = index.consumeRun(t, d, from, last, runEnd, maxGap, maxDuration);
                    size_t j = from;
                    int64_t end = runEnd, longest = -1;
                    while (j < last && all[ids[j]].start - end <= maxGap && all[ids[j]].duration < maxDuration) {
                        longest = std::max(longest, all[ids[j]].duration);
                        end = std::max(end, all[ids[j]].end());
                        ++j;
                    }
                    QCOMPARE(run.next, j);
                    QCOMPARE(size_t(run.count), j - from);
                    QCOMPARE(run.end, end);
                    QCOMPARE(run.longestDuration, longest);
                    if (run.count)
                        QCOMPARE(all[run.longest].duration, longest);
                    if (run.count > 300)
                        ++longRuns;
                }
            }
        }
        QVERIFY(longRuns > 20); // groups of 16 and 256 were used
    }

    void rangeAndSliceAt()
    {
        TraceBuilder b;
        const StringId cat = b.intern("c");
        const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
        const TrackId t = b.addTrack(p, TrackKind::Slices, b.intern("t"), 1);
        b.addSlice(t, 0, 1'000'000, b.intern("long"), cat); // spans everything
        for (int i = 0; i < 100; ++i)
            b.addSlice(t, int64_t(i) * 10'000, 5'000, b.intern("short"), cat);
        auto trace = std::make_shared<const Trace>(b.finish());
        DepthIndex index;
        index.build(trace.get());
        QCOMPARE(index.range(t, 0, 500'000, 500'001), std::make_pair(size_t(0), size_t(1)));
        const auto [f, l] = index.range(t, 1, 500'000, 520'000);
        QCOMPARE(l - f, size_t(3)); // 500k, 510k, 520k
        const SliceId hit = index.sliceAt(t, 1, 512'000, 0);
        QVERIFY(hit.isValid());
        QCOMPARE(trace->slice(hit).start, int64_t(510'000));
        QVERIFY(!index.sliceAt(t, 1, 517'000, 100).isValid());
    }

    // The tables belong to the trace: built once and shared; check() accepts them for their own trace
    // and names what does not fit another one (the cache's guard against a damaged model file).
    void tablesAreSharedAndChecked()
    {
        TraceBuilder b;
        const StringId cat = b.intern("c");
        const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
        const TrackId t = b.addTrack(p, TrackKind::Slices, b.intern("t"), 1);
        for (int i = 0; i < 40; ++i) {
            b.addSlice(t, int64_t(i) * 100, 90, b.intern("outer"), cat);
            b.addSlice(t, int64_t(i) * 100 + 10, 20, b.intern("inner"), cat);
        }
        const Trace trace = b.finish();
        QVERIFY(!trace.hasDepthTables());
        const auto tables = trace.depthTables();
        QVERIFY(trace.hasDepthTables());
        QCOMPARE(trace.depthTables().get(), tables.get()); // built once
        // 80 slices: depth 0 then depth 1 of the one track; levels of 80 / 16 = 5 nodes (and none of 256).
        QCOMPARE(tables->entries.size(), size_t(80));
        QCOMPARE(tables->depthOffsets.toVector(), (std::vector<uint32_t>{0, 40, 80}));
        QCOMPARE(tables->trackFirstDepth.toVector(), (std::vector<uint32_t>{0, 3}));
        QCOMPARE(tables->nodes.size(), size_t(5));
        QCOMPARE(tables->nodes[0].firstStart, int64_t(0));
        QCOMPARE(tables->nodes[0].lastEnd, int64_t(15 * 100 + 90));
        QCOMPARE(tables->nodes[0].maxGap, int64_t(10));
        QCOMPARE(tables->check(trace), std::string());

        TraceBuilder other;
        const GroupId q = other.addGroup(GroupKind::Process, other.intern("q"), {}, 1);
        const TrackId u = other.addTrack(q, TrackKind::Slices, other.intern("u"), 1);
        other.addSlice(u, 0, 10, other.intern("x"), other.intern("c"));
        const Trace small = other.finish();
        QCOMPARE(tables->check(small), std::string("depth index: 80 entries for 1 slices"));
    }
};

QTEST_GUILESS_MAIN(TestDepthIndex)
#include "tst_depthindex.moc"
