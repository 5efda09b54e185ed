// TraceBuilder / Trace: sorting once per track, depth and parents by time containment, range queries,
// flows, and the 40-bytes-per-slice memory budget.
#include "corpus.h"
#include "io/chrome/chromejsonimporter.h"
#include "io/input/inputbuffer.h"
#include "io/traceloader.h"
#include "model/tracebuilder.h"

#include <QtTest>

#include <malloc.h>
#include <unistd.h>

#include <random>

using namespace lanescope;

namespace {

uint64_t residentBytes() // VmRSS: the second field of /proc/self/statm, in pages
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return f.readAll().split(' ').value(1).toULongLong() * uint64_t(::sysconf(_SC_PAGESIZE));
}

} // namespace

class TestTraceBuilder : public QObject
{
    Q_OBJECT
private slots:
    void sortsAndNests()
    {
        TraceBuilder b;
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("p"));
        const TrackId t = b.addTrack(g, TrackKind::Slices, b.intern("t"));
        const StringId n = b.intern("s");
        // added out of order: child before parent, siblings reversed
        b.addSlice(t, 50, 10, n, {});  // child of B
        b.addSlice(t, 40, 40, n, {});  // B
        b.addSlice(t, 0, 30, n, {});   // A
        b.addSlice(t, 0, 10, n, {});   // child of A, same start: longer first
        b.addSlice(t, 55, 2, n, {});   // grandchild
        const Trace tr = b.finish();
        const auto s = tr.slices(t);
        QCOMPARE(s.size(), size_t(5));
        const int64_t starts[] = {0, 0, 40, 50, 55};
        const uint16_t depths[] = {0, 1, 0, 1, 2};
        for (size_t i = 0; i < 5; ++i) {
            QCOMPARE(s[i].start, starts[i]);
            QCOMPARE(s[i].depth, depths[i]);
        }
        QCOMPARE(s[0].duration, int64_t(30));
        QCOMPARE(tr.track(t).maxDepth, uint16_t(2));
        QCOMPARE(tr.track(t).maxDuration, int64_t(40));
        QCOMPARE(tr.parent(SliceId(4)), SliceId(3));
        QCOMPARE(tr.parent(SliceId(3)), SliceId(2));
        QVERIFY(!tr.parent(SliceId(2)).isValid());
        QCOMPARE(tr.trackOfSlice(SliceId(4)), t);
        QCOMPARE(tr.startNs(), int64_t(0));
        QCOMPARE(tr.endNs(), int64_t(80));
    }

    // Nesting by time containment: a slice's parent is the innermost slice that contains it whole. B
    // starts inside A and outlives it: B goes beside A (depth 0, no parent), and whatever starts
    // inside both afterwards (D) joins B; E, before B, stays A's child. S starts inside Q and its child
    // Q1 and outlives both: one count in the note, S under their container P. Parents and depths by
    // hand from the intervals.
    void nestsByContainment()
    {
        TraceBuilder b;
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("p"));
        const TrackId t = b.addTrack(g, TrackKind::Slices, b.intern("t"));
        const TrackId u = b.addTrack(g, TrackKind::Slices, b.intern("u"));
        const auto add = [&](TrackId track, int64_t start, int64_t duration, const char *name) {
            b.addSlice(track, start, duration, b.intern(name), {});
        };
        add(t, 0, 100, "A");
        add(t, 10, 10, "E");
        add(t, 50, 100, "B");
        add(t, 60, 10, "D");
        add(t, 120, 10, "C");
        add(u, 0, 1000, "P");
        add(u, 10, 90, "Q");
        add(u, 20, 70, "Q1");
        add(u, 50, 150, "S");
        add(u, 60, 5, "S1");
        const Trace tr = b.finish();
        const auto id = [&](TrackId track, const char *name) {
            const auto s = tr.slices(track);
            for (uint32_t i = 0; i < s.size(); ++i)
                if (tr.str(s[i].name) == name)
                    return tr.sliceId(track, i);
            return SliceId();
        };
        const auto depth = [&](TrackId track, const char *name) { return int(tr.slice(id(track, name)).depth); };
        QCOMPARE(depth(t, "A"), 0);
        QCOMPARE(depth(t, "E"), 1);
        QCOMPARE(depth(t, "B"), 0);
        QCOMPARE(depth(t, "D"), 1);
        QCOMPARE(depth(t, "C"), 1);
        QVERIFY(!tr.parent(id(t, "B")).isValid());
        QCOMPARE(tr.parent(id(t, "E")), id(t, "A"));
        QCOMPARE(tr.parent(id(t, "D")), id(t, "B"));
        QCOMPARE(tr.parent(id(t, "C")), id(t, "B"));
        QCOMPARE(depth(u, "Q1"), 2);
        QCOMPARE(depth(u, "S"), 1);
        QCOMPARE(tr.parent(id(u, "S")), id(u, "P"));
        QCOMPARE(tr.parent(id(u, "S1")), id(u, "S"));
        QCOMPARE(tr.track(u).maxDepth, uint16_t(2));
        // one count per slice that outlives what it starts in: B and S
        QCOMPARE(tr.diagnostics().count(TraceBuilder::kOverlapNote), uint64_t(2));
        // every parent contains its child whole
        for (uint32_t i = 0; i < tr.allSlices().size(); ++i)
            if (const SliceId p = tr.parent(SliceId(i)); p.isValid())
                QVERIFY(tr.slice(p).start <= tr.slice(SliceId(i)).start && tr.slice(SliceId(i)).end() <= tr.slice(p).end());
    }

    // A track of more than a quarter of a large trace's slices is sorted by value halves on two cores
    // (runmerge::splitRuns): the order is the same as one sort by (start, longer first, order added),
    // ties of start and duration included, and the other tracks and the flows bound by slice follow.
    void largeTrackSortedInHalves()
    {
        TraceBuilder b;
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("p"));
        const TrackId big = b.addTrack(g, TrackKind::Slices, b.intern("big"));
        const TrackId other = b.addTrack(g, TrackKind::Slices, b.intern("other"));
        std::vector<StringId> names;
        for (int i = 0; i < 997; ++i)
            names.push_back(b.intern("n" + std::to_string(i)));
        struct Added
        {
            int64_t start, duration;
            uint32_t index;
        };
        std::vector<Added> added;
        std::mt19937_64 rng(7);
        constexpr uint32_t kSlices = 240000, kRuns = 37;
        for (uint32_t r = 0; r < kRuns; ++r) {
            int64_t t = int64_t(rng() % 1000), d = 0;
            for (uint32_t k = 0; k < kSlices / kRuns; ++k) {
                // Each run in order (a thread's events as written): equal starts, the longer first, and
                // equal (start, duration) pairs.
                const int64_t step = int64_t(rng() % 3);
                t += step;
                d = step ? int64_t(rng() % 4) : std::max<int64_t>(0, d - int64_t(rng() % 2));
                const uint32_t index = uint32_t(added.size());
                b.addSlice(big, t, d, names[index % names.size()], {});
                added.push_back({t, d, index});
                if (k % 5 == 0)
                    b.addSlice(other, int64_t(rng() % 100000), 1, names[0], {});
            }
        }
        std::stable_sort(added.begin(), added.end(), [](const Added &x, const Added &y) {
            return x.start != y.start ? x.start < y.start : x.duration > y.duration;
        });
        const Trace tr = b.finish();
        const auto s = tr.slices(big);
        QCOMPARE(s.size(), added.size());
        for (size_t i = 0; i < s.size(); ++i) {
            QCOMPARE(s[i].start, added[i].start);
            QCOMPARE(s[i].duration, added[i].duration);
            QCOMPARE(s[i].name, names[added[i].index % names.size()]);
        }
        const auto o = tr.slices(other);
        QVERIFY(o.size() > 40000);
        for (size_t i = 1; i < o.size(); ++i)
            QVERIFY(o[i - 1].start <= o[i].start);
    }

    void asyncTracksPackIntoRows()
    {
        // pipelined packets: each overlaps the previous one, never more than 2 in flight
        TraceBuilder b;
        const TrackId t = b.addTrack(b.addGroup(GroupKind::Device, b.intern("d")), TrackKind::Async, b.intern("q"));
        const StringId n = b.intern("p");
        for (int i = 0; i < 1000; ++i)
            b.addSlice(t, i * 10, 15, n, {});
        b.addSlice(t, 100000, 5, n, {}); // alone again: row 0
        const Trace tr = b.finish();
        QCOMPARE(tr.track(t).maxDepth, uint16_t(1));
        const auto s = tr.slices(t);
        for (size_t i = 0; i + 1 < 1000; ++i)
            QCOMPARE(s[i].depth, uint16_t(i % 2));
        QCOMPARE(s[1000].depth, uint16_t(0));
        QVERIFY(tr.diagnostics().empty()); // overlap is normal on async tracks
        // slices of one row never overlap (the views rely on it)
        int64_t lastEnd[2] = {INT64_MIN, INT64_MIN};
        for (const Slice &x : s) {
            QVERIFY(x.start >= lastEnd[x.depth]);
            lastEnd[x.depth] = x.end();
        }
    }

    void rangeQuery()
    {
        TraceBuilder b;
        const TrackId t = b.addTrack(b.addGroup(GroupKind::Process, b.intern("p")), TrackKind::Slices, b.intern("t"));
        const StringId n = b.intern("s");
        b.addSlice(t, 0, 1000, n, {}); // long slice covering everything
        for (int i = 0; i < 100; ++i)
            b.addSlice(t, i * 10, 5, n, {});
        const Trace tr = b.finish();
        const auto [first, last] = tr.sliceRange(t, 500, 520);
        const auto s = tr.slices(t);
        // every slice overlapping [500,520] is inside [first,last)
        for (uint32_t i = 0; i < s.size(); ++i) {
            const bool overlaps = s[i].start <= 520 && s[i].end() >= 500;
            if (overlaps)
                QVERIFY2(i >= first && i < last, qPrintable(QString::number(i)));
        }
        QVERIFY(last - first < 60);
    }

    void flowsResolveAfterSort()
    {
        TraceBuilder b;
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("p"));
        const TrackId t1 = b.addTrack(g, TrackKind::Slices, b.intern("a"));
        const TrackId t2 = b.addTrack(g, TrackKind::Slices, b.intern("b"));
        const uint32_t late = b.addSlice(t1, 100, 10, b.intern("late"), {});
        b.addSlice(t1, 0, 10, b.intern("early"), {});
        const uint32_t target = b.addSlice(t2, 200, 10, b.intern("target"), {});
        b.addFlow(FlowEnd::slice(late), FlowEnd::slice(target), {}, {}, 1);
        b.addFlow(FlowEnd::enclosing(t1, 5), FlowEnd::next(t2, 150), {}, {}, 2);
        b.addFlow(FlowEnd::enclosing(t1, 50), FlowEnd::next(t2, 150), {}, {}, 3); // no enclosing slice
        const Trace tr = b.finish();
        QCOMPARE(tr.flows().size(), size_t(2));
        QCOMPARE(tr.str(tr.slice(tr.flows()[0].from).name), std::string_view("late"));
        QCOMPARE(tr.str(tr.slice(tr.flows()[1].from).name), std::string_view("early"));
        QCOMPARE(tr.str(tr.slice(tr.flows()[1].to).name), std::string_view("target"));
        QCOMPARE(tr.flowsTo(tr.flows()[0].to).size(), size_t(2));
        QCOMPARE(tr.diagnostics().count("flow starts not inside any slice on their thread (flow dropped)"), uint64_t(1));
    }

    void instantsAndCountersSorted()
    {
        TraceBuilder b;
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("p"));
        const TrackId c = b.addTrack(g, TrackKind::Counter, b.intern("c"));
        const TrackId t = b.addTrack(g, TrackKind::Slices, b.intern("t"));
        b.addCounterSample(c, 30, 3);
        b.addInstant(t, 20, b.intern("i2"), {});
        b.addCounterSample(c, 10, 1);
        b.addInstant(t, 10, b.intern("i1"), {});
        const Trace tr = b.finish();
        QCOMPARE(tr.counterSamples(c).size(), size_t(2));
        QCOMPARE(tr.counterSamples(c)[0].ts, int64_t(10));
        QCOMPARE(tr.instants(t)[0].ts, int64_t(10));
        QCOMPARE(tr.str(tr.instants(t)[1].name), std::string_view("i2"));
    }

    // Budget from the foundation issue: at most 40 bytes resident per slice (args excluded),
    // measured on a generated Kineto-like trace through the real importer.
    void memoryBudgetPerSlice()
    {
        std::mt19937_64 rng(42);
        std::string json = "{\"traceEvents\":[";
        const int threads = 8, perThread = 25000;
        int64_t ts[threads] = {};
        bool first = true;
        for (int i = 0; i < perThread; ++i) {
            for (int th = 0; th < threads; ++th) {
                const int64_t d = 1 + int64_t(rng() % 50);
                char buf[256];
                std::snprintf(buf, sizeof buf,
                              "%s{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::op%d\",\"pid\":1,\"tid\":%d,\"ts\":%lld.%03d,\"dur\":%lld.5,\"args\":{\"External id\":%d}}",
                              first ? "" : ",", int(rng() % 200), th, (long long)ts[th], int(rng() % 1000), (long long)d, i);
                first = false;
                json += buf;
                ts[th] += d + 1;
            }
        }
        json += "]}";
        LoadOptions opt;
        InputBuffer in = InputBuffer::fromBytes(json, "generated.json", opt);
        const Trace tr = ChromeJsonImporter::import(in, "generated.json", opt);
        QCOMPARE(tr.allSlices().size(), size_t(threads * perThread));
        const double perSlice = double(tr.sliceResidentBytes()) / double(tr.allSlices().size());
        qInfo("resident bytes per slice: %.2f (budget 40)", perSlice);
        QVERIFY2(perSlice <= 40.0, qPrintable(QString::number(perSlice)));
    }

    // What a loaded trace really costs: the process's resident memory (VmRSS, /proc/self/statm) after
    // loading a real Kineto trace minus before, per event read, with the memory freed by the load
    // (decompressed text, parse index) handed back first (malloc_trim). It covers the whole model:
    // slice records, string pool, args, flows, indexes, allocator overhead. The 40-byte goal above is
    // for the slice records alone (their capacity sum).
    void residentMemoryPerEvent()
    {
        const QString file = QStringLiteral("tracelens/xdit_sd35_rank0.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        ::malloc_trim(0);
        const uint64_t before = residentBytes();
        const LoadResult r = TraceLoader::load(lanescope::test::corpusFile(file).toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        ::malloc_trim(0);
        const uint64_t after = residentBytes();
        const Trace &t = *r.trace;
        const uint64_t events = t.stats().eventsRead;
        QVERIFY(events > 200000);
        // Signed: under ASan the allocator's own mappings can make the difference zero or negative.
        const double perEvent = (double(after) - double(before)) / double(events);
        const double recordsPerSlice = double(t.sliceResidentBytes()) / double(t.allSlices().size());
        qInfo("%s: %llu events, %zu slices: resident memory %.1f bytes per event (%.1f MB), slice records %.1f "
              "bytes per slice, model's own count %.1f bytes per event",
              qPrintable(file), (unsigned long long)events, t.allSlices().size(), perEvent,
              (double(after) - double(before)) / 1e6, recordsPerSlice, double(t.memoryUsage()) / double(events));
        QVERIFY2(recordsPerSlice <= 40.0, qPrintable(QString::number(recordsPerSlice)));
#if defined(__SANITIZE_ADDRESS__)
        // ASan's shadow memory, redzones and quarantine change the resident size either way (the load
        // can even end below where it began): measured and reported only.
#else
        QVERIFY(after > before);
        // Measured on this trace (Debian 12, GCC 12 release build, glibc malloc): 88 bytes per event when
        // run alone, 117 after the other functions of this test (21-28 MB; the model counts 119). The
        // bound is about twice the larger, so a real regression (the text or parse index kept, a heap
        // allocation per event) fails while allocator noise does not.
        QVERIFY2(perEvent <= 240.0, qPrintable(QStringLiteral("%1 bytes per event, bound 240").arg(perEvent)));
#endif
    }
};

QTEST_GUILESS_MAIN(TestTraceBuilder)
#include "tst_tracebuilder.moc"
