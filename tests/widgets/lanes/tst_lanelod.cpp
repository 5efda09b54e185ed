// LaneLod: one zoom level's folded items in time, mapped to pixels for any viewport of that level.
// Against LaneGeometry's exact per-viewport folding on the same trace: every slice a pixel or wider is
// its own item with the same id in both, the folded counts add up to the slices in view, the covered
// pixel columns per depth agree (a gap narrower than a pixel may fold in one and not the other: at most
// 2 % of columns), a viewport moved within the built range reuses the items, and depths built in
// parallel give the same items as one after another.
#include "lanes/lanegeometry.h"
#include "lanes/lanelod.h"
#include "model/depthindex.h"

#include "model/tracebuilder.h"

#include <QTest>

#include <cstdint>
#include <random>
#include <set>

using namespace lanescope;

namespace {

struct Fixture
{
    std::shared_ptr<const Trace> trace;
    TrackId track;
    DepthIndex index;
};

// Roots of 50-150 us with children at depth 1 and 2: tens of thousands of slices on one track.
void build(Fixture &f)
{
    TraceBuilder b;
    const StringId cat = b.intern("op");
    const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
    f.track = b.addTrack(p, TrackKind::Slices, b.intern("t"), 1);
    std::vector<StringId> names;
    for (int i = 0; i < 20; ++i)
        names.push_back(b.intern("n" + std::to_string(i)));
    std::mt19937 rng(11);
    int64_t ts = 0;
    for (int i = 0; i < 20'000; ++i) {
        const int64_t dur = 50'000 + int64_t(rng() % 100'000);
        b.addSlice(f.track, ts, dur, names[rng() % names.size()], cat);
        b.addSlice(f.track, ts + 1'000, dur / 3, names[rng() % names.size()], cat);
        b.addSlice(f.track, ts + 2'000, dur / 10, names[rng() % names.size()], cat);
        b.addSlice(f.track, ts + dur / 2, dur / 4, names[rng() % names.size()], cat);
        ts += dur + int64_t(rng() % 40'000);
    }
    f.trace = std::make_shared<const Trace>(b.finish());
    f.index.build(f.trace.get());
}

std::vector<std::set<int>> columns(const std::vector<LaneGeometry::SliceItem> &items, int depths)
{
    std::vector<std::set<int>> c(static_cast<size_t>(depths));
    for (const auto &i : items) {
        const int px0 = int(std::floor(i.x0));
        const int px1 = std::max(px0 + 1, int(std::floor(i.x1)));
        for (int x = px0; x < px1; ++x)
            c[i.depth].insert(x);
    }
    return c;
}

} // namespace

class TestLaneLod : public QObject
{
    Q_OBJECT
private slots:
    void levels()
    {
        QCOMPARE(LaneLod::levelFor({0, 1'000'000, 1000}), 39); // 1000 ns/px -> 2^(39/4) = 861 ns
        QCOMPARE(LaneLod::bucketOf(39), int64_t(861));
        QCOMPARE(LaneLod::levelFor({0, 1'024'000, 1000}), 40); // 1024 ns/px: exactly 2^10
        QCOMPARE(LaneLod::bucketOf(40), int64_t(1024));
        QCOMPARE(LaneLod::levelFor({0, 1'000, 1000}), 0);      // 1 ns/px
        QCOMPARE(LaneLod::levelFor({0, 999, 1000}), -1);      // below 1 ns/px: exact folding
        QCOMPARE(LaneLod::levelFor({5, 5, 1000}), -1);
    }

    void agreesWithExactFolding_data()
    {
        QTest::addColumn<double>("fraction"); // of the trace in view
        QTest::newRow("whole") << 1.0;
        QTest::newRow("tenth") << 0.1;
        QTest::newRow("hundredth") << 0.01;
    }
    void agreesWithExactFolding()
    {
        QFETCH(double, fraction);
        Fixture f;
        build(f);
        const Trace &t = *f.trace;
        const int64_t span = int64_t(double(t.endNs() - t.startNs()) * fraction);
        const int64_t t0 = t.startNs() + (t.endNs() - t.startNs() - span) / 2;
        const LaneGeometry::Viewport vp{t0, t0 + span, 1600};
        const int level = LaneLod::levelFor(vp);
        QVERIFY(level > 0);
        LaneLod lod;
        lod.build(t, f.index, f.track, level, vp.t0 - span, vp.t1 + span);
        QVERIFY(lod.covers(f.track, level, vp.t0, vp.t1));
        LaneGeometry exact, mapped;
        exact.build(t, f.index, f.track, vp);
        QVERIFY(mapped.buildAllButSlices(t, f.track, vp));
        lod.map(vp, mapped.slices);

        // Slices two pixels or wider: the same individual items.
        std::set<uint32_t> wideExact, wideMapped;
        for (const auto &i : exact.slices)
            if (i.count == 1 && i.x1 - i.x0 >= 2)
                wideExact.insert(i.slice);
        for (const auto &i : mapped.slices)
            if (i.count == 1)
                wideMapped.insert(i.slice);
        QCOMPARE(wideExact.empty(), fraction > 0.05); // whole and tenth: every root is under 2 px
        for (uint32_t s : wideExact)
            QVERIFY(wideMapped.count(s));
        // Counts add up to the slices in view, in both.
        uint64_t inView = 0, exactCount = 0, mappedCount = 0;
        for (int d = 0; d < f.index.depthCount(f.track); ++d) {
            const auto [a, b] = f.index.range(f.track, d, vp.t0, vp.t1);
            inView += b - a;
        }
        for (const auto &i : exact.slices)
            exactCount += i.count;
        for (const auto &i : mapped.slices)
            mappedCount += i.count;
        QCOMPARE(exactCount, inView);
        // A run folded in the LOD may reach outside the view (built over a wider range).
        QVERIFY(mappedCount >= inView);
        // Colour keys come with the items.
        for (const auto &i : mapped.slices) {
            QCOMPARE(i.name, t.allSlices()[i.slice].name.value);
            QCOMPARE(i.category, t.allSlices()[i.slice].category.value);
        }
        // Covered pixel columns per depth, on screen: everything the exact folding covers is covered
        // (at most 0.5 % of columns missing), and what only the LOD covers closes gaps of at most two
        // pixels between covered columns (runs fold slices up to ~2 px; the exact path's items end at
        // whole pixels and leave 1 px seams), never coverage away from the data.
        const int depths = f.index.depthCount(f.track);
        const auto ce = columns(exact.slices, depths), cm = columns(mapped.slices, depths);
        for (int d = 0; d < depths; ++d) {
            const auto &e = ce[size_t(d)], &m = cm[size_t(d)];
            int missing = 0, invented = 0;
            for (int x = 0; x < 1600; ++x) {
                if (e.count(x) && !m.count(x))
                    ++missing;
                if (m.count(x) && !e.count(x)) {
                    const bool left = e.count(x - 1) || e.count(x - 2), right = e.count(x + 1) || e.count(x + 2);
                    invented += !(left && right) && !(x < 2 || x > 1597);
                }
            }
            QVERIFY2(missing <= 8, qPrintable(QStringLiteral("depth %1: %2 columns missing").arg(d).arg(missing)));
            QVERIFY2(invented == 0, qPrintable(QStringLiteral("depth %1: %2 columns invented").arg(d).arg(invented)));
        }
        // Moved by a tenth of the view, and shifted by 1 ns: the same level, still covered.
        QCOMPARE(LaneLod::levelFor({vp.t0 + span / 10, vp.t1 + span / 10, 1600}), level);
        QVERIFY(lod.covers(f.track, level, vp.t0 + span / 10, vp.t1 + span / 10));
        QVERIFY(lod.covers(f.track, level, vp.t0, vp.t1 - 1));
        QVERIFY(!lod.covers(f.track, level, vp.t0 + 2 * span, vp.t1 + 2 * span));
        QVERIFY(!lod.covers(f.track, level + 1, vp.t0, vp.t1));
        QVERIFY(!lod.covers(TrackId(f.track.value + 1), level, vp.t0, vp.t1));
    }

    // A lane's depths built on several cores (a large lane) give exactly the items of a build one depth
    // after another, at every level from a tenth of the trace to all of it.
    void parallelDepthsGiveTheSameItems()
    {
        Fixture f;
        build(f);
        const Trace &t = *f.trace;
        QVERIFY(f.index.depthCount(f.track) >= 3);
        const int64_t span = t.endNs() - t.startNs();
        for (const int64_t width : {span / 10, span / 3, span}) {
            const LaneGeometry::Viewport vp{t.startNs(), t.startNs() + width, 1600};
            const int level = LaneLod::levelFor(vp);
            QVERIFY(level > 0);
            LaneLod sequential, parallel;
            sequential.build(t, f.index, f.track, level, vp.t0, vp.t1, SIZE_MAX);
            parallel.build(t, f.index, f.track, level, vp.t0, vp.t1, 0);
            QVERIFY(sequential.itemCount() > 0);
            QCOMPARE(parallel.itemCount(), sequential.itemCount());
            std::vector<LaneGeometry::SliceItem> a, b;
            sequential.map(vp, a);
            parallel.map(vp, b);
            QCOMPARE(b.size(), a.size());
            for (size_t i = 0; i < a.size(); ++i) {
                QCOMPARE(b[i].slice, a[i].slice);
                QCOMPARE(b[i].count, a[i].count);
                QCOMPARE(b[i].depth, a[i].depth);
                QCOMPARE(b[i].x0, a[i].x0);
                QCOMPARE(b[i].x1, a[i].x1);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestLaneLod)
#include "tst_lanelod.moc"
