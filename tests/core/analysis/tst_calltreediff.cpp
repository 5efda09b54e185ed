// CallTreeDiff (core/analysis/calltreediff.h): on two hand-built profiles every node of B is matched
// to A's node at the same path of names (or to none when the path is new), A's weight is carried
// over, and A's paths that B lacks are counted as vanished; a tree compared with itself changes
// nowhere (xdit_sd35, every node).
#include "calltreetraces.h"
#include "corpus.h"
#include "loadtrace.h"

#include "analysis/calltree.h"
#include "analysis/calltreediff.h"
#include "analysis/launchindex.h"

#include <QtTest>

using namespace lanescope;
using lanescope::test::oneThread;

namespace {

const auto merged = [](const Trace &trace) { return lanescope::test::mergedTree(trace); };
const auto nodeAt = lanescope::test::nodeAtPath;

} // namespace

class TestCallTreeDiff : public QObject
{
    Q_OBJECT

private slots:
    // A: f [0,100) > g [10,50);  z [300,305)
    // B: f [0,150) > g [10,50) > x [20,30);  y [200,210)
    void handBuilt()
    {
        const auto a = oneThread({{0, 100, "f"}, {10, 40, "g"}, {300, 5, "z"}});
        const auto b = oneThread({{0, 150, "f"}, {10, 40, "g"}, {20, 10, "x"}, {200, 10, "y"}});
        const CallTree::Result ta = merged(*a), tb = merged(*b);
        const CallTreeDiff::Result d = CallTreeDiff::compute(tb, ta, CallTree::Weight::Cpu);
        QCOMPARE(d.match.size(), tb.nodes.size());
        QCOMPARE(d.before.size(), tb.nodes.size());
        QCOMPARE(d.match[0], uint32_t(0));
        QCOMPARE(d.before[0], int64_t(105));
        const uint32_t f = nodeAt(tb, "f"), g = nodeAt(tb, "f;g"), x = nodeAt(tb, "f;g;x"), y = nodeAt(tb, "y");
        QVERIFY(f != UINT32_MAX && g != UINT32_MAX && x != UINT32_MAX && y != UINT32_MAX);
        QCOMPARE(d.match[f], nodeAt(ta, "f"));
        QCOMPARE(d.before[f], int64_t(100));
        QCOMPARE(d.match[g], nodeAt(ta, "f;g"));
        QCOMPARE(d.before[g], int64_t(40));
        QCOMPARE(d.match[x], UINT32_MAX);
        QCOMPARE(d.before[x], int64_t(0));
        QCOMPARE(d.match[y], UINT32_MAX);
        QCOMPARE(d.vanished, int64_t(5)); // z
        QCOMPARE(d.vanishedPaths, uint32_t(1));
        // Self weight: A's self at the same path.
        const CallTreeDiff::Result s = CallTreeDiff::compute(tb, ta, CallTree::Weight::Self);
        QCOMPARE(s.before[f], int64_t(60));
        QCOMPARE(s.before[g], int64_t(40));
    }

    // Same name under another parent is another path: g at the top of B is not A's f;g.
    void pathsNotNames()
    {
        const auto a = oneThread({{0, 100, "f"}, {10, 40, "g"}});
        const auto b = oneThread({{0, 40, "g"}});
        const CallTree::Result ta = merged(*a), tb = merged(*b);
        const CallTreeDiff::Result d = CallTreeDiff::compute(tb, ta, CallTree::Weight::Cpu);
        QCOMPARE(d.match[nodeAt(tb, "g")], UINT32_MAX);
        QCOMPARE(d.vanished, int64_t(100)); // f (with its g) is gone
    }

    void itself()
    {
        const QString rel = QStringLiteral("tracelens/xdit_sd35_rank0.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const auto trace = lanescope::test::load(lanescope::test::corpusFile(rel));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const CallTree::Result t = CallTree::compute(*trace, index, {});
        for (const CallTree::Weight w : {CallTree::Weight::Cpu, CallTree::Weight::Device}) {
            const CallTreeDiff::Result d = CallTreeDiff::compute(t, t, w);
            QCOMPARE(d.vanished, int64_t(0));
            for (uint32_t i = 0; i < t.nodes.size(); ++i) {
                QCOMPARE(d.match[i], i);
                QCOMPARE(d.before[i], t.nodes[i].weight(w));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCallTreeDiff)
#include "tst_calltreediff.moc"
