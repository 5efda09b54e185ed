// DepthIndex: per-depth visible ranges and the multi-resolution summary behind level of detail:
// consumeRun must equal a plain walk over the slices (next position, count, end, longest member).
#include "timeline/depthindex.h"

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
};

QTEST_GUILESS_MAIN(TestDepthIndex)
#include "tst_depthindex.moc"
