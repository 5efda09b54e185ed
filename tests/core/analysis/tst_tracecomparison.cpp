// TraceComparison: alignment offsets, lane matching by key and by role, the combined trace's layout.
#include "analysis/tracecomparison.h"
#include "corpus.h"
#include "io/traceloader.h"
#include "model/tracebuilder.h"

#include <QtTest>

#include <memory>
#include <stdexcept>

using namespace lanescope;

namespace {

struct LaneSpec
{
    const char *group;
    const char *name;
    int slices;
    int64_t start;
};

// A small trace: one group per distinct group name, one lane per spec with `slices` 10 ns slices.
std::shared_ptr<const Trace> makeTrace(const char *path, std::initializer_list<LaneSpec> lanes,
                                       const char *marker = nullptr, int64_t markerTs = 0)
{
    TraceBuilder b;
    b.metadata().sourcePath = path;
    std::map<std::string, GroupId> groups;
    TrackId last;
    int64_t sort = 0;
    for (const LaneSpec &l : lanes) {
        auto it = groups.find(l.group);
        if (it == groups.end())
            it = groups.emplace(l.group, b.addGroup(GroupKind::Process, b.intern(l.group))).first;
        const TrackId t = b.addTrack(it->second, TrackKind::Slices, b.intern(l.name));
        b.track(t).sortIndex = sort++;
        for (int i = 0; i < l.slices; ++i)
            b.addSlice(t, l.start + i * 20, 10, b.intern("op"), b.intern("cpu_op"));
        last = t;
    }
    if (marker)
        b.addSlice(last, markerTs, 5, b.intern(marker), b.intern("user_annotation"));
    return std::make_shared<const Trace>(b.finish());
}

std::shared_ptr<const Trace> loadCorpus(const QString &relative)
{
    const QString path = lanescope::test::corpusFile(relative);
    LoadResult r = TraceLoader::load(path.toStdString());
    if (!r.ok())
        qFatal("cannot load %s: %s", qPrintable(path), r.error.c_str());
    return r.trace;
}

const ComparedLane *laneOf(const ComparisonResult &r, uint32_t profile, const Trace &source, std::string_view name)
{
    for (const ComparedLane &l : r.lanes)
        if (l.profile == profile && source.str(source.track(l.source).name) == name)
            return &l;
    return nullptr;
}

} // namespace

class TestTraceComparison : public QObject
{
    Q_OBJECT
private slots:
    void genericKeys_data();
    void genericKeys();
    void matchesByKeyThenRole();
    void partnersSitBelowTheirLane();
    void alignsAtStartStepAndMarker();
    void missingAnchorNamesTheProfile();
    void alignsAtMatchingEvents();
    void threeWay();
    void sameCorpusFileTwiceMatchesEveryLane();
    void mixedVendorsMatchStreamsByRole();
};

void TestTraceComparison::genericKeys_data()
{
    QTest::addColumn<QString>("groupA");
    QTest::addColumn<QString>("laneA");
    QTest::addColumn<QString>("groupB");
    QTest::addColumn<QString>("laneB");
    QTest::addColumn<bool>("same");
    QTest::newRow("tids differ") << "python" << "thread 25738 (python)" << "python" << "thread 25811 (python)" << true;
    QTest::newRow("short stream numbers stay") << "p" << "stream 7" << "p" << "stream 8" << false;
    QTest::newRow("trailing blank") << "p" << "stream 0 " << "p" << "stream 0" << true;
    QTest::newRow("neff hash in group") << "NeuronCore 0 · neff_11035164370875069289" << "Tensor"
                                        << "NeuronCore 0 · neff_16801966170408191922" << "Tensor" << true;
    QTest::newRow("engines differ") << "NC 0" << "Tensor" << "NC 0" << "Vector" << false;
}

void TestTraceComparison::genericKeys()
{
    QFETCH(QString, groupA);
    QFETCH(QString, laneA);
    QFETCH(QString, groupB);
    QFETCH(QString, laneB);
    QFETCH(bool, same);
    const std::string ga = groupA.toStdString(), la = laneA.toStdString(), gb = groupB.toStdString(), lb = laneB.toStdString();
    const auto a = makeTrace("a.json", {{ga.c_str(), la.c_str(), 1, 0}});
    const auto b = makeTrace("b.json", {{gb.c_str(), lb.c_str(), 1, 0}});
    QCOMPARE(TraceComparison::laneKey(*a, TrackId(0)) == TraceComparison::laneKey(*b, TrackId(0)), same);
}

void TestTraceComparison::matchesByKeyThenRole()
{
    // A: a CUDA-style trace; B: another vendor's names for the same roles, plus a lane of its own.
    const auto a = makeTrace("h100.json", {{"python", "thread 100 (python)", 3, 0},
                                           {"python", "stream 7", 5, 0},
                                           {"python", "stream 20", 2, 0}});
    const auto b = makeTrace("mi300.json", {{"python", "thread 200 (python)", 4, 0},
                                            {"python", "stream 0", 6, 0},
                                            {"python", "stream 3", 1, 0},
                                            {"python", "gpu memcpy lane", 2, 0}});
    const ComparisonResult r = TraceComparison::build({a, b});
    QCOMPARE(r.lanes.size(), size_t(7));
    const ComparedLane *aThread = laneOf(r, 0, *a, "thread 100 (python)");
    const ComparedLane *bThread = laneOf(r, 1, *b, "thread 200 (python)");
    QVERIFY(aThread && bThread);
    QCOMPARE(aThread->matchSet, bThread->matchSet);
    QVERIFY(!bThread->matchedByRole); // pass 1: equal keys once the tids are generic
    // Streams: stream 7 (5 slices) is A's busiest, stream 0 (6) B's busiest -> they meet by role.
    const ComparedLane *s7 = laneOf(r, 0, *a, "stream 7"), *s0 = laneOf(r, 1, *b, "stream 0");
    const ComparedLane *s20 = laneOf(r, 0, *a, "stream 20"), *s3 = laneOf(r, 1, *b, "stream 3");
    QVERIFY(s7 && s0 && s20 && s3);
    QCOMPARE(s7->matchSet, s0->matchSet);
    QCOMPARE(s20->matchSet, s3->matchSet);
    QVERIFY(s0->matchedByRole);
    QVERIFY(s7->matchSet != s20->matchSet);
    // B's own lane has no partner and says so.
    const ComparedLane *own = laneOf(r, 1, *b, "gpu memcpy lane");
    QVERIFY(own);
    QCOMPARE(own->matchSet, -1);
    QCOMPARE(r.matchedSets, 3u);
    QCOMPARE(r.unmatchedLanes, 1u);
    const Trace &c = *r.combined;
    QCOMPARE(c.str(c.track(own->combined).name), std::string_view("B · gpu memcpy lane  — only in B"));
    QCOMPARE(c.str(c.track(s0->combined).name), std::string_view("B · stream 0  (as stream 7)"));
    QCOMPARE(c.allSlices().size(), a->allSlices().size() + b->allSlices().size());
}

void TestTraceComparison::partnersSitBelowTheirLane()
{
    const auto a = makeTrace("a.json", {{"proc", "thread 111 (main)", 2, 0}, {"proc", "thread 222 (worker)", 2, 0}});
    const auto b = makeTrace("b.json", {{"proc", "thread 333 (worker)", 2, 0}, {"proc", "thread 444 (main)", 2, 0}});
    const ComparisonResult r = TraceComparison::build({a, b});
    const Trace &c = *r.combined;
    // Same group in the combined trace, sort indices main(A) < main(B) < worker(A) < worker(B).
    auto track = [&](uint32_t p, const Trace &src, const char *name) -> const Track & {
        const ComparedLane *l = laneOf(r, p, src, name);
        Q_ASSERT(l);
        return c.track(l->combined);
    };
    const Track &am = track(0, *a, "thread 111 (main)"), &bm = track(1, *b, "thread 444 (main)");
    const Track &aw = track(0, *a, "thread 222 (worker)"), &bw = track(1, *b, "thread 333 (worker)");
    QCOMPARE(am.group.value, bm.group.value);
    QCOMPARE(aw.group.value, bw.group.value);
    QVERIFY(am.sortIndex < bm.sortIndex);
    QVERIFY(bm.sortIndex < aw.sortIndex);
    QVERIFY(aw.sortIndex < bw.sortIndex);
    QCOMPARE(c.str(am.name), std::string_view("A · thread 111 (main)"));
    QCOMPARE(c.str(bm.name), std::string_view("B · thread 444 (main)"));
}

void TestTraceComparison::alignsAtStartStepAndMarker()
{
    const auto a = makeTrace("a.json", {{"p", "thread 1000 (x)", 3, 1000}}, "ProfilerStep#2", 1500);
    const auto b = makeTrace("b.json", {{"p", "thread 2000 (x)", 3, 90000}}, "ProfilerStep#2", 90700);
    {
        const ComparisonResult r = TraceComparison::build({a, b});
        QCOMPARE(r.offsetsNs, (std::vector<int64_t>{-1000, -90000}));
        QCOMPARE(r.combined->startNs(), int64_t(0));
    }
    {
        CompareOptions o;
        o.anchor.kind = CompareAnchor::Kind::Step;
        o.anchor.step = 2;
        o.nudgeNs = {0, 25};
        const ComparisonResult r = TraceComparison::build({a, b}, o);
        QCOMPARE(r.offsetsNs, (std::vector<int64_t>{-1500, -90700 + 25}));
    }
    {
        CompareOptions o;
        o.anchor.kind = CompareAnchor::Kind::Marker;
        o.anchor.marker = "op";
        const ComparisonResult r = TraceComparison::build({a, b}, o);
        QCOMPARE(r.offsetsNs, (std::vector<int64_t>{-1000, -90000}));
    }
    {
        CompareOptions o;
        o.anchor.kind = CompareAnchor::Kind::Slices;
        o.anchor.slices = {SliceId(1), SliceId(2)};
        const ComparisonResult r = TraceComparison::build({a, b}, o);
        QCOMPARE(r.offsetsNs, (std::vector<int64_t>{-a->slice(SliceId(1)).start, -b->slice(SliceId(2)).start}));
    }
}

void TestTraceComparison::missingAnchorNamesTheProfile()
{
    const auto a = makeTrace("/x/a.json", {{"p", "t", 1, 0}}, "ProfilerStep#1", 0);
    const auto b = makeTrace("/x/b.json", {{"p", "t", 1, 0}});
    CompareOptions o;
    o.anchor.kind = CompareAnchor::Kind::Step;
    o.anchor.step = 1;
    try {
        TraceComparison::build({a, b}, o);
        QFAIL("expected an error");
    } catch (const std::runtime_error &e) {
        QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("profile B (b.json): no slice named ProfilerStep#1"));
    }
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, TraceComparison::build({a}));
}

void TestTraceComparison::alignsAtMatchingEvents()
{
    // "step" occurs three times in each profile, at different times; select the second one in B.
    TraceBuilder ba, bb;
    auto fill = [](TraceBuilder &b, const char *path, std::initializer_list<int64_t> starts) {
        b.metadata().sourcePath = path;
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("p"));
        const TrackId t = b.addTrack(g, TrackKind::Slices, b.intern("thread 1234 (main)"));
        for (int64_t s : starts)
            b.addSlice(t, s, 10, b.intern("step"), b.intern("x"));
        b.addSlice(t, 0, 1, b.intern("other"), b.intern("x"));
    };
    fill(ba, "a", {100, 300, 500});
    fill(bb, "b", {1000, 1700, 2400});
    const auto a = std::make_shared<const Trace>(ba.finish());
    const auto b = std::make_shared<const Trace>(bb.finish());
    const ComparisonResult first = TraceComparison::build({a, b});
    const Trace &c = *first.combined;
    // The combined slice of B's second "step".
    SliceId picked;
    for (const ComparedLane &l : first.lanes)
        if (l.profile == 1)
            for (uint32_t i = 0; i < c.track(l.combined).sliceCount; ++i) {
                const SliceId id = c.sliceId(l.combined, i);
                if (c.str(c.slice(id).name) == "step" && c.slice(id).start == 1700 + first.offsetsNs[1])
                    picked = id;
            }
    QVERIFY(picked.isValid());
    CompareAnchor anchor;
    std::string error;
    QVERIFY2(TraceComparison::matchingAnchor(first, picked, anchor, &error), error.c_str());
    QCOMPARE(anchor.times, (std::vector<int64_t>{300, 1700}));
    CompareOptions o;
    o.anchor = anchor;
    const ComparisonResult aligned = TraceComparison::build({a, b}, o);
    QCOMPARE(aligned.offsetsNs, (std::vector<int64_t>{-300, -1700}));
    // A profile with fewer occurrences cannot match the third one.
    TraceBuilder bc;
    fill(bc, "c", {50, 60});
    const auto cc = std::make_shared<const Trace>(bc.finish());
    const ComparisonResult three = TraceComparison::build({a, b, cc});
    SliceId third;
    for (const ComparedLane &l : three.lanes)
        if (l.profile == 0)
            for (uint32_t i = 0; i < three.combined->track(l.combined).sliceCount; ++i) {
                const SliceId id = three.combined->sliceId(l.combined, i);
                if (three.combined->slice(id).start == 500 + three.offsetsNs[0])
                    third = id;
            }
    QVERIFY(third.isValid());
    QVERIFY(!TraceComparison::matchingAnchor(three, third, anchor, &error));
    QCOMPARE(QString::fromStdString(error), QStringLiteral("profile C has only 2 \"step\" event(s), the selection is number 3"));
}

void TestTraceComparison::threeWay()
{
    const auto a = makeTrace("naive", {{"NC 0", "Tensor", 4, 0}, {"NC 0", "Vector", 9, 0}});
    const auto b = makeTrace("fused", {{"NC 0", "Tensor", 4, 0}, {"NC 0", "Vector", 3, 0}});
    const auto c = makeTrace("compiled", {{"NC 0", "Vector", 2, 0}, {"NC 0", "Scalar", 2, 0}});
    CompareOptions o;
    o.labels = {"naive", "fused", "compiled"};
    const ComparisonResult r = TraceComparison::build({a, b, c}, o);
    const ComparedLane *av = laneOf(r, 0, *a, "Vector"), *bv = laneOf(r, 1, *b, "Vector"), *cv = laneOf(r, 2, *c, "Vector");
    QVERIFY(av && bv && cv);
    QCOMPARE(av->matchSet, bv->matchSet);
    QCOMPARE(av->matchSet, cv->matchSet);
    const ComparedLane *cs = laneOf(r, 2, *c, "Scalar");
    QCOMPARE(cs->matchSet, -1);
    QCOMPARE(r.combined->str(r.combined->track(cv->combined).name), std::string_view("compiled · Vector"));
    QCOMPARE(r.matchedSets, 2u);
}

void TestTraceComparison::sameCorpusFileTwiceMatchesEveryLane()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"));
    const auto a = loadCorpus(QStringLiteral("kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"));
    const auto b = loadCorpus(QStringLiteral("kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"));
    CompareOptions o;
    o.anchor.kind = CompareAnchor::Kind::Step;
    o.anchor.step = 2; // no step 0 or 1 in every capture: step 2 exists in this one
    int64_t step = 0;
    if (!TraceComparison::anchorTime(*a, o.anchor, 0, step))
        o.anchor.kind = CompareAnchor::Kind::Start;
    const ComparisonResult r = TraceComparison::build({a, b}, o);
    QCOMPARE(r.unmatchedLanes, 0u);
    uint32_t lanesWithEvents = 0;
    for (const Track &t : a->tracks())
        lanesWithEvents += (t.sliceCount + t.instantCount + t.counterCount) > 0;
    QCOMPARE(r.matchedSets, lanesWithEvents);
    QCOMPARE(r.offsetsNs[0], r.offsetsNs[1]);
    QCOMPARE(r.combined->allSlices().size(), 2 * a->allSlices().size());
    QCOMPARE(r.combined->flows().size(), 2 * a->flows().size());
    for (const ComparedLane &l : r.lanes)
        if (l.matchSet >= 0)
            QVERIFY(!l.matchedByRole);
}

void TestTraceComparison::mixedVendorsMatchStreamsByRole()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"));
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("tracelens/mi300_resnet_act_checkpoint.json.gz"));
    // An NVIDIA (resnet50, CUDA stream 7) and an AMD (MI300, HIP streams 0 and 4) trace of ResNet training.
    const auto a = loadCorpus(QStringLiteral("kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"));
    const auto b = loadCorpus(QStringLiteral("tracelens/mi300_resnet_act_checkpoint.json.gz"));
    const ComparisonResult r = TraceComparison::build({a, b});
    const ComparedLane *cuda = laneOf(r, 0, *a, "stream 7");
    QVERIFY(cuda);
    QVERIFY(cuda->matchSet >= 0);
    // Its partner is B's busiest stream.
    const ComparedLane *partner = nullptr;
    for (const ComparedLane &l : r.lanes)
        if (l.profile == 1 && l.matchSet == cuda->matchSet)
            partner = &l;
    QVERIFY(partner);
    QVERIFY(partner->matchedByRole);
    QVERIFY(b->str(b->track(partner->source).name).starts_with("stream 0"));
    QCOMPARE(r.combined->allSlices().size(), a->allSlices().size() + b->allSlices().size());
}

QTEST_GUILESS_MAIN(TestTraceComparison)
#include "tst_tracecomparison.moc"
