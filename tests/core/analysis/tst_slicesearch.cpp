// SliceSearch (core/analysis): substring and regex matches over names (and args), in time order
// across tracks, and stepping forward / backward with wrap-around.
#include "analysis/slicesearch.h"

#include "model/tracebuilder.h"

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
    const Arg args[] = {Arg::makeString(b.intern("kernel"), b.intern("volta_sgemm"))};
    b.addSlice(t1, 100, 10, b.intern("aten::matmul"), cat);
    b.addSlice(t1, 300, 10, b.intern("aten::relu"), cat);
    b.addSlice(t1, 500, 10, b.intern("Aten::MatMul_backward"), cat);
    b.addSlice(t2, 200, 10, b.intern("matmul_kernel"), cat);
    b.addSlice(t2, 400, 10, b.intern("launch"), cat, b.addArgs(args));
    return std::make_shared<const Trace>(b.finish());
}

std::vector<int64_t> starts(const Trace &t, const std::vector<uint32_t> &ids)
{
    std::vector<int64_t> out;
    for (uint32_t id : ids)
        out.push_back(t.slice(SliceId(id)).start);
    return out;
}

} // namespace

class TestSliceSearch : public QObject
{
    Q_OBJECT
private slots:
    void substringInTimeOrder()
    {
        const auto trace = makeTrace();
        SliceSearch::Options o;
        o.pattern = QStringLiteral("matmul");
        const auto hits = SliceSearch::find(*trace, o);
        QCOMPARE(starts(*trace, hits), (std::vector<int64_t>{100, 200, 500})); // case-insensitive
        o.caseSensitive = true;
        QCOMPARE(starts(*trace, SliceSearch::find(*trace, o)), (std::vector<int64_t>{100, 200}));
    }

    void regexAndArgs()
    {
        const auto trace = makeTrace();
        SliceSearch::Options o;
        o.pattern = QStringLiteral("^aten::(relu|matmul)$");
        o.regex = true;
        QCOMPARE(starts(*trace, SliceSearch::find(*trace, o)), (std::vector<int64_t>{100, 300}));
        o.pattern = QStringLiteral("sgemm");
        o.regex = false;
        QVERIFY(SliceSearch::find(*trace, o).empty());
        o.includeArgs = true;
        QCOMPARE(starts(*trace, SliceSearch::find(*trace, o)), (std::vector<int64_t>{400}));
        QString error;
        o.pattern = QStringLiteral("(unclosed");
        o.regex = true;
        QVERIFY(SliceSearch::find(*trace, o, &error).empty());
        QVERIFY(!error.isEmpty());
        o.pattern.clear();
        QVERIFY(SliceSearch::find(*trace, o).empty());
    }

    void step()
    {
        const auto trace = makeTrace();
        SliceSearch::Options o;
        o.pattern = QStringLiteral("a"); // every slice: 100, 200, 300, 400, 500
        const auto hits = SliceSearch::find(*trace, o);
        QCOMPARE(hits.size(), size_t(5));
        QCOMPARE(SliceSearch::step(*trace, hits, 250, true), 2);  // 300
        QCOMPARE(SliceSearch::step(*trace, hits, 250, false), 1); // 200
        QCOMPARE(SliceSearch::step(*trace, hits, 500, true), 0);  // wraps to 100
        QCOMPARE(SliceSearch::step(*trace, hits, 100, false), 4); // wraps to 500
        QCOMPARE(SliceSearch::step(*trace, {}, 0, true), -1);
    }
};

QTEST_GUILESS_MAIN(TestSliceSearch)
#include "tst_slicesearch.moc"
